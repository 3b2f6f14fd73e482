import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { CONFIRM_LINK_DAYS, newsletterSchema } from '../../lib/newsletter.ts';
import type { Database } from '../db/schema.ts';
import { getConfig } from '../platform/config.server.ts';
import { getDb } from '../db/db.server.ts';
import { newId, nowIso } from '../platform/ids.server.ts';
import { enqueueJob, type JobInfo } from '../platform/jobs.server.ts';
import { reserveAttempt } from '../platform/limits.server.ts';
import { getLogger } from '../platform/logger.server.ts';
import { sendMail } from '../platform/mail.server.ts';
import { alreadySubscribedMail, confirmationMail, type MailSite } from './newsletter-mail.server.ts';
import { getSiteInfo } from '../site/site.server.ts';
import { mailLanguages } from '../site/interface-texts.server.ts';
import { isLanguage, pathInLanguage, type Language } from '../../lib/languages.ts';

// The newsletter boxes (spec §2 /news and the article page) with double opt-in, and the public
// confirm and unsubscribe links (issue 12, docs/decisions/505-newsletter.md). The box's post only
// queues the address: the lookup and the mail run in a job, so every address gets the same answer
// in the same time, and the answer never says whether the address is on the list.

/** Confirmation (or "already subscribed") mails to one address a day, however often it is typed in. */
export const CONFIRM_MAILS_PER_DAY = 3;
export const CONFIRM_LINK_MS = CONFIRM_LINK_DAYS * 24 * 60 * 60_000;
/** The longest page path kept as where an address was subscribed from. */
export const SOURCE_MAX = 200;

export const NEWSLETTER_SUBSCRIBE_JOB = 'newsletter.subscribe';
export const NEWSLETTER_EXPIRE_JOB = 'newsletter.expire';
export const NEWSLETTER_EXPIRE_EVERY_MS = 24 * 60 * 60_000;

/**
 * Queues a subscription the box received (one row in `jobs`): nothing is looked up, so the answer
 * and its timing are the same for every address. Throws when it cannot be queued.
 */
export async function queueSubscription(
  input: { email: string; source?: string | undefined; language?: Language },
  db?: Kysely<Database>,
): Promise<void> {
  const payload = { email: input.email, source: input.source ?? null, language: input.language ?? 'en' };
  await enqueueJob(NEWSLETTER_SUBSCRIBE_JOB, payload, { maxAttempts: 3, db });
  // The source is text the visitor sent: the log says only whether the box named its page.
  getLogger().info({ form: 'newsletter', fromPage: Boolean(input.source) }, 'newsletter subscription queued');
}

// ---------------------------------------------------------------------------------------------
// Tokens.

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

const CONFIRM_TOKEN = /^[A-Za-z0-9_-]{43}$/;
const SIGNING_KEY_SETTING = 'newsletter_signing_key';

/**
 * The secret that signs unsubscribe links, made on first use and kept in `settings`. It never
 * changes: every unsubscribe link ever mailed must keep working.
 */
export async function signingKey(db: Kysely<Database> = getDb()): Promise<Buffer> {
  const read = async () =>
    (await db.selectFrom('settings').select('value').where('key', '=', SIGNING_KEY_SETTING).executeTakeFirst())?.value;
  let stored = await read();
  if (!stored) {
    await db
      .insertInto('settings')
      .values({ key: SIGNING_KEY_SETTING, value: JSON.stringify(randomBytes(32).toString('hex')), updated_at: nowIso() })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
    stored = await read();
  }
  return Buffer.from(JSON.parse(stored!) as string, 'hex');
}

function unsubscribeMac(key: Buffer, subscriberId: string): Buffer {
  return createHmac('sha256', key).update(`unsubscribe:${subscriberId}`).digest();
}

/** The token of a subscriber's unsubscribe link: their id and its signature, so it works for ever. */
export function unsubscribeTokenFor(key: Buffer, subscriberId: string): string {
  return `${Buffer.from(subscriberId).toString('base64url')}.${unsubscribeMac(key, subscriberId).toString('base64url')}`;
}

const UNSUBSCRIBE_TOKEN = /^([A-Za-z0-9_-]{1,200})\.([A-Za-z0-9_-]{43})$/;

/** The subscriber id an unsubscribe token was made for, or undefined when its signature is not ours. */
export function subscriberOfToken(key: Buffer, token: string): string | undefined {
  const match = UNSUBSCRIBE_TOKEN.exec(token);
  if (!match) return undefined;
  const idBytes = Buffer.from(match[1]!, 'base64url');
  const given = Buffer.from(match[2]!, 'base64url');
  // One spelling per link: base64url's last character has bits a decoder ignores, so "…zw" and "…zz"
  // would otherwise name the same signature.
  if (idBytes.toString('base64url') !== match[1] || given.toString('base64url') !== match[2]) return undefined;
  const id = idBytes.toString('utf8');
  const expected = unsubscribeMac(key, id);
  return given.length === expected.length && timingSafeEqual(given, expected) ? id : undefined;
}

export function unsubscribeUrlFor(key: Buffer, subscriberId: string, language: Language = 'en'): string {
  return `${getConfig().publicUrl}${pathInLanguage(`/newsletter/unsubscribe/${unsubscribeTokenFor(key, subscriberId)}`, language)}`;
}

/** What the mails know of the site: its name and address as Site settings give them, and PUBLIC_URL. */
export async function mailSite(db: Kysely<Database> = getDb()): Promise<MailSite> {
  const site = await getSiteInfo(db);
  return { name: site.name, publicUrl: getConfig().publicUrl, email: site.email };
}

// ---------------------------------------------------------------------------------------------
// The queued subscription.

/** A new confirmation link for `subscriberId`: its token (for the mail) and only its hash stored. */
export async function issueConfirmLink(
  db: Kysely<Database>,
  subscriberId: string,
  extra: { source?: string | null; language?: string } = {},
  language: Language = 'en',
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db
    .updateTable('newsletter_subscribers')
    .set({ confirm_token_hash: sha256(token), confirm_sent_at: nowIso(), ...extra })
    .where('id', '=', subscriberId)
    .execute();
  return `${getConfig().publicUrl}${pathInLanguage(`/newsletter/confirm/${token}`, language)}`;
}

export type SubscriptionOutcome = 'confirmation-sent' | 'already-subscribed-sent' | 'limited';

/**
 * What the form queued: a new address is stored waiting, with a link; one waiting (or unsubscribed)
 * gets a fresh link; a confirmed one is told it is subscribed already. At most CONFIRM_MAILS_PER_DAY
 * mails a day go to one address, so nobody can flood a stranger's inbox through the box.
 */
export async function requestSubscription(
  input: { email: string; source?: string | null; language?: Language },
  db: Kysely<Database> = getDb(),
): Promise<SubscriptionOutcome> {
  const email = input.email.trim().toLowerCase();
  const source = input.source ? input.source.slice(0, SOURCE_MAX) : null;
  await db
    .insertInto('newsletter_subscribers')
    // Its clock starts now, link or not (a limited request sends none): only addresses from before
    // double opt-in wait without one.
    .values({
      id: newId(),
      email,
      source,
      created_at: nowIso(),
      status: 'pending',
      confirm_sent_at: nowIso(),
      language: input.language ?? 'en',
    })
    .onConflict((oc) => oc.column('email').doNothing())
    .execute();
  const row = await db
    .selectFrom('newsletter_subscribers')
    .select(['id', 'status'])
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  // Hashed: the counter outlives the job, and the address may belong to nobody who asked.
  const allowed = await reserveAttempt(`newsletter:mail:${sha256(email).slice(0, 32)}`, CONFIRM_MAILS_PER_DAY, 24 * 60 * 60_000);
  if (!allowed.allowed) {
    getLogger().warn({ subscriberId: row.id }, 'newsletter mail not sent: this address had its mails for the day');
    return 'limited';
  }
  const site = await mailSite(db);
  // Written in the language of the page it was asked on now: whoever asked reads that one.
  const language = (await mailLanguages(db))(input.language);
  if (row.status === 'confirmed') {
    await sendMail(alreadySubscribedMail(email, unsubscribeUrlFor(await signingKey(db), row.id, language), site, language), db);
    return 'already-subscribed-sent';
  }
  // Waiting, or unsubscribed: a new link. An unsubscribed address stays so (and suppressed) until it is
  // confirmed, and a link sent again from staff's screen is in this language too.
  const extra = { ...(row.status === 'pending' && source ? { source } : {}), language: input.language ?? 'en' };
  const link = await issueConfirmLink(db, row.id, extra, language);
  await sendMail(confirmationMail(email, link, site, language), db);
  return 'confirmation-sent';
}

/** The `newsletter.subscribe` job. */
export async function runSubscribeJob(payload: unknown, _job?: JobInfo): Promise<void> {
  const { email, source, language } = (payload ?? {}) as { email?: unknown; source?: unknown; language?: unknown };
  if (typeof email !== 'string') throw new Error('A newsletter subscription job without an email');
  const parsed = newsletterSchema.shape.email.safeParse(email);
  if (!parsed.success) return;
  const outcome = await requestSubscription({
    email: parsed.data,
    source: typeof source === 'string' ? source : null,
    // A job queued before this field existed was asked in English.
    language: isLanguage(language) ? language : 'en',
  });
  getLogger().info({ outcome }, 'newsletter subscription handled');
}

// ---------------------------------------------------------------------------------------------
// Confirming and unsubscribing (the links in the mails).

/** Whether `token` is a confirmation link that still works (the GET page; changes nothing). */
export async function checkConfirmToken(token: string, now = Date.now(), db: Kysely<Database> = getDb()): Promise<boolean> {
  if (!CONFIRM_TOKEN.test(token)) return false;
  const row = await db
    .selectFrom('newsletter_subscribers')
    .select('id')
    .where('confirm_token_hash', '=', sha256(token))
    .where('confirm_sent_at', '>', new Date(now - CONFIRM_LINK_MS).toISOString())
    .executeTakeFirst();
  return Boolean(row);
}

/**
 * Uses a confirmation link: the address is confirmed, and the link's hash is cleared in the same
 * statement, so it works once however many times it is posted at the same moment.
 */
export async function confirmSubscription(token: string, now = Date.now(), db: Kysely<Database> = getDb()): Promise<boolean> {
  if (!CONFIRM_TOKEN.test(token)) return false;
  const at = new Date(now).toISOString();
  const result = await db
    .updateTable('newsletter_subscribers')
    .set({ status: 'confirmed', confirmed_at: at, unsubscribed_at: null, confirm_token_hash: null, confirm_sent_at: null })
    .where('confirm_token_hash', '=', sha256(token))
    .where('confirm_sent_at', '>', new Date(now - CONFIRM_LINK_MS).toISOString())
    .executeTakeFirst();
  const confirmed = Number(result.numUpdatedRows) === 1;
  getLogger().info({ confirmed }, 'newsletter confirmation link used');
  return confirmed;
}

/** Whether `token` is an unsubscribe link we signed (the GET page; changes nothing). */
export async function checkUnsubscribeToken(token: string, db: Kysely<Database> = getDb()): Promise<boolean> {
  return subscriberOfToken(await signingKey(db), token) !== undefined;
}

/**
 * Uses an unsubscribe link (the page's button, or a mail program's one-click POST). The address is
 * kept only as a suppression record: its status and when; its source, confirmation and any waiting
 * link are cleared. A link whose subscriber was deleted changes nothing and answers the same.
 */
export async function unsubscribe(token: string, now = Date.now(), db: Kysely<Database> = getDb()): Promise<boolean> {
  const id = subscriberOfToken(await signingKey(db), token);
  if (id === undefined) return false;
  const at = new Date(now).toISOString();
  const result = await db
    .updateTable('newsletter_subscribers')
    .set({
      status: 'unsubscribed',
      unsubscribed_at: sql<string>`COALESCE(unsubscribed_at, ${at})`,
      source: null,
      confirmed_at: null,
      confirm_token_hash: null,
      confirm_sent_at: null,
    })
    .where('id', '=', id)
    .executeTakeFirst();
  getLogger().info({ known: Number(result.numUpdatedRows) === 1 }, 'newsletter unsubscribe link used');
  return true;
}

// ---------------------------------------------------------------------------------------------
// Expiry.

/**
 * Removes addresses that waited longer than their link works (they never confirmed: nothing is
 * kept), and forgets the unused links of unsubscribed addresses, which stay suppressed. Addresses
 * from before double opt-in that were never asked (no link) wait for staff to ask them.
 */
export async function expirePendingSubscribers(now = Date.now(), db: Kysely<Database> = getDb()): Promise<{ removed: number }> {
  const before = new Date(now - CONFIRM_LINK_MS).toISOString();
  const removed = await db
    .deleteFrom('newsletter_subscribers')
    .where('status', '=', 'pending')
    .where('confirm_sent_at', 'is not', null)
    .where('confirm_sent_at', '<=', before)
    .executeTakeFirst();
  await db
    .updateTable('newsletter_subscribers')
    .set({ confirm_token_hash: null, confirm_sent_at: null })
    .where('status', '=', 'unsubscribed')
    .where('confirm_sent_at', '<=', before)
    .execute();
  const count = Number(removed.numDeletedRows);
  if (count) getLogger().info({ removed: count }, 'newsletter addresses that never confirmed were removed');
  return { removed: count };
}

export async function runPendingExpiry(_payload: unknown, _job: JobInfo): Promise<void> {
  await expirePendingSubscribers();
}
