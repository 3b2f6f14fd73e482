import type { ReactNode } from 'react';

/**
 * A closing panel with a heading, a line of text and buttons: dark (indigo) or light (indigo-50),
 * so it stands apart from the footer's own dark call to action.
 */
export function CallToAction({
  id,
  kicker,
  title,
  text,
  tone,
  children,
  footer,
}: {
  id: string;
  kicker?: string;
  title: string;
  text: string;
  tone: 'dark' | 'light';
  /** The buttons. */
  children: ReactNode;
  /** A line under the buttons. */
  footer?: ReactNode;
}) {
  const dark = tone === 'dark';
  return (
    <section
      aria-labelledby={id}
      className={`rounded-2xl px-6 py-12 text-center md:px-12 md:py-16 ${dark ? 'bg-gradient-to-br from-indigo-900 to-indigo-800 text-white' : 'border border-indigo-100 bg-indigo-50'}`}
    >
      {kicker && (
        <p className={`text-sm font-semibold tracking-widest uppercase ${dark ? 'text-amber-300' : 'text-indigo-700'}`}>
          {kicker}
        </p>
      )}
      <h2 id={id} className={`text-3xl font-bold md:text-4xl ${kicker ? 'mt-2' : ''} ${dark ? '' : 'text-slate-900'}`}>
        {title}
      </h2>
      <p className={`mx-auto mt-4 max-w-2xl text-lg ${dark ? 'text-indigo-100' : 'text-slate-700'}`}>{text}</p>
      <div className="mt-8 flex flex-wrap items-center justify-center gap-3">{children}</div>
      {footer && <p className={`mt-6 ${dark ? 'text-indigo-100' : 'text-slate-700'}`}>{footer}</p>}
    </section>
  );
}
