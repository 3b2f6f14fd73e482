import { COLLECTION_INFO } from './collections.ts';
import type { Language } from './languages.ts';

// What the shared layout shows on every page (spec §1 footer, §2 header). Read on the server from
// Site settings (app/server/site/site.server.ts: a staff edit wins, else the environment's value, else the
// words below) and handed to the browser by the layout route's loader. Kept free of schemas: every
// public page downloads this file.

/** The organisation's details as the environment gives them (app/server/platform/config.server.ts). */
export interface Organisation {
  name: string;
  email: string;
  phone: string;
  location: string;
  /** Full https addresses; an empty one (removed in Site settings) is not shown. */
  social: { x: string; instagram: string; linkedin: string; youtube: string };
  donationUrl: string;
  courseUrl: string;
}

export interface SiteInfo extends Organisation {
  description: string;
  /** The course banner above the header (spec §2). */
  courseBanner: string;
  /** The site's public address without a trailing slash, for canonical URLs and feeds. */
  publicUrl: string;
  year: number;
  /** Issue 26: the page's language when it is not English (its canonical address carries the prefix). */
  language?: Language;
}

/** spec §2: the course banner's words until staff change them in Site settings. */
export const COURSE_BANNER_TEXT = 'New Course Available: Deaf / Hard of Hearing Awareness Training';
export const LOGO_FALLBACK_TEXT = 'TDG';

/** spec §2: five links; /blog reads Stories on desktop and Projects on mobile. */
export const NAV_LINKS = [
  { to: '/', label: 'Home', mobileLabel: 'Home' },
  { to: '/about', label: 'About Us', mobileLabel: 'About Us' },
  { to: COLLECTION_INFO.blogs.path, label: COLLECTION_INFO.blogs.label, mobileLabel: 'Projects' },
  { to: COLLECTION_INFO.news.path, label: COLLECTION_INFO.news.label, mobileLabel: COLLECTION_INFO.news.label },
  { to: '/contact', label: 'Contact Us', mobileLabel: 'Contact Us' },
] as const;

/** spec §9: the header changes look once scrolled more than 10 pixels. */
export const HEADER_SCROLL_THRESHOLD = 10;

/** Plain text as paragraphs: a blank line starts a new one; a single line break stays inside one. */
export function paragraphs(text: string): string[] {
  return text
    .split(/\n[^\S\n]*\n/)
    .map((part) => part.trim())
    .filter(Boolean);
}

/** The `tel:` address of a phone number as written (digits and a leading + only). */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, '')}`;
}
