import type { Kysely } from 'kysely';
import type { SiteInfo } from '../../lib/site.ts';
import { DEFAULT_LANGUAGE, PREFIXED_LANGUAGES, type Language, type PrefixedLanguage } from '../../lib/languages.ts';
import {
  LEGAL_DEFAULT_UPDATED,
  STAT_COUNT,
  VALUE_SLOTS,
  type AboutTexts,
  type HomeTexts,
  type LegalPage,
  type LegalPageText,
  type SettingField,
} from '../../lib/site-settings.ts';
import { getConfig } from '../platform/config.server.ts';
import { getDb } from '../db/db.server.ts';
import type { Database } from '../db/schema.ts';
import { readSiteSettings } from './site-settings.server.ts';

// What the public pages show from Site settings (app/server/site/site-settings.server.ts): a staff edit
// wins, else the environment's value, else today's words. Each reader is one query.

const SITE_FIELDS = [
  'orgName',
  'orgEmail',
  'orgPhone',
  'orgLocation',
  'footerDescription',
  'courseBanner',
  'donationUrl',
  'courseUrl',
  'socialX',
  'socialInstagram',
  'socialLinkedin',
  'socialYoutube',
] as const satisfies readonly SettingField[];

const text = (value: string | number) => String(value);
/** Issue 29: what these functions read is kept between renders (site-settings.server.ts). */
const PUBLIC_PAGE = { forPublicPage: true };

/**
 * The organisation's details, links and the words of the header and footer (the public layout's
 * loader, on every page; the contact page and the inbox read `.email`).
 */
export async function getSiteInfo(db: Kysely<Database> = getDb()): Promise<SiteInfo> {
  const { values: v } = await readSiteSettings(SITE_FIELDS, db, PUBLIC_PAGE);
  return {
    name: text(v.orgName),
    description: text(v.footerDescription),
    email: text(v.orgEmail),
    phone: text(v.orgPhone),
    location: text(v.orgLocation),
    social: {
      x: text(v.socialX),
      instagram: text(v.socialInstagram),
      linkedin: text(v.socialLinkedin),
      youtube: text(v.socialYoutube),
    },
    donationUrl: text(v.donationUrl),
    courseUrl: text(v.courseUrl),
    courseBanner: text(v.courseBanner),
    publicUrl: getConfig().publicUrl,
    year: new Date().getFullYear(),
  };
}

/**
 * Issue 26: the languages the public site is offered in, English first, then each one the Super Admin
 * has turned on in Site settings (English alone when none is).
 */
export async function getPublicLanguages(db: Kysely<Database> = getDb()): Promise<Language[]> {
  const { values } = await readSiteSettings(['languageLg', 'languageSw'], db, PUBLIC_PAGE);
  const on: Record<PrefixedLanguage, boolean> = { lg: values.languageLg === 'on', sw: values.languageSw === 'on' };
  return [DEFAULT_LANGUAGE, ...PREFIXED_LANGUAGES.filter((language) => on[language])];
}

/** One outgoing link (/donate and /course redirect to it). */
export async function getOutgoingLink(field: 'donationUrl' | 'courseUrl', db: Kysely<Database> = getDb()): Promise<string> {
  const { values } = await readSiteSettings([field], db, PUBLIC_PAGE);
  return text(values[field]);
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

const HOME_FIELDS = [
  'heroHeadline',
  'heroText',
  'missionHeading',
  'missionText',
  ...range(STAT_COUNT).flatMap((n) => [`stat${n}Number`, `stat${n}Suffix`, `stat${n}Label`] as SettingField[]),
] as SettingField[];

/** The home page's hero, mission section and four figures. */
export async function getHomeTexts(db: Kysely<Database> = getDb()): Promise<HomeTexts> {
  const { values: v } = await readSiteSettings(HOME_FIELDS, db, PUBLIC_PAGE);
  return {
    heroHeadline: text(v.heroHeadline),
    heroText: text(v.heroText),
    missionHeading: text(v.missionHeading),
    missionText: text(v.missionText),
    stats: range(STAT_COUNT).map((n) => ({
      number: Number(v[`stat${n}Number` as SettingField]),
      suffix: text(v[`stat${n}Suffix` as SettingField]),
      label: text(v[`stat${n}Label` as SettingField]),
    })),
  };
}

const ABOUT_FIELDS = [
  'aboutMission',
  'aboutVision',
  ...range(VALUE_SLOTS).flatMap((n) => [`value${n}Name`, `value${n}Text`] as SettingField[]),
] as SettingField[];

/** About Us: the mission, the vision and the values that have a name. */
export async function getAboutTexts(db: Kysely<Database> = getDb()): Promise<AboutTexts> {
  const { values: v } = await readSiteSettings(ABOUT_FIELDS, db, PUBLIC_PAGE);
  return {
    mission: text(v.aboutMission),
    vision: text(v.aboutVision),
    values: range(VALUE_SLOTS)
      .map((n) => ({ name: text(v[`value${n}Name` as SettingField]), text: text(v[`value${n}Text` as SettingField]) }))
      .filter((value) => value.name && value.text),
  };
}

const LEGAL_FIELD: Record<LegalPage, SettingField> = {
  privacy: 'privacyText',
  terms: 'termsText',
  accessibility: 'accessibilityText',
};

const monthYear = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });

/** A policy page's text (sanitised when it was saved) and when it was last changed. */
export async function getLegalPage(page: LegalPage, db: Kysely<Database> = getDb()): Promise<LegalPageText> {
  const field = LEGAL_FIELD[page];
  const { values, updatedAt } = await readSiteSettings([field], db, PUBLIC_PAGE);
  const at = updatedAt[field];
  return { html: text(values[field]), updated: at ? monthYear.format(new Date(at)) : LEGAL_DEFAULT_UPDATED };
}
