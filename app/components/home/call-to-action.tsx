import type { ReactNode } from 'react';
import { PageLink } from '~/components/page-link';
import { ExternalLink } from '../external-link';
import { BUTTON } from './styles';

interface CallToActionProps {
  id: string;
  kicker?: string;
  title: string;
  text: string;
  tone: 'dark' | 'light';
  /** The buttons. */
  children: ReactNode;
  /** A line under the buttons. */
  footer?: ReactNode;
}

/**
 * A closing panel with a heading, a line of text and buttons: dark (indigo) or light (indigo-50),
 * so it stands apart from the footer's own dark call to action.
 */
export function CallToAction({ id, kicker, title, text, tone, children, footer }: CallToActionProps) {
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

interface CallToActionLink {
  to: string;
  label: string;
  /** Opens in a new tab (the donation page). */
  external?: boolean;
}

/** The main and the second button's looks on each tone. */
const LINK_LOOKS = {
  light: [BUTTON.primary, BUTTON.outline],
  dark: [BUTTON.accent, BUTTON.outlineOnDark],
} as const;

/** The call to action that closes a page, in the page's width, with a main and a second button. */
export function ClosingCallToAction({
  links,
  ...panel
}: Omit<CallToActionProps, 'children'> & { links: readonly [CallToActionLink, CallToActionLink] }) {
  return (
    <div className="mx-auto max-w-7xl px-4 pb-16 md:pb-24">
      <CallToAction {...panel}>
        {links.map((link, index) =>
          link.external ? (
            <ExternalLink key={link.to} href={link.to} className={LINK_LOOKS[panel.tone][index]}>
              {link.label}
            </ExternalLink>
          ) : (
            <PageLink key={link.to} to={link.to} className={LINK_LOOKS[panel.tone][index]}>
              {link.label}
            </PageLink>
          ),
        )}
      </CallToAction>
    </div>
  );
}
