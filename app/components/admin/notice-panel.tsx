import { Link } from 'react-router';

// The dashboard's one panel for a page that cannot be shown (refused, missing, failed): a title, a
// sentence and the way back to the dashboard.

const TONES = {
  /** spec §2: a section the role cannot use. */
  restricted: {
    section: 'mx-auto max-w-xl rounded-2xl border border-amber-300 bg-amber-50 p-8 text-center',
    title: 'text-2xl font-bold text-amber-950',
    text: 'mt-3 text-amber-950',
  },
  plain: {
    section: 'rounded-2xl border border-slate-200 bg-white p-8 text-center shadow-sm',
    title: 'text-2xl font-bold text-slate-900',
    text: 'mt-3 text-slate-700',
  },
} as const;

interface NoticePanelProps {
  title: string;
  message: string;
  tone?: keyof typeof TONES;
  /** h1 where the panel is the page, h2 inside the dashboard's layout with its own heading. */
  heading?: 'h1' | 'h2';
  /** Names the section by its title (for a panel among other landmarks). */
  titleId?: string;
  /** Classes put before the tone's (a width). */
  className?: string;
}

export function NoticePanel({ title, message, tone = 'plain', heading: Heading = 'h1', titleId, className }: NoticePanelProps) {
  const look = TONES[tone];
  return (
    <section className={className ? `${className} ${look.section}` : look.section} aria-labelledby={titleId}>
      <Heading id={titleId} className={look.title}>
        {title}
      </Heading>
      <p className={look.text}>{message}</p>
      <Link
        to="/admin"
        className="mt-6 inline-block rounded-lg bg-indigo-800 px-5 py-2.5 font-semibold text-white hover:bg-indigo-900"
      >
        Return to Dashboard
      </Link>
    </section>
  );
}
