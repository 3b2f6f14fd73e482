/** A staff member's picture, or the first letter of their name. */
export function Avatar({ name, src, size = 'h-14 w-14 text-xl' }: { name: string; src: string | null; size?: string }) {
  if (src) return <img src={src} alt="" width={56} height={56} className={`${size} shrink-0 rounded-full object-cover`} />;
  return (
    <span
      aria-hidden="true"
      className={`${size} inline-flex shrink-0 items-center justify-center rounded-full bg-indigo-800 font-bold text-white`}
    >
      {(name.trim()[0] ?? '?').toUpperCase()}
    </span>
  );
}
