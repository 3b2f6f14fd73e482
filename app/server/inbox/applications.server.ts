import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { getDb } from '../db/db.server.ts';
import { newId, nowIso } from '../platform/ids.server.ts';
import { getLogger } from '../platform/logger.server.ts';
import { getConfig } from '../platform/config.server.ts';
import { sendMail } from '../platform/mail.server.ts';
import { reserveAttempt } from '../platform/limits.server.ts';
import { getSiteInfo } from '../site/site.server.ts';
import { mailLanguages } from '../site/interface-texts.server.ts';
import { formatMessageTime, oneLine } from '../../lib/messages.ts';
import { translator } from '../../lib/i18n/i18n.tsx';
import { pathInLanguage, writtenFromLine, type Language } from '../../lib/languages.ts';
import {
  answerLines,
  APPLICATION_PATHS,
  applicationSubject,
  CONFIRMATION_LIMIT,
  KIND_LABELS,
  storedAnswers,
  type ApplicationInput,
  type ApplicationKind,
} from '../../lib/applications.ts';

// Issue 27 part 1 (docs/decisions/027-applications.md): an application the form has checked (its
// action reads the post, turns bots away and applies the per-address limit) is stored as an inbox
// message of its kind, with its answers as checked JSON. The team is told by a queued mail, and the
// applicant gets a confirmation when they gave an email address; neither mail delays the answer,
// and one that cannot be queued is logged while the application stays stored. Logs never hold the
// applicant's address or words.

export interface StoredApplication {
  id: string;
  createdAt: string;
  subject: string;
}

/** Stores one application; `created_at` is the server's time. */
export async function saveApplication(
  input: ApplicationInput,
  db: Kysely<Database> = getDb(),
  /** The language of the form's page. */
  language: Language = 'en',
): Promise<StoredApplication> {
  const row = {
    id: newId(),
    kind: input.answers.kind,
    name: input.name,
    email: input.email,
    phone: input.phone,
    subject: applicationSubject(input),
    message: input.message,
    answers: storedAnswers(input.answers),
    created_at: nowIso(),
    read_at: null,
    language,
  };
  await db.insertInto('contacts').values(row).execute();
  return { id: row.id, createdAt: row.created_at, subject: row.subject };
}

/**
 * A checked application: stored, then the team's notification and the applicant's confirmation
 * queued. Throws only when it cannot be stored.
 */
export async function receiveApplication(
  input: ApplicationInput,
  db: Kysely<Database> = getDb(),
  /** The form page's language: the applicant's confirmation is written in it (decision 050). */
  language: Language = 'en',
): Promise<StoredApplication> {
  const log = getLogger();
  const kind = input.answers.kind;
  const saved = await saveApplication(input, db, language);
  log.info({ contactId: saved.id, kind, hasEmail: input.email !== '', hasPhone: input.phone !== null }, 'application stored');
  const site = await getSiteInfo(db).catch(() => undefined);
  const publicUrl = getConfig().publicUrl;
  try {
    if (!site) throw new Error('the site details could not be read');
    await sendMail(teamNotificationMail(input, saved, { email: site.email, publicUrl }, language), db);
  } catch (error) {
    log.error({ err: error, contactId: saved.id }, 'the team could not be told of a new application by mail');
  }
  if (input.email) {
    try {
      if (!site) throw new Error('the site details could not be read');
      const recipient = createHash('sha256').update(input.email.toLowerCase()).digest('base64url');
      const allowed = (
        await reserveAttempt(`application-confirmation:${recipient}`, CONFIRMATION_LIMIT.limit, CONFIRMATION_LIMIT.windowMs)
      ).allowed;
      if (allowed) {
        const written = (await mailLanguages(db))(language);
        const mail = await sendMail(
          confirmationMail(kind, input.email, saved, { name: site.name, email: site.email, publicUrl }, written),
          db,
        );
        await db.updateTable('contacts').set({ confirmation_mail_id: mail.id }).where('id', '=', saved.id).execute();
      } else log.warn({ contactId: saved.id }, 'application confirmation not sent: this address had several today');
    } catch (error) {
      log.error({ err: error, contactId: saved.id }, 'the applicant could not be sent a confirmation');
    }
  }
  return saved;
}

const base = (publicUrl: string) => publicUrl.replace(/(?<!\/)\/+$/, '');

/** The mail to the organisation's address: every answer, and a link to the application in the inbox. */
export function teamNotificationMail(
  input: ApplicationInput,
  saved: StoredApplication,
  site: { email: string; publicUrl: string },
  language: Language = 'en',
) {
  const kind = input.answers.kind;
  const label = KIND_LABELS[kind].one;
  const text = [
    `A new ${label.toLowerCase()} was sent through the website.`,
    '',
    // One line each: an applicant's line break cannot forge a line of this mail.
    `Name: ${oneLine(input.name)}`,
    `Email: ${input.email ? oneLine(input.email) : 'not given'}`,
    `Phone: ${input.phone ? oneLine(input.phone) : 'not given'}`,
    ...answerLines(input.answers).map(([question, answer]) => `${question}: ${oneLine(answer)}`),
    `Received: ${formatMessageTime(saved.createdAt)} (Kampala time)`,
    ...[writtenFromLine(language)].filter((line) => line !== undefined),
    '',
    `${kind === 'volunteer' ? 'Why they would like to volunteer' : 'What they need'}:`,
    input.message,
    '',
    `Read it, change its status and reply in the dashboard: ${base(site.publicUrl)}/admin/messages/${saved.id}`,
    input.email
      ? 'Replying to this email writes to the applicant directly; a reply from the dashboard is kept with the application.'
      : 'They gave no email address: call or text them, then mark the application Contacted in the dashboard.',
  ].join('\n');
  return {
    to: site.email,
    ...(input.email ? { replyTo: input.email } : {}),
    subject: `New ${label.toLowerCase()}: ${oneLine(saved.subject)}`,
    text,
  };
}

/** When an application arrived, in Kampala's time: as the inbox writes it in English, else in the language's words. */
function arrivedAt(iso: string, language: Language): string {
  if (language === 'en') return formatMessageTime(iso);
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(language, {
    timeZone: 'Africa/Kampala',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(date);
}

/**
 * The applicant's confirmation, in the language of the form's page. It repeats none of the form's
 * words (not even the name), so the form cannot be used to send somebody else a text of one's
 * choosing; at most three a day go to one address.
 */
export function confirmationMail(
  kind: ApplicationKind,
  to: string,
  saved: Pick<StoredApplication, 'createdAt'>,
  site: { name: string; email: string; publicUrl: string },
  language: Language = 'en',
) {
  const t = translator(language);
  const what = t(`app.what.${kind}`);
  const text = [
    t('mail.application.hello'),
    '',
    t('mail.application.thanks', { what, site: site.name, time: arrivedAt(saved.createdAt, language) }),
    t('mail.application.next'),
    '',
    t('mail.application.notYou'),
    t('mail.application.change'),
    '',
    `${site.name}`,
    `${base(site.publicUrl)}${pathInLanguage(APPLICATION_PATHS[kind], language)}`,
  ].join('\n');
  return { to, replyTo: site.email, subject: t('mail.application.subject', { what }), text };
}
