/** A list with a check mark before each item: service features, course contents. */
export function CheckList({
  items,
  className = '',
  lang,
}: {
  items: readonly string[];
  className?: string;
  /** "en" for items from content on a page in another language. */
  lang?: string | undefined;
}) {
  return (
    <ul lang={lang} className={`space-y-3 ${className}`}>
      {items.map((item) => (
        <li key={item} className="flex gap-3 text-slate-800">
          <svg
            aria-hidden="true"
            focusable="false"
            viewBox="0 0 24 24"
            className="mt-0.5 h-5 w-5 shrink-0 text-indigo-700"
            fill="none"
            stroke="currentColor"
            strokeWidth={2.5}
            strokeLinecap="round"
            strokeLinejoin="round"
          >
            <path d="M5 12l5 5L20 7" />
          </svg>
          <span className="min-w-0 break-words">{item}</span>
        </li>
      ))}
    </ul>
  );
}
