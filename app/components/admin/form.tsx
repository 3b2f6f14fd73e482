import { useEffect, useRef, useState, type InputHTMLAttributes, type ReactNode } from 'react';
import { PASSWORD_MIN } from '~/lib/auth';

// The dashboard forms' shared pieces: one look for text fields, one way to show a field's error, one
// labelled field that wires its label, note and error to the control by id, and the email and new
// password fields several forms ask for.

/**
 * The state of a controlled text field that keeps what was typed before the page's script ran (staff
 * on a slow connection): React hydrates the field without reading it, and its next render would put
 * the server's value back. Pass the ref to the field.
 */
export function useTypedState(initial: string) {
  const [value, setValue] = useState(initial);
  const ref = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  useEffect(() => {
    const typed = ref.current?.value;
    if (typed !== undefined && typed !== initial) setValue(typed);
    // Once, as the script takes over the field.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return [value, setValue, ref] as const;
}

/** The look of a form's main button (Save, Publish): the same on every screen. */
export const primaryButton =
  'rounded-lg bg-indigo-800 px-5 py-2.5 font-semibold text-white hover:bg-indigo-900 disabled:bg-slate-400 disabled:text-slate-900';

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

/** What a field's control spreads onto itself: its id and the states a screen reader hears. */
export interface ControlProps {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

interface FieldProps {
  id: string;
  label: ReactNode;
  required?: boolean;
  /** A hint or character count under the control, read with it. */
  note?: ReactNode;
  /** The note's id, `<id>-note` unless given. */
  noteId?: string;
  /** Marks the note as a problem (a count past its limit). */
  noteWarns?: boolean;
  error?: string | undefined;
  children: (control: ControlProps) => ReactNode;
}

/**
 * One labelled field: the label (a star when required), the control, its note and its error. The
 * control is described by the error first, then the note.
 */
export function Field({ id, label, required, note, noteId = `${id}-note`, noteWarns, error, children }: FieldProps) {
  const errorId = `${id}-error`;
  const hasNote = note !== undefined && note !== null && note !== false;
  const describedBy = [error ? errorId : '', hasNote ? noteId : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div>
      <label htmlFor={id} className="block font-medium text-slate-900">
        {label}
        {required && (
          <>
            {' '}
            <span aria-hidden="true">*</span>
          </>
        )}
      </label>
      {children({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy })}
      {hasNote && (
        <p id={noteId} className={`mt-1 text-sm ${noteWarns ? 'font-semibold text-red-800' : 'text-slate-600'}`}>
          {note}
        </p>
      )}
      <FieldError id={errorId} message={error} />
    </div>
  );
}

type InputAttributes = InputHTMLAttributes<HTMLInputElement>;

/** A field of one input, named by its id: the field's props, the input's own attributes after them. */
function InputField({ input, ...field }: Omit<FieldProps, 'children'> & { input: InputAttributes }) {
  return <Field {...field}>{(control) => <input {...control} name={field.id} {...input} />}</Field>;
}

/** What a form chooses of a field it takes whole: its label, note and error, and the input's look. */
type WholeFieldProps = Omit<FieldProps, 'children'> & { className: string };

/** An email address field: required, at most 254 characters (what every email schema allows). */
export function EmailField({
  className,
  autoComplete,
  defaultValue,
  readOnly,
  ...field
}: WholeFieldProps & Pick<InputAttributes, 'autoComplete' | 'defaultValue' | 'readOnly'>) {
  const input = { type: 'email', required: true, maxLength: 254, autoComplete, defaultValue, readOnly, className };
  return <InputField {...field} input={input} />;
}

/** A field for a password being chosen: required, at least PASSWORD_MIN characters, marked new for password managers. */
export function NewPasswordField({ className, ...field }: WholeFieldProps) {
  const input = { type: 'password', required: true, minLength: PASSWORD_MIN, autoComplete: 'new-password', className };
  return <InputField {...field} input={input} />;
}
