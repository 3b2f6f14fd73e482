import { z } from 'zod';
import { CONTENT_MAX_NESTING, measureHtml, utf8Length } from './content-form.ts';
import type { Permission } from './permissions.ts';
import { isTimeZone, TIME_ZONE_MAX } from './schedule.ts';
import { COURSE_BANNER_TEXT } from './site.ts';
import { STATS, type Stat } from './stats.ts';
import { isStoryPath } from './article.ts';

// Issue 11, Site settings (/admin/settings): every word of the site that staff may change without a
// developer, in groups that each save on their own. The fields, their labels, limits and messages
// live here, shared by the browser (instant feedback) and the server (which checks again and stores;
// app/server/site/site-settings.server.ts). docs/decisions/502-site-settings.md

/** spec §3 Stat item limits and the issue's text limits. */
export const HEADLINE_MAX = 120;
export const SHORT_TEXT_MAX = 600;
/** The founder's full profile on About Us: plain paragraphs, longer than a short text. */
export const LONG_TEXT_MAX = 2_000;
/** Readable characters of a rich text (a policy page). */
export const RICH_TEXT_MAX = 20_000;
/** The most HTML a rich text may be sent as: far above 20,000 characters of well-formatted text. */
export const RICH_HTML_MAX_BYTES = 200_000;
export const STAT_NUMBER_MAX = 1_000_000;
export const STAT_SUFFIX_MAX = 3;
export const STAT_LABEL_MAX = 40;
export const LINK_MAX = 500;
export const EMAIL_MAX = 254;
export const NAME_MAX = 100;
const IMAGE_URL_MAX = 300;
const STORY_LINK_MAX = 300;
/** How many values About Us can list (six today, room for two more). */
export const VALUE_SLOTS = 8;
export const VALUE_NAME_MAX = 60;
export const VALUE_TEXT_MAX = 300;
export const STAT_COUNT = 4;

/**
 * ORG_PHONE's rule (app/server/platform/config.server.ts): digits, spaces, brackets and dashes, an optional
 * leading +, 6 to 20 characters. Linear: one character class, bounded.
 */
export const PHONE_PATTERN = /^\+?[\d\s()-]{6,20}$/;

export type SettingPermission = Extract<Permission, 'settings:texts' | 'settings:links'>;

export type FieldKind =
  | 'text' // one line
  | 'textarea' // plain text; a blank line starts a new paragraph
  | 'email'
  | 'phone'
  | 'link' // https only
  | 'number' // whole, 0 to 1,000,000
  | 'rich' // HTML from the rich-text editor, sanitised on the server as stories are
  | 'image' // an uploaded picture's address
  | 'storyLink' // the address of a story on this site, or empty for automatic
  | 'timeZone' // an IANA time zone name, such as Africa/Kampala (issue 13)
  | 'onOff'; // 'on' or 'off', chosen from a list (issue 26: a language offered on the public site)

export interface FieldSpec {
  label: string;
  kind: FieldKind;
  /** Characters (readable characters for rich texts). */
  max: number;
  required: boolean;
  /** A hint under the field. */
  hint?: string;
  /** Inputs grouped under a legend (a stat, a value): the group's legend and the short label shown. */
  set?: { legend: string; shortLabel: string };
}

const stat = <N extends number>(n: N) =>
  ({
    [`stat${n}Number`]: {
      label: `Stat ${n} number`,
      kind: 'number',
      max: 7,
      required: true,
      set: { legend: `Stat ${n}`, shortLabel: 'Number' },
    },
    [`stat${n}Suffix`]: {
      label: `Stat ${n} suffix`,
      kind: 'text',
      max: STAT_SUFFIX_MAX,
      required: false,
      hint: 'Shown after the number, such as + or %.',
      set: { legend: `Stat ${n}`, shortLabel: 'Suffix' },
    },
    [`stat${n}Label`]: {
      label: `Stat ${n} label`,
      kind: 'text',
      max: STAT_LABEL_MAX,
      required: true,
      set: { legend: `Stat ${n}`, shortLabel: 'Label' },
    },
  }) satisfies Record<string, FieldSpec> as Record<`stat${N}Number` | `stat${N}Suffix` | `stat${N}Label`, FieldSpec>;

const value = <N extends number>(n: N) =>
  ({
    [`value${n}Name`]: {
      label: `Value ${n} name`,
      kind: 'text',
      max: VALUE_NAME_MAX,
      required: false,
      set: { legend: `Value ${n}`, shortLabel: 'Name' },
    },
    [`value${n}Text`]: {
      label: `Value ${n} text`,
      kind: 'textarea',
      max: VALUE_TEXT_MAX,
      required: false,
      set: { legend: `Value ${n}`, shortLabel: 'Text' },
    },
  }) satisfies Record<string, FieldSpec> as Record<`value${N}Name` | `value${N}Text`, FieldSpec>;

export const SETTING_FIELDS = {
  // Organisation and contact (settings:links)
  orgName: { label: 'Organisation name', kind: 'text', max: NAME_MAX, required: true },
  orgEmail: {
    label: 'Email',
    kind: 'email',
    max: EMAIL_MAX,
    required: true,
    hint: 'Shown in the footer, the menu and the contact page; the inbox sends its notices here.',
  },
  orgPhone: { label: 'Phone', kind: 'phone', max: 20, required: true, hint: 'Such as +256 700 123 456.' },
  orgLocation: { label: 'Location', kind: 'text', max: 120, required: true, hint: 'The footer’s location line.' },
  // Donation, course and social links (settings:links)
  donationUrl: { label: 'Donation link', kind: 'link', max: LINK_MAX, required: true, hint: 'Where every Donate button leads.' },
  courseUrl: {
    label: 'Course link',
    kind: 'link',
    max: LINK_MAX,
    required: true,
    hint: 'Where the course banner and /course lead.',
  },
  socialX: { label: 'X', kind: 'link', max: LINK_MAX, required: false },
  socialInstagram: { label: 'Instagram', kind: 'link', max: LINK_MAX, required: false },
  socialLinkedin: { label: 'LinkedIn', kind: 'link', max: LINK_MAX, required: false },
  socialYoutube: { label: 'YouTube', kind: 'link', max: LINK_MAX, required: false },
  founderX: { label: 'Founder on X', kind: 'link', max: LINK_MAX, required: false },
  founderLinkedin: { label: 'Founder on LinkedIn', kind: 'link', max: LINK_MAX, required: false },
  // Course banner and footer (settings:texts)
  courseBanner: {
    label: 'Course banner text',
    kind: 'text',
    max: HEADLINE_MAX,
    required: true,
    hint: 'The line above the header, linking to the course.',
  },
  footerDescription: { label: 'Footer description', kind: 'textarea', max: SHORT_TEXT_MAX, required: true },
  // Home page (settings:texts)
  heroHeadline: { label: 'Headline', kind: 'text', max: HEADLINE_MAX, required: true },
  heroText: { label: 'Text under the headline', kind: 'textarea', max: SHORT_TEXT_MAX, required: true },
  missionHeading: { label: 'Mission heading', kind: 'text', max: HEADLINE_MAX, required: true },
  missionText: {
    label: 'Mission text',
    kind: 'textarea',
    max: SHORT_TEXT_MAX,
    required: true,
    hint: 'Leave a blank line between paragraphs.',
  },
  // Impact numbers (settings:texts)
  ...stat(1),
  ...stat(2),
  ...stat(3),
  ...stat(4),
  // Founder (settings:texts)
  founderName: { label: 'Founder’s name', kind: 'text', max: NAME_MAX, required: true },
  founderTitle: {
    label: 'Founder’s role',
    kind: 'text',
    max: HEADLINE_MAX,
    required: false,
    hint: 'Such as Founder & Executive Director.',
  },
  founderPhoto: { label: 'Founder’s photo', kind: 'image', max: IMAGE_URL_MAX, required: false },
  founderStory: {
    label: 'Founder’s story (home page)',
    kind: 'textarea',
    max: SHORT_TEXT_MAX,
    required: true,
    hint: 'Leave a blank line between paragraphs.',
  },
  founderProfile: {
    label: 'Founder’s profile (About Us)',
    kind: 'textarea',
    max: LONG_TEXT_MAX,
    required: true,
    hint: 'Leave a blank line between paragraphs. Also shown as the author of articles that have none.',
  },
  founderStoryLink: {
    label: '“Read the story” link',
    kind: 'storyLink',
    max: STORY_LINK_MAX,
    required: false,
    hint: 'The address of a story on this site, such as /blog/my-story. Leave it empty to link the founder’s newest personal-experience story, or their profile when they have none.',
  },
  // About Us (settings:texts)
  aboutMission: { label: 'Our mission', kind: 'textarea', max: SHORT_TEXT_MAX, required: true },
  aboutVision: { label: 'Our vision', kind: 'textarea', max: SHORT_TEXT_MAX, required: true },
  ...value(1),
  ...value(2),
  ...value(3),
  ...value(4),
  ...value(5),
  ...value(6),
  ...value(7),
  ...value(8),
  // The policy pages (settings:texts)
  privacyText: { label: 'Privacy Policy text', kind: 'rich', max: RICH_TEXT_MAX, required: true },
  termsText: { label: 'Terms of Service text', kind: 'rich', max: RICH_TEXT_MAX, required: true },
  accessibilityText: { label: 'Accessibility text', kind: 'rich', max: RICH_TEXT_MAX, required: true },
  // Publishing (settings:texts), issue 13
  timeZone: {
    label: 'Time zone',
    kind: 'timeZone',
    max: TIME_ZONE_MAX,
    required: true,
    hint: 'Scheduled stories and news are entered and shown in this time zone, such as Africa/Kampala or Europe/London.',
  },
  // Languages (settings:links, the Super Admin), issue 26
  languageLg: {
    label: 'Luganda (Oluganda)',
    kind: 'onOff',
    max: 3,
    required: true,
    hint: 'On: the public site is offered in Luganda under /lg/, with a language chooser in the header and menu.',
  },
  languageSw: {
    label: 'Swahili (Kiswahili)',
    kind: 'onOff',
    max: 3,
    required: true,
    hint: 'On: the public site is offered in Swahili under /sw/, with a language chooser in the header and menu.',
  },
} as const satisfies Record<string, FieldSpec>;

export type SettingField = keyof typeof SETTING_FIELDS;
export const FIELD_SPECS: Readonly<Record<SettingField, FieldSpec>> = SETTING_FIELDS;

export interface GroupSpec {
  title: string;
  description: string;
  permission: SettingPermission;
  fields: readonly SettingField[];
  /** Carries a file without JavaScript (the founder's photo). */
  multipart?: boolean;
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

export const SETTING_GROUPS = {
  organisation: {
    title: 'Organisation and contact',
    description: 'The name, email, phone and location in the header, footer, menu and contact page.',
    permission: 'settings:links',
    fields: ['orgName', 'orgEmail', 'orgPhone', 'orgLocation'],
  },
  links: {
    title: 'Donation, course and social links',
    description: 'Every link that leaves the site. Links must start with https://.',
    permission: 'settings:links',
    fields: [
      'donationUrl',
      'courseUrl',
      'socialX',
      'socialInstagram',
      'socialLinkedin',
      'socialYoutube',
      'founderX',
      'founderLinkedin',
    ],
  },
  header: {
    title: 'Course banner and footer',
    description: 'The course banner above the header and the short description in the footer.',
    permission: 'settings:texts',
    fields: ['courseBanner', 'footerDescription'],
  },
  home: {
    title: 'Home page',
    description: 'The headline at the top of the home page and the mission section under it.',
    permission: 'settings:texts',
    fields: ['heroHeadline', 'heroText', 'missionHeading', 'missionText'],
  },
  stats: {
    title: 'Impact numbers',
    description: 'The four figures on the home page, counting up when seen. The first one also shows beside the mission.',
    permission: 'settings:texts',
    fields: range(STAT_COUNT).flatMap((n) => [`stat${n}Number`, `stat${n}Suffix`, `stat${n}Label`] as SettingField[]),
  },
  founder: {
    title: 'Founder',
    description:
      'The founder’s story on the home page and their profile on About Us. Their X and LinkedIn links are with the other links.',
    permission: 'settings:texts',
    fields: ['founderName', 'founderTitle', 'founderPhoto', 'founderStory', 'founderProfile', 'founderStoryLink'],
    multipart: true,
  },
  about: {
    title: 'About Us',
    description: 'The mission, vision and values on the About Us page. Leave a value’s name and text empty to leave it out.',
    permission: 'settings:texts',
    fields: [
      'aboutMission',
      'aboutVision',
      ...range(VALUE_SLOTS).flatMap((n) => [`value${n}Name`, `value${n}Text`] as SettingField[]),
    ],
  },
  privacy: {
    title: 'Privacy Policy',
    description: 'The text of the Privacy Policy page.',
    permission: 'settings:texts',
    fields: ['privacyText'],
  },
  terms: {
    title: 'Terms of Service',
    description: 'The text of the Terms of Service page.',
    permission: 'settings:texts',
    fields: ['termsText'],
  },
  accessibility: {
    title: 'Accessibility',
    description: 'The text of the Accessibility page.',
    permission: 'settings:texts',
    fields: ['accessibilityText'],
  },
  publishing: {
    title: 'Publishing',
    description: 'The time zone of scheduled publishing.',
    permission: 'settings:texts',
    fields: ['timeZone'],
  },
  languages: {
    title: 'Languages',
    description:
      'The languages the public site is offered in besides English. The interface is translated; stories and other content stay in English for now.',
    permission: 'settings:links',
    fields: ['languageLg', 'languageSw'],
  },
} as const satisfies Record<string, GroupSpec>;

export type SettingGroup = keyof typeof SETTING_GROUPS;
export const GROUP_SPECS: Readonly<Record<SettingGroup, GroupSpec>> = SETTING_GROUPS;
export const GROUP_IDS = Object.keys(SETTING_GROUPS) as SettingGroup[];

export function isSettingGroup(value: unknown): value is SettingGroup {
  return typeof value === 'string' && Object.hasOwn(SETTING_GROUPS, value);
}

/** Where a field is stored: its row's key in the `settings` table. */
export function settingKey(field: SettingField): string {
  return `site.${field}`;
}

/** The settings rows whose value is a picture's address (app/server/media/media.server.ts keeps those pictures). */
export const IMAGE_SETTING_KEYS: readonly string[] = (Object.keys(SETTING_FIELDS) as SettingField[])
  .filter((field) => FIELD_SPECS[field].kind === 'image')
  .map(settingKey);

export const SETTINGS_MESSAGES = {
  fixErrors: 'Please fix the errors below before submitting.',
  linksForbidden:
    'Only the Super Admin can change contact details and links: a changed donation link would send money elsewhere.',
  readOnlyNote:
    'Only the Super Admin can change these, because a changed contact detail or link (such as the donation link) would send people, or money, elsewhere.',
  readOnlyLanguages: 'Only the Super Admin can change these, because they turn whole parts of the site on or off.',
  unknownGroup: 'Please choose a section of the settings to save.',
  nothingChanged: 'Nothing to save: no field was changed.',
  conflict:
    'Someone else saved this section after you opened the page. What you typed is still below: save again to replace their changes, or reload the page to see them.',
  failed: 'The settings could not be saved. Please try again.',
  email: 'Please enter a valid email address',
  phone: 'Please enter a phone number such as +256 700 123 456: digits, spaces, brackets and dashes, 6 to 20 characters',
  photoAgain: 'Please upload the photo again.',
  storyLink: 'Please give the address of a story on this site, such as /blog/my-story, or leave it empty.',
  storyMissing: 'There is no story at that address. Please check the link, or leave it empty.',
  tooDeep: 'The formatting is nested too deeply. Please remove some of the nested lists, quotes or styles.',
  timeZone: 'Please enter a time zone such as Africa/Kampala or Europe/London.',
  onOff: 'Please choose On or Off.',
} as const;

export const requiredMessage = (label: string) => `${label} is required`;
export const tooLongMessage = (label: string, max: number) =>
  `${label} must be at most ${max.toLocaleString('en-US')} characters`;
export const linkMessage = (label: string) =>
  `${label} must be a secure web address starting with https://, such as https://example.org`;
export const numberMessage = (label: string) =>
  `${label} must be a whole number from 0 to ${STAT_NUMBER_MAX.toLocaleString('en-US')}, without spaces or commas`;
export const valueNameMissing = (n: number) => `Please give value ${n} a name, or empty its text`;
export const valueTextMissing = (n: number) => `Please describe value ${n}, or empty its name`;
export const savedMessage = (group: SettingGroup) => `${GROUP_SPECS[group].title} updated successfully!`;

/** True for an absolute https address with a host and no spaces (never http:, javascript: or data:). */
export function isHttpsLink(value: string): boolean {
  if (value.length > LINK_MAX || /\s/.test(value) || !value.toLowerCase().startsWith('https://')) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.hostname.length > 0 && !url.username && !url.password;
  } catch {
    return false;
  }
}

/**
 * The path of a story as staff may paste it: `/blog/my-story`, or the whole address from the
 * browser (`https://…/blog/my-story`, query and fragment dropped). Undefined when it names no story.
 */
export function normaliseStoryLink(input: string): string | undefined {
  const value = input.trim();
  if (value.length > STORY_LINK_MAX) return undefined;
  let path: string;
  if (value.startsWith('/') && !value.startsWith('//')) path = value.split(/[?#]/, 1)[0]!;
  else if (/^https?:\/\//i.test(value)) {
    try {
      path = new URL(value).pathname;
    } catch {
      return undefined;
    }
  } else return undefined;
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  return isStoryPath(path) ? path : undefined;
}

const IMAGE_URL = /^\/media\/(site|profiles)\/[A-Za-z0-9._-]+\.webp$/;

/** One field's check, as the form posts it (text); numbers come out as numbers. */
function fieldSchema(field: SettingField): z.ZodType<string | number> {
  const spec = FIELD_SPECS[field];
  const { label, max, required } = spec;
  const text = () => {
    const base = z.string().trim();
    return (required ? base.min(1, requiredMessage(label)) : base).max(max, tooLongMessage(label, max));
  };
  switch (spec.kind) {
    case 'text':
    case 'textarea':
      // Line endings as one kind, so a browser's \r\n and a stored \n compare equal.
      return text().transform((v) => v.replace(/\r\n?/g, '\n'));
    case 'email':
      return z
        .string()
        .trim()
        .min(1, requiredMessage(label))
        .max(max, SETTINGS_MESSAGES.email)
        .pipe(z.email(SETTINGS_MESSAGES.email));
    case 'phone':
      return z
        .string()
        .trim()
        .min(1, requiredMessage(label))
        .refine((v) => v.length <= 20 && PHONE_PATTERN.test(v), SETTINGS_MESSAGES.phone);
    case 'link':
      return text().refine((v) => v === '' || isHttpsLink(v), linkMessage(label));
    case 'number':
      return z
        .string()
        .trim()
        .min(1, requiredMessage(label))
        .refine((v) => /^\d{1,7}$/.test(v) && Number(v) <= STAT_NUMBER_MAX, numberMessage(label))
        .transform(Number);
    case 'image':
      return z
        .string()
        .trim()
        .refine((v) => v === '' || (v.length <= IMAGE_URL_MAX && IMAGE_URL.test(v)), SETTINGS_MESSAGES.photoAgain);
    case 'storyLink':
      return z
        .string()
        .trim()
        .refine((v) => v === '' || normaliseStoryLink(v) !== undefined, SETTINGS_MESSAGES.storyLink)
        .transform((v) => (v === '' ? '' : normaliseStoryLink(v)!));
    case 'timeZone':
      return z
        .string()
        .trim()
        .min(1, requiredMessage(label))
        .refine((v) => isTimeZone(v), SETTINGS_MESSAGES.timeZone);
    case 'onOff':
      return z.string().refine((v) => v === 'on' || v === 'off', SETTINGS_MESSAGES.onOff);
    case 'rich':
      return z.string().check((ctx) => {
        const message = richTextProblem(label, ctx.value, required);
        if (message) ctx.issues.push({ code: 'custom', message, input: ctx.value });
      });
  }
}

/** What is wrong with a rich text, if anything: its size first (before any parsing), then its length. */
export function richTextProblem(label: string, html: string, required = true): string | undefined {
  // Refused before any character is parsed; counted only when its length alone cannot tell.
  if (html.length > RICH_HTML_MAX_BYTES || (html.length * 3 > RICH_HTML_MAX_BYTES && utf8Length(html) > RICH_HTML_MAX_BYTES))
    return tooLongMessage(label, RICH_TEXT_MAX);
  const { textLength, nesting } = measureHtml(html);
  if (required && textLength === 0) return requiredMessage(label);
  if (textLength > RICH_TEXT_MAX) return tooLongMessage(label, RICH_TEXT_MAX);
  if (nesting > CONTENT_MAX_NESTING) return SETTINGS_MESSAGES.tooDeep;
  return undefined;
}

/** The values a group's form saves: text, or a number for the stats' numbers. */
export type SettingValues = Partial<Record<SettingField, string | number>>;

/**
 * The form schema of one group: its fields, checked one by one, and About's values in pairs. A field
 * the post leaves out stays as it is (a form always sends all of its fields). `extra` adds fields the
 * form posts beside the settings (the server's: the page's version, a photo sent without JavaScript).
 */
export function groupSchema<E extends z.ZodRawShape = Record<never, never>>(group: SettingGroup, extra?: E) {
  const fields = Object.fromEntries(GROUP_SPECS[group].fields.map((field) => [field, fieldSchema(field).optional()])) as Record<
    SettingField,
    z.ZodOptional<z.ZodType<string | number>>
  >;
  return z.object({ ...fields, ...(extra ?? ({} as E)) }).superRefine((values, ctx) => {
    if (group !== 'about') return;
    const read = values as SettingValues;
    for (const n of range(VALUE_SLOTS)) {
      const name = read[`value${n}Name` as SettingField];
      const text = read[`value${n}Text` as SettingField];
      if (name && text === '') ctx.addIssue({ code: 'custom', path: [`value${n}Text`], message: valueTextMissing(n) });
      if (text && name === '') ctx.addIssue({ code: 'custom', path: [`value${n}Name`], message: valueNameMissing(n) });
    }
  });
}

/** The home page's words and figures. */
export interface HomeTexts {
  heroHeadline: string;
  heroText: string;
  missionHeading: string;
  missionText: string;
  stats: Stat[];
}

export interface AboutTexts {
  mission: string;
  vision: string;
  values: { name: string; text: string }[];
}

export type LegalPage = 'privacy' | 'terms' | 'accessibility';

export interface LegalPageText {
  /** Sanitised when saved (or the built-in text). */
  html: string;
  /** "November 2026": when the text was last saved, or when the built-in text was written. */
  updated: string;
}

/** The words the site showed before Site settings existed: the defaults of every text field. */
export const TEXT_DEFAULTS = {
  // Issue 26: no language but English until the Super Admin turns one on.
  languageLg: 'off',
  languageSw: 'off',
  courseBanner: COURSE_BANNER_TEXT,
  footerDescription:
    'We raise disability awareness in Uganda through education and storytelling, and create opportunities for young persons with disabilities.',
  heroHeadline: 'Raising disability awareness through education and storytelling',
  heroText:
    'We create opportunities for young persons with disabilities, and help schools, employers and families include everyone.',
  missionHeading: 'Awareness that opens doors',
  missionText:
    'Too many deaf, hard-of-hearing and disabled young people in Uganda are shut out of classrooms, jobs and conversations. We change that by telling their stories, teaching communities what inclusion looks like and training young people with disabilities for the work they want to do.\n\nLed by people with lived experience, we work with schools, employers, families and faith groups across Uganda.',
  aboutMission:
    'To raise disability awareness through education and storytelling, and to create opportunities for young persons with disabilities.',
  aboutVision:
    'A Uganda where every deaf, hard-of-hearing and disabled person can learn, work, communicate and take part in community life on equal terms.',
} as const satisfies Partial<Record<SettingField, string>>;

/** spec §9: the stats strip's figures until staff change them. */
export const DEFAULT_STATS: readonly Stat[] = STATS;

export const DEFAULT_VALUES: readonly { name: string; text: string }[] = [
  {
    name: 'Nothing about us without us',
    text: 'Deaf, hard-of-hearing and disabled people lead our work, tell their own stories and train others.',
  },
  { name: 'Dignity', text: 'We show people with disabilities as whole people: learners, workers, parents and leaders.' },
  {
    name: 'Access for everyone',
    text: 'Sign language, captions, large print and step-free venues are part of the plan from the start, not an extra.',
  },
  { name: 'Practical change', text: 'We share small, concrete steps that schools, employers and families can take tomorrow.' },
  { name: 'Community', text: 'We work alongside families, local leaders, Deaf associations and other organisations.' },
  { name: 'Honesty', text: 'We speak plainly about barriers, and report our own reach truthfully.' },
];

/** When the built-in policy texts were written ("Last updated" until staff save their own). */
export const LEGAL_DEFAULT_UPDATED = 'November 2026';

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** The built-in Privacy Policy, naming the organisation's current email. */
export function defaultPrivacyHtml(email: string): string {
  const address = escapeHtml(email);
  return [
    '<p>We collect as little about you as we can, and we never sell it.</p>',
    '<h2>What we keep</h2>',
    '<ul>',
    '<li>When you send the contact form: your name, email, optional phone number, subject and message, so we can answer you.</li>',
    '<li>When you subscribe to our newsletter: your email address, until you ask us to remove it.</li>',
    '<li>For staff who sign in: their account details and a record of sign-ins, to keep the dashboard secure.</li>',
    '</ul>',
    '<h2>What we do not do</h2>',
    '<p>This site has no advertising, no tracking scripts and no third-party analytics. Every file is served by us, so visiting does not tell any other company that you were here.</p>',
    '<h2>Your choices</h2>',
    `<p>To see, correct or delete what we hold about you, write to <a href="mailto:${address}">${address}</a> or use the <a href="/contact">contact form</a>. We answer within 30 days, as the Data Protection and Privacy Act 2019 of Uganda requires.</p>`,
  ].join('');
}

export const DEFAULT_TERMS_HTML = [
  '<p>By using this website you agree to these terms. They are short because our aim is simple: to share knowledge about disability inclusion.</p>',
  '<h2>Sharing our stories</h2>',
  '<p>You are welcome to share links to our stories and articles. To republish a story in full, please ask us first: many are personal accounts, and we protect the people who trusted us with them.</p>',
  '<h2>External sites</h2>',
  '<p>Donations and our awareness course are handled on partner sites that open in a new tab. Their own terms apply there.</p>',
  '<h2>Questions</h2>',
  '<p>If anything here is unclear, <a href="/contact">contact us</a>.</p>',
].join('');

export const DEFAULT_ACCESSIBILITY_HTML = [
  '<p>We are a disability organisation, so this website must work for everyone: on a small phone, on slow mobile data, with a screen reader, a keyboard, captions or large text.</p>',
  '<h2>What we do</h2>',
  '<ul>',
  '<li>We aim to meet the Web Content Accessibility Guidelines (WCAG) 2.2 at level AA.</li>',
  '<li>Every page works with a keyboard alone, shows where focus is, and starts with a link to skip to the main content.</li>',
  '<li>Images carry text descriptions; text can be enlarged to 200% without losing content.</li>',
  '<li>Animations stop when your device asks for reduced motion.</li>',
  "<li>Pages are small and load quickly, and the contact form works even before the page's scripts have loaded.</li>",
  '</ul>',
  '<h2>Tell us what does not work</h2>',
  '<p>If something on this site is hard to use, please <a href="/contact?subject=Accessibility">tell us</a>. We will fix it or send you the content in a form that suits you.</p>',
].join('');

/** What the settings screen gets for one group. */
export interface SettingsGroupView {
  id: SettingGroup;
  /** Whether this staff member may save it (else it is shown read-only). */
  editable: boolean;
  /** Changes whenever any of the group's values changes: a save from an older page is told. */
  version: string;
  values: Partial<Record<SettingField, string>>;
}

/** What the settings action answers, with or without JavaScript. */
export interface SettingsAnswer {
  ok: boolean;
  group: SettingGroup | null;
  message: string;
  errors: Partial<Record<SettingField | 'form', string>>;
  /** What was posted, to fill the form in again after a failure. */
  values: Partial<Record<SettingField, string>>;
  /** The group's version now (after a save, or the newer one a conflict found). */
  version?: string;
}
