import type { MessageId } from './en.ts';
import type { NAV_LINKS } from '../site.ts';

/** Issue 26: the words of the spec's five links (lib/site.ts NAV_LINKS), on wide screens and in the phone menu. */
export const NAV_LABELS: Readonly<Record<(typeof NAV_LINKS)[number]['to'], { label: MessageId; mobileLabel: MessageId }>> = {
  '/': { label: 'nav.home', mobileLabel: 'nav.home' },
  '/about': { label: 'nav.about', mobileLabel: 'nav.about' },
  '/blog': { label: 'nav.stories', mobileLabel: 'nav.projects' },
  '/news': { label: 'nav.news', mobileLabel: 'nav.news' },
  '/contact': { label: 'nav.contact', mobileLabel: 'nav.contact' },
};
