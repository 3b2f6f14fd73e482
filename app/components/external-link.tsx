import type { AnchorHTMLAttributes } from 'react';
import { useI18n } from '~/lib/i18n/i18n';

/** A link that opens in a new tab, safely, and says so to screen-reader users. */
export function ExternalLink({ children, ...props }: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  const { t, language } = useI18n();
  return (
    <a {...props} target="_blank" rel="noopener noreferrer">
      {children}
      {/* Issue 26: in the page's language, even inside an English text (the course banner). */}
      <span className="sr-only" lang={props.lang && props.lang !== language ? language : undefined}>
        {' '}
        ({t('link.newTab')})
      </span>
    </a>
  );
}
