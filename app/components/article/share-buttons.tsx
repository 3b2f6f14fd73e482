import type { ComponentType, ReactNode } from 'react';
import { useI18n } from '~/lib/i18n/i18n';
import { ExternalLink } from '../external-link';
import { LinkedInLogo, XLogo } from '../icons';
import { useToast } from '../toast';

type IconProps = { className?: string };

function FacebookLogo({ className = 'h-5 w-5' }: IconProps) {
  return (
    <svg aria-hidden="true" focusable="false" viewBox="0 0 24 24" className={className} fill="currentColor">
      <path d="M13.5 21v-7.5h2.6l.4-3h-3V8.6c0-.9.3-1.5 1.5-1.5h1.6V4.4c-.3 0-1.2-.1-2.3-.1-2.3 0-3.9 1.4-3.9 4v2.2H7.8v3h2.6V21h3.1z" />
    </svg>
  );
}

function LinkIcon({ className = 'h-5 w-5' }: IconProps) {
  return (
    <svg
      aria-hidden="true"
      focusable="false"
      viewBox="0 0 24 24"
      className={className}
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
    >
      <path d="M10 14a4 4 0 005.7 0l3-3a4 4 0 00-5.7-5.7l-1 1" />
      <path d="M14 10a4 4 0 00-5.7 0l-3 3a4 4 0 005.7 5.7l1-1" />
    </svg>
  );
}

/** The sharers' own addresses, with the page address encoded (spec §2 share buttons). */
export function shareLinks(url: string, title: string) {
  const u = encodeURIComponent(url);
  return [
    { network: 'Facebook', href: `https://www.facebook.com/sharer/sharer.php?u=${u}`, Icon: FacebookLogo },
    {
      network: 'Twitter',
      href: `https://twitter.com/intent/tweet?url=${u}&text=${encodeURIComponent(title)}`,
      Icon: XLogo,
    },
    { network: 'LinkedIn', href: `https://www.linkedin.com/sharing/share-offsite/?url=${u}`, Icon: LinkedInLogo },
  ] as const;
}

/** The rounded outline buttons of the share row and the author's social links. */
export const PILL_CLASS =
  'inline-flex min-h-11 items-center gap-2 rounded-full border border-slate-300 bg-white px-4 font-medium text-slate-800 transition-colors hover:border-indigo-800 hover:bg-indigo-50 hover:text-indigo-900';

/** One outline button to another site, with the network's icon. */
export function PillLink({ href, Icon, children }: { href: string; Icon: ComponentType<IconProps>; children: ReactNode }) {
  return (
    <ExternalLink href={href} className={PILL_CLASS}>
      <Icon className="h-4 w-4" />
      {children}
    </ExternalLink>
  );
}

/**
 * spec §2: Facebook, Twitter and LinkedIn open in a new window (plain links, so they work without
 * JavaScript); Copy Link copies the address and says so. A copy failure is only logged (spec §8).
 */
export function ShareButtons({ url, title }: { url: string; title: string }) {
  const toast = useToast();
  const { t } = useI18n();
  async function copyLink() {
    try {
      await navigator.clipboard.writeText(url);
      toast('success', t('article.linkCopied'));
    } catch (error) {
      console.error('Copying the link failed', error);
    }
  }
  return (
    <section aria-labelledby="share-article" className="flex flex-col gap-3 sm:flex-row sm:items-center">
      <h2 id="share-article" className="text-lg font-semibold text-slate-900">
        {t('article.share')}
      </h2>
      <ul className="flex flex-wrap gap-2">
        {shareLinks(url, title).map(({ network, href, Icon }) => (
          <li key={network}>
            <PillLink href={href} Icon={Icon}>
              <span className="sr-only">{t('article.shareOn')}</span>
              {network}
            </PillLink>
          </li>
        ))}
        <li>
          {/* Issue 24: shown and wired by the page script (app/client/reading.ts); without scripts it could not copy. */}
          <button
            type="button"
            onClick={copyLink}
            className={PILL_CLASS}
            hidden
            data-copy-link={url}
            data-copied={t('article.linkCopied')}
          >
            <LinkIcon className="h-4 w-4" />
            {t('article.copyLink')}
          </button>
        </li>
      </ul>
    </section>
  );
}
