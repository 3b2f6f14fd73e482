// The dashboard forms' shared pieces: one look for text fields and one way to show a field's error.

export function inputClass(invalid: boolean, size: 'md' | 'lg' = 'md'): string {
  const padding = size === 'lg' ? 'px-4 py-3 text-base' : 'px-3 py-2.5';
  return `mt-1 block w-full rounded-lg border-2 ${padding} text-slate-900 ${invalid ? 'border-red-700' : 'border-slate-300 focus:border-indigo-700'}`;
}

/** A field's message, with the id its input names in aria-describedby. */
export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className="mt-1 text-sm font-medium text-red-800">
      {message}
    </p>
  );
}
