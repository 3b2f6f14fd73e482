import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { can } from '../../lib/permissions.ts';
import { textLength } from '../../lib/content-form.ts';
import {
  DEFAULT_ACCESSIBILITY_HTML,
  DEFAULT_STATS,
  DEFAULT_TERMS_HTML,
  DEFAULT_VALUES,
  defaultPrivacyHtml,
  FIELD_SPECS,
  GROUP_SPECS,
  normaliseStoryLink,
  requiredMessage,
  settingKey,
  SETTINGS_MESSAGES,
  TEXT_DEFAULTS,
  type SettingField,
  type SettingGroup,
  type SettingsGroupView,
  type SettingValues,
} from '../../lib/site-settings.ts';
import { FORBIDDEN_MESSAGE, type StaffUser } from '../staff/auth.server.ts';
import { recordAudit } from '../platform/audit.server.ts';
import { getConfig } from '../platform/config.server.ts';
import { getDb } from '../db/db.server.ts';
import type { Database } from '../db/schema.ts';
import { nowIso } from '../platform/ids.server.ts';
import { getLogger } from '../platform/logger.server.ts';
import { publicRead } from '../platform/public-reads.server.ts';
import { isStoredImage, removeImageIfUnused } from '../media/media.server.ts';
import { RuleError } from '../platform/rule-error.server.ts';
import { sanitizeArticleHtml } from '../platform/sanitize.server.ts';
import { SETTING_KEYS } from '../platform/settings.server.ts';
import { DEFAULT_FOUNDER } from './site-defaults.server.ts';
import { DEFAULT_TIME_ZONE } from '../../lib/schedule.ts';

// Site settings (issue 11, docs/decisions/502-site-settings.md). Each field is one row of `settings`
// (key `site.<field>`, a JSON value) written only when staff change it: a field nobody changed keeps
// following its default (the environment's ORG_*, SOCIAL_*, DONATION_URL and COURSE_URL, the founder's
// staff account, or the words in code), and a field changed back to its default stops being stored.
// Reads are one query for any set of fields. Writes check who may change what (settings:texts,
// settings:links), sanitise rich texts as stories are, and are audited with the old and new values.

export { settingKey };

type Value = string | number;

/** The founder as the defaults give them: the staff account the founder_email setting names, else the built-in profile. */
export interface FounderBase {
  name: string;
  email: string;
  title: string;
  bio: string;
  fullBio: string;
  pictureUrl: string | null;
  twitter: string;
  linkedin: string;
}

export interface ResolvedSettings<F extends SettingField> {
  values: Record<F, Value>;
  defaults: Record<F, Value>;
  /** When each stored field was last saved (fields following their default have none). */
  updatedAt: Partial<Record<F, string>>;
  /** Read only when a founder field was asked for. */
  founder: FounderBase | undefined;
}

const FOUNDER_DEFAULTS: readonly SettingField[] = [
  'founderName',
  'founderTitle',
  'founderPhoto',
  'founderStory',
  'founderProfile',
  'founderX',
  'founderLinkedin',
];

function builtInFounder(): FounderBase {
  const { name, email, title, bio, fullBio, twitter = '', linkedin = '' } = DEFAULT_FOUNDER;
  return { name, email, title, bio, fullBio, pictureUrl: null, twitter, linkedin };
}

function webLink(value: unknown): string {
  return typeof value === 'string' && /^https?:\/\/\S+$/.test(value) && value.length <= 500 ? value : '';
}

function parseSocial(json: string): { twitter: string; linkedin: string } {
  try {
    const value = JSON.parse(json) as Record<string, unknown>;
    return { twitter: webLink(value.twitter), linkedin: webLink(value.linkedin) };
  } catch {
    return { twitter: '', linkedin: '' };
  }
}

/** The staff account named by the founder_email setting, or the built-in founder when there is none. */
async function readFounderBase(db: Kysely<Database>, founderEmail: unknown): Promise<FounderBase> {
  if (typeof founderEmail !== 'string' || !founderEmail) return builtInFounder();
  const row = await db
    .selectFrom('system_users')
    .select(['name', 'email', 'title', 'bio', 'full_bio', 'profile_picture', 'social_links'])
    .where('email', '=', founderEmail.toLowerCase())
    .executeTakeFirst();
  if (!row) return builtInFounder();
  return {
    name: row.name,
    email: row.email,
    title: row.title,
    bio: row.bio,
    fullBio: row.full_bio || row.bio,
    pictureUrl: row.profile_picture,
    ...parseSocial(row.social_links),
  };
}

/** A stored value is used only when it has the field's type (a number for the stats' numbers). */
function usable(field: SettingField, value: unknown): value is Value {
  return FIELD_SPECS[field].kind === 'number'
    ? typeof value === 'number' && Number.isInteger(value) && value >= 0
    : typeof value === 'string';
}

function defaultValue(field: SettingField, context: { email: string; founder: FounderBase | undefined }): Value {
  const org = getConfig().organisation;
  const founder = context.founder ?? builtInFounder();
  const stat = /^stat(\d)(Number|Suffix|Label)$/.exec(field);
  if (stat) {
    const item = DEFAULT_STATS[Number(stat[1]) - 1]!;
    return stat[2] === 'Number' ? item.number : stat[2] === 'Suffix' ? item.suffix : item.label;
  }
  const value = /^value(\d)(Name|Text)$/.exec(field);
  if (value) {
    const item = DEFAULT_VALUES[Number(value[1]) - 1];
    return (value[2] === 'Name' ? item?.name : item?.text) ?? '';
  }
  switch (field) {
    case 'orgName':
      return org.name;
    case 'orgEmail':
      return org.email;
    case 'orgPhone':
      return org.phone;
    case 'orgLocation':
      return org.location;
    case 'donationUrl':
      return org.donationUrl;
    case 'courseUrl':
      return org.courseUrl;
    case 'socialX':
      return org.social.x;
    case 'socialInstagram':
      return org.social.instagram;
    case 'socialLinkedin':
      return org.social.linkedin;
    case 'socialYoutube':
      return org.social.youtube;
    case 'founderX':
      return founder.twitter;
    case 'founderLinkedin':
      return founder.linkedin;
    case 'founderName':
      return founder.name;
    case 'founderTitle':
      return founder.title;
    case 'founderPhoto':
      return founder.pictureUrl ?? '';
    // What the home and About pages showed before Site settings: the full biography on both.
    case 'founderStory':
    case 'founderProfile':
      return founder.fullBio || founder.bio;
    case 'founderStoryLink':
      return '';
    case 'privacyText':
      return defaultPrivacyHtml(context.email);
    case 'termsText':
      return DEFAULT_TERMS_HTML;
    case 'accessibilityText':
      return DEFAULT_ACCESSIBILITY_HTML;
    case 'timeZone':
      return DEFAULT_TIME_ZONE;
    default:
      return TEXT_DEFAULTS[field as keyof typeof TEXT_DEFAULTS];
  }
}

/**
 * The values of `fields`: what staff stored, else the default. One query for the stored rows (with
 * the founder_email setting when a founder field is asked for), and one for the founder's account.
 */
export async function readSiteSettings<F extends SettingField>(
  fields: readonly F[],
  db: Kysely<Database> = getDb(),
  options: { forPublicPage?: boolean } = {},
): Promise<ResolvedSettings<F>> {
  const needsFounder = fields.some((field) => FOUNDER_DEFAULTS.includes(field));
  // The privacy text's default names the organisation's email, so that is read with it.
  const keys = new Set<string>(fields.map(settingKey));
  if (fields.includes('privacyText' as F)) keys.add(settingKey('orgEmail'));
  if (needsFounder) keys.add(SETTING_KEYS.founderEmail);
  const read = () =>
    db
      .selectFrom('settings')
      .select(['key', 'value', 'updated_at'])
      .where('key', 'in', [...keys])
      .execute();
  // Issue 29: a public page's settings are read the same way on every render until something public
  // changes (every settings save does); the dashboard and the save's own checks always read afresh.
  const rows = await (options.forPublicPage ? publicRead(db, `settings:${[...keys].sort().join(',')}`, read) : read());
  const stored = new Map<string, { value: unknown; updatedAt: string }>();
  for (const row of rows) {
    try {
      stored.set(row.key, { value: JSON.parse(row.value) as unknown, updatedAt: row.updated_at });
    } catch {
      getLogger().warn({ key: row.key }, 'a stored setting is not JSON; its default is used');
    }
  }
  const founder = needsFounder ? await readFounderBase(db, stored.get(SETTING_KEYS.founderEmail)?.value) : undefined;
  const storedEmail = stored.get(settingKey('orgEmail'))?.value;
  const context = { email: typeof storedEmail === 'string' ? storedEmail : getConfig().organisation.email, founder };

  const values = {} as Record<F, Value>;
  const defaults = {} as Record<F, Value>;
  const updatedAt: Partial<Record<F, string>> = {};
  for (const field of fields) {
    defaults[field] = defaultValue(field, context);
    const entry = stored.get(settingKey(field));
    if (entry && usable(field, entry.value)) {
      values[field] = entry.value;
      updatedAt[field] = entry.updatedAt;
    } else values[field] = defaults[field];
  }
  return { values, defaults, updatedAt, founder };
}

/** A fingerprint of a group's values: it changes whenever one of them does. */
export function groupVersion(group: SettingGroup, values: Partial<Record<SettingField, Value>>): string {
  const list = GROUP_SPECS[group].fields.map((field) => values[field] ?? null);
  return createHash('sha256').update(JSON.stringify(list)).digest('base64url').slice(0, 22);
}

const ALL_FIELDS = Object.keys(FIELD_SPECS) as SettingField[];

/** The settings screen: every group with its values as the form shows them, and whether this person may save it. */
export async function loadSettingsView(actor: StaffUser): Promise<SettingsGroupView[]> {
  const { values } = await readSiteSettings(ALL_FIELDS);
  return (Object.keys(GROUP_SPECS) as SettingGroup[]).map((group) => {
    const spec = GROUP_SPECS[group];
    return {
      id: group,
      editable: can(actor.role, spec.permission),
      version: groupVersion(group, values),
      values: Object.fromEntries(spec.fields.map((field) => [field, String(values[field])])),
    };
  });
}

/** A save made from a page older than the stored values. */
export class SettingsConflictError extends RuleError {
  readonly version: string;
  constructor(version: string) {
    super(SETTINGS_MESSAGES.conflict, 409);
    this.version = version;
  }
}

/** Refuses, before the form is read, a group this staff member may not change (settings:links is the Super Admin's). */
export function assertMayChangeGroup(actor: StaffUser, group: SettingGroup): void {
  const { permission } = GROUP_SPECS[group];
  if (!can(actor.role, permission))
    throw new RuleError(permission === 'settings:links' ? SETTINGS_MESSAGES.linksForbidden : FORBIDDEN_MESSAGE, 403);
}

/** How a value reads in the audit log: rich texts by their length only, never their bodies. */
function auditValue(field: SettingField, value: Value): string {
  const { kind } = FIELD_SPECS[field];
  if (kind === 'rich') return `${textLength(String(value)).toLocaleString('en-US')} characters`;
  if (value === '') return kind === 'storyLink' ? '(automatic)' : '(empty)';
  return String(value);
}

/** The value to store for a field: rich texts sanitised (and still required afterwards), links to stories checked. */
async function prepare(field: SettingField, value: Value, current: Value, db: Kysely<Database>): Promise<Value> {
  const spec = FIELD_SPECS[field];
  if (spec.kind === 'rich') {
    const html = sanitizeArticleHtml(String(value));
    if (spec.required && textLength(html) === 0) throw new RuleError(requiredMessage(spec.label), 400, field);
    return html;
  }
  if (spec.kind === 'storyLink' && value !== '') {
    const path = normaliseStoryLink(String(value));
    const [, route, id] = /^\/(blog|news|resources)\/(.+)$/.exec(path ?? '') ?? [];
    const collection = route === 'blog' ? 'blogs' : route;
    const story =
      collection && id
        ? await db
            .selectFrom('content')
            .select('id')
            .where('collection', '=', collection as 'blogs' | 'news' | 'resources')
            .where('id', '=', id)
            .where('language', '=', 'en')
            .executeTakeFirst()
        : undefined;
    if (!story) throw new RuleError(SETTINGS_MESSAGES.storyMissing, 400, field);
    return path!;
  }
  // A new picture must be one that was uploaded and is still on file; the one shown now may stay.
  if (spec.kind === 'image' && value !== '' && value !== current && !(await isStoredImage(String(value))))
    throw new RuleError(SETTINGS_MESSAGES.photoAgain, 400, field);
  return value;
}

export interface SaveOutcome {
  /** The fields whose value changed (empty: nothing to save). */
  changed: SettingField[];
  /** The group's version after the save. */
  version: string;
}

/**
 * Saves one group as posted. Refuses a group (or field) the staff member may not change with 403, a
 * page older than the stored values with 409 (when `version` is given), a link to a missing story
 * with 400. Writes only the fields that changed, in one transaction with their audit entry
 * (`settings.updated`: each field's old and new value); a field set back to its default is no longer
 * stored. A photo no longer shown is removed afterwards.
 */
export async function saveSiteSettings(
  actor: StaffUser,
  group: SettingGroup,
  input: SettingValues,
  options: { version?: string | undefined; ip: string | null },
): Promise<SaveOutcome> {
  assertMayChangeGroup(actor, group);
  const spec = GROUP_SPECS[group];
  const db = getDb();
  const current = await readSiteSettings(spec.fields, db);
  const version = groupVersion(group, current.values);
  if (options.version && options.version !== version) throw new SettingsConflictError(version);

  const next: Partial<Record<SettingField, Value>> = {};
  const changed: SettingField[] = [];
  for (const field of spec.fields) {
    const posted = input[field];
    if (posted === undefined) continue;
    const value = await prepare(field, posted, current.values[field], db);
    next[field] = value;
    if (value !== current.values[field]) changed.push(field);
  }
  if (changed.length === 0) return { changed, version };

  const detail: Record<string, { from: string; to: string }> = {};
  await db.transaction().execute(async (trx) => {
    const at = nowIso();
    for (const field of changed) {
      const value = next[field]!;
      detail[FIELD_SPECS[field].label] = { from: auditValue(field, current.values[field]), to: auditValue(field, value) };
      if (value === current.defaults[field]) {
        await trx.deleteFrom('settings').where('key', '=', settingKey(field)).execute();
        continue;
      }
      const row = { key: settingKey(field), value: JSON.stringify(value), updated_at: at };
      await trx
        .insertInto('settings')
        .values(row)
        .onConflict((oc) => oc.column('key').doUpdateSet({ value: row.value, updated_at: at }))
        .execute();
    }
    await recordAudit({ actor: actor.email, action: 'settings.updated', target: spec.title, ip: options.ip, detail }, trx);
  });

  if (changed.includes('founderPhoto')) {
    await removeImageIfUnused(String(current.values.founderPhoto ?? '')).catch((error: unknown) =>
      getLogger().warn({ err: error }, "the founder's old photo could not be removed"),
    );
  }
  return { changed, version: groupVersion(group, { ...current.values, ...next }) };
}
