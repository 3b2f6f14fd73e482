import { createHash, randomBytes } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import {
  eventCalendar,
  eventPath,
  formatEventWhen,
  phoneKey,
  registrationIsOpen,
  type AdminEvent,
  type PublicEvent,
  type RegistrationInput,
  type RegistrationStatus,
} from '../../lib/events.ts';
import { can } from '../../lib/permissions.ts';
import { translator, type Translate } from '../../lib/i18n/i18n.tsx';
import { isLanguage, pathInLanguage, STAFF_LANGUAGE_NAMES, type Language } from '../../lib/languages.ts';
import { utcToZoned } from '../../lib/schedule.ts';
import type { Database } from '../db/schema.ts';
import { getDb } from '../db/db.server.ts';
import { recordAudit } from '../platform/audit.server.ts';
import { reserveAttempt } from '../platform/limits.server.ts';
import { csvRow } from '../platform/csv-export.server.ts';
import { getConfig } from '../platform/config.server.ts';
import { newId, nowIso } from '../platform/ids.server.ts';
import { getLogger } from '../platform/logger.server.ts';
import { sendMail, type Mail } from '../platform/mail.server.ts';
import { publicContentChanged } from '../platform/public-changes.server.ts';
import { getSiteInfo } from '../site/site.server.ts';
import { mailLanguages } from '../site/interface-texts.server.ts';
import type { StaffUser } from '../staff/auth.server.ts';
import { eventForLanguages } from './event-versions.server.ts';
import { EventRuleError, getEventForAdmin, readEventTimeZone } from './events.server.ts';

// Issue 27, part 4: places, the waiting list, cancellation links and reminders
// (docs/decisions/028-events.md).
//
// A place is taken by one conditional UPDATE, `taken = taken + 1 WHERE taken < capacity`, inside the
// transaction that stores the registration. On PostgreSQL the UPDATE locks the event's row until
// the transaction ends, and a second UPDATE waiting for it reads the row again (READ COMMITTED
// re-checks its WHERE on the newest version), so the 6th of 5 never gets a place; SQLite runs one
// writing transaction at a time. Whoever finds no place takes the next number in the same row
// (`next_seq`) and waits in that order. A place given back goes, in the same transaction, to the
// first waiting (fillPlaces).

type Db = Kysely<Database>;

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

function newToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

/** A registrant's cancellation link, to the page in their language. */
export function cancelUrl(token: string, language: Language = 'en'): string {
  return `${getConfig().publicUrl}${pathInLanguage(`/events/cancel/${token}`, language)}`;
}

interface MailContext {
  siteName: string;
  publicUrl: string;
  host: string;
  timeZone: string;
}

async function mailContext(db: Db): Promise<MailContext> {
  const site = await getSiteInfo(db);
  const publicUrl = getConfig().publicUrl;
  return {
    siteName: site.name,
    publicUrl,
    host: new URL(publicUrl).host,
    timeZone: await readEventTimeZone(db),
  };
}

/** The words of a registrant's mails: in the language they registered in, while the site still offers it, else English. */
interface MailWords {
  language: Language;
  t: Translate;
}

/** The words of each registrant's mails, from the language they registered in (mailLanguages). */
async function mailWords(db: Db = getDb()): Promise<(stored: string) => MailWords> {
  const languageOf = await mailLanguages(db);
  return (stored) => {
    const language = languageOf(stored);
    return { language, t: translator(language) };
  };
}

function calendarAttachment(event: PublicEvent, ctx: MailContext, language: Language): NonNullable<Mail['attachments']> {
  return [
    {
      filename: `${event.slug}.ics`,
      contentType: 'text/calendar; charset=utf-8; method=PUBLISH',
      content: eventCalendar(event, { publicUrl: ctx.publicUrl, host: ctx.host, organiser: ctx.siteName, language }),
    },
  ];
}

function eventLines(event: PublicEvent, ctx: MailContext, { language, t }: MailWords): string[] {
  return [
    event.title,
    formatEventWhen(event.startsAt, event.endsAt, ctx.timeZone, language),
    ...(event.place ? [t('mail.event.place', { place: event.place })] : []),
    ...(event.onlineUrl ? [t('mail.event.online', { link: event.onlineUrl })] : []),
    `${ctx.publicUrl}${pathInLanguage(eventPath(event.slug), language)}`,
  ];
}

/** A reminder goes out in the day before an event: it is then either today or tomorrow where the event is. */
type MailKind = 'confirmed' | 'waiting' | 'promoted' | 'reminder-today' | 'reminder-tomorrow';

function registrationMail(
  kind: MailKind,
  to: string,
  name: string,
  event: PublicEvent,
  token: string | null,
  ctx: MailContext,
  words: MailWords,
): Mail {
  const { t, language } = words;
  const title = { title: event.title };
  const subjects: Record<MailKind, string> = {
    confirmed: t('mail.event.subjectConfirmed', title),
    waiting: t('mail.event.subjectWaiting', title),
    promoted: t('mail.event.subjectPromoted', title),
    'reminder-today': t('mail.event.subjectToday', title),
    'reminder-tomorrow': t('mail.event.subjectTomorrow', title),
  };
  const opening: Record<MailKind, string> = {
    confirmed: t('mail.event.confirmed'),
    waiting: t('mail.event.waiting'),
    promoted: t('mail.event.promoted'),
    'reminder-today': t('mail.event.reminderToday'),
    'reminder-tomorrow': t('mail.event.reminderTomorrow'),
  };
  const link = token ? cancelUrl(token, language) : '';
  const cancel = token
    ? [
        '',
        kind === 'waiting' ? t('mail.event.leaveWaiting', { link }) : t('mail.event.cancelPlace', { link }),
        t('mail.event.linkOnce'),
      ]
    : [];
  return {
    to,
    subject: subjects[kind],
    text: [
      t('mail.event.hello', { name }),
      '',
      opening[kind],
      '',
      ...eventLines(event, ctx, words),
      ...cancel,
      '',
      ctx.siteName,
    ].join('\n'),
    carriesSecret: false,
    ...(kind === 'waiting' ? {} : { attachments: calendarAttachment(event, ctx, language) }),
  };
}

export interface RegistrationOutcome {
  place: 'confirmed' | 'waiting';
  mailed: boolean;
  /** For someone who gave no email: the link to cancel, shown once on the page. */
  cancelUrl: string | null;
  /** A number without an address that was registered already: nothing stored, no link shown. */
  phoneAgain: boolean;
}

export class RegistrationClosedError extends Error {}
/** No published event has that address (a post to one that never was, or is no longer listed). */
export class EventNotListedError extends RegistrationClosedError {}

/** How often in a day one address may have its registration for one event mailed again. */
export const REGISTRATION_RESENDS_PER_DAY = 3;

/**
 * Registers `input` for the published event at `slug`: a place if one is free, else the waiting
 * list. Throws RegistrationClosedError when registration is closed. An address already registered
 * for the event gets its details mailed again with a new cancellation link (the old one stops
 * working), up to REGISTRATION_RESENDS_PER_DAY times a day, and the page shows that registration's state, so the answer never says whether an
 * address was registered before.
 */
export async function registerForEvent(
  slug: string,
  input: RegistrationInput & { /** The page's language: the mails and links are in it. */ language?: Language },
  db: Db = getDb(),
): Promise<RegistrationOutcome> {
  const language = input.language ?? 'en';
  const event = await db
    .selectFrom('events')
    .selectAll()
    .where('slug', '=', slug)
    .where('status', '=', 'published')
    .executeTakeFirst();
  if (!event) throw new EventNotListedError('no such event');
  const view = {
    status: event.status,
    registrationOpen: Number(event.registration_open) === 1,
    registrationDeadline: event.registration_deadline,
    startsAt: event.starts_at,
  };
  if (!registrationIsOpen(view)) throw new RegistrationClosedError('registration closed');
  const { token, hash } = newToken();
  const now = nowIso();
  // Without an address, the number stands for the person: one live registration per number.
  const byPhone = input.email ? null : (phoneKey(input.phone) ?? null);
  const register = () =>
    db.transaction().execute(async (trx) => {
      if (input.email || byPhone) {
        const existing = await trx
          .selectFrom('event_registrations')
          .select(['id', 'status', 'name'])
          .where('event_id', '=', event.id)
          .where(input.email ? 'email' : 'phone_key', '=', (input.email ?? byPhone)!)
          .where('status', '!=', 'cancelled')
          .executeTakeFirst();
        if (existing)
          return { id: existing.id, place: existing.status as 'confirmed' | 'waiting', again: true, name: existing.name };
      }
      // The place, if one is free: one statement decides (see the top of this file).
      const placed = await trx
        .updateTable('events')
        .set({ taken: sql`taken + 1`, next_seq: sql`next_seq + 1` })
        .where('id', '=', event.id)
        .where('status', '=', 'published')
        .where(sql<boolean>`taken < capacity`)
        .returning(['next_seq'])
        .executeTakeFirst();
      const numbered =
        placed ??
        (await trx
          .updateTable('events')
          .set({ next_seq: sql`next_seq + 1` })
          .where('id', '=', event.id)
          .where('status', '=', 'published')
          .returning(['next_seq'])
          .executeTakeFirst());
      if (!numbered) throw new RegistrationClosedError('event no longer published');
      const id = newId();
      await trx
        .insertInto('event_registrations')
        .values({
          id,
          event_id: event.id,
          seq: Number(numbered.next_seq),
          name: input.name,
          email: input.email,
          phone: input.phone,
          phone_key: byPhone,
          access_needs: input.accessNeeds,
          language,
          status: placed ? 'confirmed' : 'waiting',
          cancel_token_hash: hash,
          created_at: now,
          updated_at: now,
        })
        .execute();
      return { id, place: placed ? ('confirmed' as const) : ('waiting' as const), again: false, name: input.name };
    });
  const outcome = await register().catch(async (error: unknown) => {
    // The same address or number sent twice at once: the unique index let one in and refused the
    // other (PostgreSQL, or SQLite from another process), so this one is a repeat and is answered as one.
    const key = input.email ?? byPhone;
    if (!key) throw error;
    const live = await db
      .selectFrom('event_registrations')
      .select('id')
      .where('event_id', '=', event.id)
      .where(input.email ? 'email' : 'phone_key', '=', key)
      .where('status', '!=', 'cancelled')
      .executeTakeFirst();
    if (!live) throw error;
    return register();
  });
  publicContentChanged();
  getLogger().info(
    { eventId: event.id, registrationId: outcome.id, place: outcome.place, again: outcome.again },
    'event registration',
  );
  if (outcome.again && input.email) {
    // An address registered already gets its details again, with a new link, but only so often: the
    // form is open to anyone, and an address is not a consent to be mailed (decision 047). Counted
    // once the registration is known to be a repeat, by one atomic reservation, so repeats sent
    // together are held to the limit too; a refused one changes nothing, and the last link works.
    const key = `event:mail:${createHash('sha256').update(`${event.id}\n${input.email}`).digest('hex').slice(0, 32)}`;
    let renewed = false;
    if ((await reserveAttempt(key, REGISTRATION_RESENDS_PER_DAY, 24 * 60 * 60_000)).allowed) {
      const { numUpdatedRows } = await db
        .updateTable('event_registrations')
        // Mailed in the page's language now: later mails (a reminder) follow it.
        .set({ cancel_token_hash: hash, updated_at: now, language })
        .where('id', '=', outcome.id)
        .where('status', '!=', 'cancelled') // cancelled meanwhile: no link to send
        .executeTakeFirst();
      renewed = Number(numUpdatedRows) === 1;
    }
    if (!renewed) {
      getLogger().warn({ eventId: event.id, registrationId: outcome.id }, 'registration details not sent again');
      return { place: outcome.place, mailed: false, cancelUrl: null, phoneAgain: false };
    }
  }
  // A number registered already: its link was shown once, to whoever registered it, and is not shown again.
  if (outcome.again && !input.email) return { place: outcome.place, mailed: false, cancelUrl: null, phoneAgain: true };
  let mailed = false;
  if (input.email) {
    try {
      const full = (await getEventForAdmin(event.id, db))!;
      // A repeat is mailed with the name stored first, never with what the latest form said.
      const ctx = await mailContext(db);
      const words = (await mailWords(db))(language);
      const shown = (await eventForLanguages(full, db))(words.language);
      await sendMail(registrationMail(outcome.place, input.email, outcome.name, shown, token, ctx, words), db);
      mailed = true;
    } catch (error) {
      getLogger().error({ err: error, registrationId: outcome.id }, 'the registration mail could not be queued');
    }
  }
  return { place: outcome.place, mailed, cancelUrl: input.email ? null : cancelUrl(token, language), phoneAgain: false };
}

interface Promoted {
  id: string;
  name: string;
  email: string | null;
  language: string;
}

/**
 * Gives free places to the first people waiting, in their order, inside `trx`: each place is taken
 * by the same conditional UPDATE as a registration. Returns whom it moved up, for their mails.
 */
export async function fillPlaces(trx: Transaction<Database> | Db, eventId: string): Promise<Promoted[]> {
  const promoted: Promoted[] = [];
  for (;;) {
    const next = await trx
      .selectFrom('event_registrations')
      .select(['id', 'name', 'email', 'language'])
      .where('event_id', '=', eventId)
      .where('status', '=', 'waiting')
      .orderBy('seq', 'asc')
      .limit(1)
      .executeTakeFirst();
    if (!next) break;
    const placed = await trx
      .updateTable('events')
      .set({ taken: sql`taken + 1` })
      .where('id', '=', eventId)
      .where('status', '=', 'published')
      .where(sql<boolean>`taken < capacity`)
      .executeTakeFirst();
    if (Number(placed.numUpdatedRows) === 0) break;
    await trx
      .updateTable('event_registrations')
      .set({ status: 'confirmed', updated_at: nowIso() })
      .where('id', '=', next.id)
      .where('status', '=', 'waiting')
      .execute();
    promoted.push(next);
  }
  return promoted;
}

/** After places were added to an event: the first waiting take them, and are mailed. Returns how many moved up. */
export async function fillFreedPlaces(eventId: string, db: Db = getDb()): Promise<number> {
  const promoted = await db.transaction().execute((trx) => fillPlaces(trx, eventId));
  if (promoted.length) publicContentChanged();
  await mailPromoted(eventId, promoted, db);
  return promoted.length;
}

/** Mails those moved up from the waiting list, each with a new cancellation link. */
async function mailPromoted(eventId: string, promoted: Promoted[], db: Db): Promise<void> {
  if (promoted.length === 0) return;
  const event = await getEventForAdmin(eventId, db);
  if (!event) return;
  const ctx = await mailContext(db);
  const wordsOf = await mailWords(db);
  const eventIn = await eventForLanguages(event, db);
  for (const person of promoted) {
    if (!person.email) continue;
    const { token, hash } = newToken();
    try {
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('event_registrations').set({ cancel_token_hash: hash }).where('id', '=', person.id).execute();
        const words = wordsOf(person.language);
        await sendMail(registrationMail('promoted', person.email!, person.name, eventIn(words.language), token, ctx, words), trx);
      });
    } catch (error) {
      getLogger().error({ err: error, registrationId: person.id }, 'the mail to someone moved up could not be queued');
    }
  }
}

/** Whether a cancellation link still works (the GET shows a button and changes nothing). */
export async function checkCancelToken(
  token: string,
  /** The page's: the event's title in its published version in it, if it has one. */
  language: Language = 'en',
  db: Db = getDb(),
): Promise<{ eventTitle: string; eventCancelled: boolean; titleLanguage: Language } | undefined> {
  if (!TOKEN.test(token)) return undefined;
  const row = await db
    .selectFrom('event_registrations')
    .innerJoin('events', 'events.id', 'event_registrations.event_id')
    .leftJoin('event_translations', (join) =>
      join
        .onRef('event_translations.event_id', '=', 'events.id')
        .on('event_translations.language', '=', language)
        .on('event_translations.status', '=', 'published'),
    )
    .select(['events.title', 'events.status', 'event_translations.title as versionTitle'])
    .where('event_registrations.cancel_token_hash', '=', hashToken(token))
    .where('event_registrations.status', '!=', 'cancelled')
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    eventTitle: row.versionTitle ?? row.title,
    eventCancelled: row.status === 'cancelled',
    titleLanguage: row.versionTitle ? language : 'en',
  };
}

/**
 * Cancels the registration whose link carries `token`, once: one conditional UPDATE clears the
 * token's hash and marks it cancelled, so a second use finds nothing. A place given back goes to the
 * first waiting, who is mailed. False when the link does not work, or its event is cancelled (the
 * link then says so: checkCancelToken).
 */
export async function cancelRegistration(token: string, db: Db = getDb()): Promise<boolean> {
  if (!TOKEN.test(token)) return false;
  const hash = hashToken(token);
  const result = await db.transaction().execute(async (trx) => {
    const cancel = (from: 'confirmed' | 'waiting') =>
      trx
        .updateTable('event_registrations')
        .set({ status: 'cancelled', cancel_token_hash: null, updated_at: nowIso() })
        .where('cancel_token_hash', '=', hash)
        .where('status', '=', from)
        .where('event_id', 'in', (eb) => eb.selectFrom('events').select('id').where('status', '!=', 'cancelled'))
        .returning(['id', 'event_id'])
        .executeTakeFirst();
    const held = await cancel('confirmed');
    if (held) {
      await trx
        .updateTable('events')
        .set({ taken: sql`taken - 1` })
        .where('id', '=', held.event_id)
        .where('taken', '>', 0)
        .execute();
      return { ...held, held: true, promoted: await fillPlaces(trx, held.event_id) };
    }
    const waited = await cancel('waiting');
    return waited ? { ...waited, held: false, promoted: [] } : undefined;
  });
  if (!result) return false;
  getLogger().info({ registrationId: result.id, eventId: result.event_id, held: result.held }, 'event registration cancelled');
  await recordAudit({
    actor: null,
    action: 'event.registration_cancelled',
    target: result.event_id,
    ip: null,
    detail: { registration: result.id, heldPlace: result.held, movedUp: result.promoted.map((p) => p.id) },
  });
  publicContentChanged();
  await mailPromoted(result.event_id, result.promoted, db);
  return true;
}

// ---------------------------------------------------------------------------------------------
// Issue 27, part 5: the staff's side. Every action checks `events:manage` and is audited.

function requireManage(actor: StaffUser): void {
  if (!can(actor.role, 'events:manage')) throw new EventRuleError('You do not have permission to perform this action.', 403);
}

async function eventToManage(actor: StaffUser, eventId: string, db: Db): Promise<AdminEvent> {
  requireManage(actor);
  const event = await getEventForAdmin(eventId, db);
  if (!event) throw new EventRuleError('Event not found', 404);
  return event;
}

export interface RegistrationRow {
  id: string;
  seq: number;
  name: string;
  email: string | null;
  phone: string | null;
  accessNeeds: string;
  status: RegistrationStatus;
  attended: boolean;
  createdAt: string;
  /** The language they registered in (en, lg, sw): their mails are written in it. */
  language: string;
}

/** The event's registrations in arrival order (the waiting list's order), cancelled ones last. */
export async function listRegistrations(actor: StaffUser, eventId: string, db: Db = getDb()): Promise<RegistrationRow[]> {
  await eventToManage(actor, eventId, db);
  return readRegistrations(eventId, db);
}

async function readRegistrations(eventId: string, db: Db): Promise<RegistrationRow[]> {
  const rows = await db
    .selectFrom('event_registrations')
    .selectAll()
    .where('event_id', '=', eventId)
    .orderBy('seq', 'asc')
    .limit(20_000)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    seq: Number(row.seq),
    name: row.name,
    email: row.email,
    phone: row.phone,
    accessNeeds: row.access_needs,
    status: row.status,
    attended: Number(row.attended) === 1,
    createdAt: row.created_at,
    language: row.language,
  }));
}

/** Opens or closes registration (publishing the event is the form's). */
export async function setRegistrationOpen(
  actor: StaffUser,
  eventId: string,
  open: boolean,
  ip: string,
  db: Db = getDb(),
): Promise<AdminEvent> {
  const event = await eventToManage(actor, eventId, db);
  if (event.status === 'cancelled') throw new EventRuleError('This event is cancelled; it can no longer be changed.', 400);
  await db
    .updateTable('events')
    .set({ registration_open: open ? 1 : 0, updated_at: nowIso(), updated_by: actor.email })
    .where('id', '=', eventId)
    .execute();
  await recordAudit(
    {
      actor: actor.email,
      action: open ? 'event.registration_opened' : 'event.registration_closed',
      target: eventId,
      ip,
      detail: { title: event.title },
    },
    db,
  );
  publicContentChanged();
  return (await getEventForAdmin(eventId, db))!;
}

export async function setAttended(
  actor: StaffUser,
  eventId: string,
  registrationId: string,
  attended: boolean,
  ip: string,
  db: Db = getDb(),
): Promise<void> {
  const event = await eventToManage(actor, eventId, db);
  const result = await db
    .updateTable('event_registrations')
    .set({ attended: attended ? 1 : 0, updated_at: nowIso() })
    .where('id', '=', registrationId)
    .where('event_id', '=', eventId)
    .where('status', '=', 'confirmed')
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw new EventRuleError('Only someone with a place can be marked as attended.', 404);
  await recordAudit(
    {
      actor: actor.email,
      action: 'event.attendance_marked',
      target: eventId,
      ip,
      detail: { title: event.title, registration: registrationId, attended },
    },
    db,
  );
}

/** Mails every confirmed and waiting registrant who gave an address, through the queue. Returns how many. */
export async function messageRegistrants(
  actor: StaffUser,
  eventId: string,
  message: { subject: string; message: string },
  ip: string,
  db: Db = getDb(),
): Promise<number> {
  const event = await eventToManage(actor, eventId, db);
  const ctx = await mailContext(db);
  const people = (await readRegistrations(eventId, db)).filter((r) => r.status !== 'cancelled' && r.email);
  const wordsOf = await mailWords(db);
  const eventIn = await eventForLanguages(event, db);
  await db.transaction().execute(async (trx) => {
    for (const person of people) {
      const words = wordsOf(person.language);
      const shown = eventIn(words.language);
      await sendMail(
        {
          to: person.email!,
          subject: `${message.subject} (${shown.title})`,
          text: [
            words.t('mail.event.hello', { name: person.name }),
            '',
            message.message,
            '',
            ...eventLines(shown, ctx, words),
            '',
            ctx.siteName,
          ].join('\n'),
          replyTo: (await getSiteInfo(trx)).email,
        },
        trx,
      );
    }
    await recordAudit(
      {
        actor: actor.email,
        action: 'event.messaged',
        target: eventId,
        ip,
        detail: { title: event.title, subject: message.subject, recipients: people.length },
      },
      trx,
    );
  });
  return people.length;
}

/**
 * Cancels the event: it stays listed, marked cancelled, registration stops, and everyone registered
 * (with a place or waiting) is mailed. Once: a second cancel is refused.
 */
export async function cancelEvent(actor: StaffUser, eventId: string, ip: string, db: Db = getDb()): Promise<number> {
  const event = await eventToManage(actor, eventId, db);
  const ctx = await mailContext(db);
  const wordsOf = await mailWords(db);
  const eventIn = await eventForLanguages(event, db);
  const at = nowIso();
  const mailed = await db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable('events')
      .set({ status: 'cancelled', registration_open: 0, updated_at: at, updated_by: actor.email })
      .where('id', '=', eventId)
      .where('status', '!=', 'cancelled')
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) throw new EventRuleError('This event is already cancelled.', 400);
    const people = (await readRegistrations(eventId, trx)).filter((r) => r.status !== 'cancelled' && r.email);
    // The calendar file says when it was made, so calendars take it as newer than the one they hold.
    for (const person of people) {
      const words = wordsOf(person.language);
      const { t } = words;
      const cancelled = { ...eventIn(words.language), status: 'cancelled' as const, updatedAt: at };
      await sendMail(
        {
          to: person.email!,
          subject: t('mail.event.subjectCancelled', { title: cancelled.title }),
          text: [
            t('mail.event.hello', { name: person.name }),
            '',
            t('mail.event.cancelled'),
            '',
            ...eventLines(cancelled, ctx, words),
            '',
            ctx.siteName,
          ].join('\n'),
          attachments: calendarAttachment(cancelled, ctx, words.language),
        },
        trx,
      );
    }
    // The registrants' links stay, to say the event is cancelled (cancelRegistration changes nothing then).
    await recordAudit(
      {
        actor: actor.email,
        action: 'event.cancelled',
        target: eventId,
        ip,
        detail: { title: event.title, mailed: people.length },
      },
      trx,
    );
    return people.length;
  });
  publicContentChanged();
  return mailed;
}

/** The registrations as CSV (one file; an event has at most a few thousand), audited. */
export async function exportRegistrationsCsv(actor: StaffUser, eventId: string, ip: string, db: Db = getDb()): Promise<string> {
  const event = await eventToManage(actor, eventId, db);
  const rows = await readRegistrations(eventId, db);
  const lines = [csvRow(['Number', 'Name', 'Email', 'Phone', 'Access needs', 'Status', 'Attended', 'Registered at', 'Language'])];
  for (const row of rows)
    lines.push(
      csvRow([
        String(row.seq),
        row.name,
        row.email,
        row.phone,
        row.accessNeeds,
        row.status,
        row.attended ? 'yes' : 'no',
        row.createdAt,
        isLanguage(row.language) ? STAFF_LANGUAGE_NAMES[row.language] : row.language,
      ]),
    );
  await recordAudit(
    {
      actor: actor.email,
      action: 'event.registrations_exported',
      target: eventId,
      ip,
      detail: { title: event.title, rows: rows.length },
    },
    db,
  );
  return lines.join('');
}

// ---------------------------------------------------------------------------------------------
// The reminder the day before: a recurring job (one row in `jobs`, claimed by one process at a
// time) mails each confirmed registrant of an event starting within the next 24 hours, once: a
// conditional UPDATE (reminded_at still null) decides, in the transaction that queues the mail.

export const EVENT_REMINDER_JOB = 'events.remind';
export const EVENT_REMINDER_EVERY_MS = 5 * 60_000;
const REMIND_AHEAD_MS = 24 * 60 * 60_000;

export async function sendDueReminders(now = Date.now(), db: Db = getDb()): Promise<number> {
  const from = new Date(now).toISOString();
  const until = new Date(now + REMIND_AHEAD_MS).toISOString();
  const due = await db
    .selectFrom('event_registrations')
    .innerJoin('events', 'events.id', 'event_registrations.event_id')
    .select([
      'event_registrations.id',
      'event_registrations.event_id',
      'event_registrations.name',
      'event_registrations.email',
      'event_registrations.language',
      'event_registrations.updated_at',
      'events.starts_at',
    ])
    .where('events.status', '=', 'published')
    .where('events.starts_at', '>', from)
    .where('events.starts_at', '<=', until)
    .where('event_registrations.status', '=', 'confirmed')
    .where('event_registrations.reminded_at', 'is', null)
    .where('event_registrations.email', 'is not', null)
    .limit(500)
    .execute();
  if (due.length === 0) return 0;
  const ctx = await mailContext(db);
  const wordsOf = await mailWords(db);
  const events = new Map<string, ((language: string) => AdminEvent) | undefined>();
  let sent = 0;
  for (const person of due) {
    if (!events.has(person.event_id)) {
      const found = await getEventForAdmin(person.event_id, db);
      events.set(person.event_id, found && (await eventForLanguages(found, db)));
    }
    const eventIn = events.get(person.event_id);
    if (!eventIn) continue;
    // Someone whose place came (or was mailed again) within the day before has its details in that
    // mail, sent moments ago: marked reminded, not mailed twice.
    const mailedLately = Date.parse(person.updated_at) > Date.parse(person.starts_at) - REMIND_AHEAD_MS;
    const day = utcToZoned(person.starts_at, ctx.timeZone).date === utcToZoned(from, ctx.timeZone).date ? 'today' : 'tomorrow';
    const mailedNow = await db.transaction().execute(async (trx) => {
      const claimed = await trx
        .updateTable('event_registrations')
        .set({ reminded_at: from })
        .where('id', '=', person.id)
        .where('status', '=', 'confirmed')
        .where('reminded_at', 'is', null)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) === 0 || mailedLately) return false;
      const words = wordsOf(person.language);
      await sendMail(
        registrationMail(`reminder-${day}`, person.email!, person.name, eventIn(words.language), null, ctx, words),
        trx,
      );
      return true;
    });
    if (mailedNow) sent += 1;
  }
  if (sent) getLogger().info({ sent }, 'event reminders queued');
  return sent;
}

export async function runEventReminders(): Promise<void> {
  await sendDueReminders();
}
