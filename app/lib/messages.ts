import { z } from 'zod';
import { INBOX_KINDS, isApplicationKind, type InboxKind } from './applications.ts';

// The inbox (issue 11): the contact form's messages as staff see them. Statuses, the views of the
// list, the limits of every input and the words of the screens, shared by the pages and the
// services (docs/decisions/501-inbox.md). Zod is built inside `/* @__PURE__ */` calls, so a page that
// imports only texts does not ship it.

export const MESSAGE_STATUSES = ['new', 'read', 'replied', 'archived', 'spam', 'contacted', 'accepted', 'declined'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/**
 * Issue 27: a contact message is New, Read, Replied, Archived or Spam; an application (volunteer,
 * partner, speaker, design help) is New, Contacted, Accepted or Declined (docs/decisions/027-applications.md).
 */
export const KIND_STATUSES = {
  message: ['new', 'read', 'replied', 'archived', 'spam'],
  application: ['new', 'contacted', 'accepted', 'declined'],
} as const satisfies Record<string, readonly MessageStatus[]>;

/** The statuses a row of `kind` can have. */
export function statusesOfKind(kind: InboxKind): readonly MessageStatus[] {
  return isApplicationKind(kind) ? KIND_STATUSES.application : KIND_STATUSES.message;
}

export const STATUS_LABELS: Record<MessageStatus, string> = {
  new: 'New',
  read: 'Read',
  replied: 'Replied',
  archived: 'Archived',
  spam: 'Spam',
  contacted: 'Contacted',
  accepted: 'Accepted',
  declined: 'Declined',
};

/** What the status filter offers: the inbox (New, Read, Replied), one status, or every message. */
export const MESSAGE_VIEWS = ['inbox', ...MESSAGE_STATUSES, 'all'] as const;
export type MessageView = (typeof MESSAGE_VIEWS)[number];

export const VIEW_LABELS: Record<MessageView, string> = {
  inbox: 'Inbox (New, Read, Replied, Contacted)',
  ...STATUS_LABELS,
  all: 'All messages',
};

/** Spam, Archived, Accepted and Declined stay out of the default view; each is reachable by the filter. */
export const INBOX_STATUSES: readonly MessageStatus[] = ['new', 'read', 'replied', 'contacted'];

/** The kind filter's choices: every kind, or one; the address's `kind`. */
export const KIND_FILTERS = ['all', ...INBOX_KINDS] as const;

export function isMessageView(value: unknown): value is MessageView {
  return typeof value === 'string' && (MESSAGE_VIEWS as readonly string[]).includes(value);
}

/** The statuses a view lists; undefined lists every message. */
export function viewStatuses(view: MessageView): readonly MessageStatus[] | undefined {
  if (view === 'all') return undefined;
  if (view === 'inbox') return INBOX_STATUSES;
  return [view];
}

/** Messages on one page of the list. */
export const MESSAGES_PAGE = 25;
/** The longest search the list accepts (a longer one is cut). */
export const MESSAGE_SEARCH_MAX = 100;
/** A reply's most characters (twice the contact form's message). */
export const REPLY_MAX = 10_000;

/** Retention in whole months (issue 11: default 24; Uganda's Data Protection and Privacy Act 2019 asks for a limit). */
export const RETENTION = { defaultMonths: 24, minMonths: 1, maxMonths: 120 } as const;

/**
 * What staff may set by hand. Replied comes only from a reply. "Mark handled" (no reply needed)
 * archives the message; "Move back to the inbox" makes it Read again.
 */
export const SETTABLE_STATUSES = ['new', 'read', 'archived', 'spam', 'contacted', 'accepted', 'declined'] as const;
export type SettableStatus = (typeof SETTABLE_STATUSES)[number];

export const MESSAGE_TEXT = {
  title: 'Messages',
  empty:
    'No messages here yet. Messages sent through the contact page, and the volunteer, partner, speaker and design-help forms, appear here.',
  noMatches: 'No messages match your search or filter.',
  notFound: 'This message was not found. It may have been deleted.',
  forbidden: 'You do not have permission to manage messages.',
  loadFailed: 'Messages could not be loaded. Please try again.',
  replySent: (email: string) => `Your reply to ${email} is on its way.`,
  /** Without SMTP_URL mail is kept in the outbox and never sent (the dashboard's notice says so too). */
  replyKept: (email: string) => `Your reply to ${email} is saved, but not sent: no mail server is set.`,
  replyFailed: 'Your reply could not be sent. Please try again.',
  replyRequired: 'Please write your reply.',
  replyTooLong: `Your reply must be ${REPLY_MAX.toLocaleString('en-US')} characters or fewer.`,
  statusChanged: {
    new: 'Message marked as unread.',
    read: 'Message moved back to the inbox.',
    archived: 'Message marked handled and archived.',
    spam: 'Message marked as spam.',
    contacted: 'Marked as contacted.',
    accepted: 'Marked as accepted.',
    declined: 'Marked as declined.',
  } satisfies Record<SettableStatus, string>,
  statusFailed: 'The message could not be changed. Please try again.',
  statusInvalid: 'Please choose what to do with the message.',
  statusNotForKind: 'That status is not one this message can have. Please choose another.',
  noEmail: (phone: string | null) =>
    phone
      ? `This person gave no email address, so a reply cannot be mailed. Call or text them on ${phone}, then mark them Contacted.`
      : 'This person gave no email address, so a reply cannot be mailed.',
  deleted: 'Message deleted.',
  deleteFailed: 'The message could not be deleted. Please try again.',
  /** spec §5: the confirmation names the item and says it cannot be undone. */
  deleteConfirm: (subject: string, name: string, email: string) =>
    `Are you sure you want to delete the message "${subject}" from ${name}${email ? ` (${email})` : ''}? This action cannot be undone.`,
  retentionSaved: (months: number) => `Messages are now deleted after ${monthsText(months)}.`,
  retentionInvalid: `Please enter a whole number of months from ${RETENTION.minMonths} to ${RETENTION.maxMonths}.`,
  exportFailed: 'The messages could not be exported. Please try again.',
} as const;

export function monthsText(months: number): string {
  return months === 1 ? '1 month' : `${months} months`;
}

const dateTime = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZone: 'Africa/Kampala',
});

/** spec §9 dates in US English, with the time in Uganda (East Africa Time), the same on server and browser. */
export function formatMessageTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : dateTime.format(date);
}

/** The first line of a message, for the list: the first non-empty line, cut at `max` characters. */
export function firstLine(message: string, max = 120): string {
  const line =
    message
      .slice(0, 2_000)
      .split(/\r?\n/)
      .find((l) => l.trim() !== '')
      ?.trim() ?? '';
  return line.length > max ? `${line.slice(0, max - 1).trimEnd()}…` : line;
}

/** A subject on one line, for a mail header or a line of a mail (a bot may post newlines or other control characters). */
export function oneLine(text: string): string {
  return text.replace(/[\s\p{Cc}]+/gu, ' ').trim();
}

/** "Re: subject" for a reply, without piling up "Re: Re:". */
export function replySubject(subject: string): string {
  const flat = oneLine(subject);
  return /^re:/i.test(flat) ? flat : `Re: ${flat}`;
}

function buildReplySchema() {
  return z.object({
    intent: z.literal('reply'),
    body: z.string().trim().min(1, MESSAGE_TEXT.replyRequired).max(REPLY_MAX, MESSAGE_TEXT.replyTooLong),
  });
}

function buildStatusSchema() {
  return z.object({
    intent: z.literal('status'),
    status: z.enum(SETTABLE_STATUSES, MESSAGE_TEXT.statusInvalid),
  });
}

function buildRetentionSchema() {
  return z.object({
    intent: z.literal('retention'),
    months: z
      .string()
      .trim()
      .regex(/^\d{1,3}$/, MESSAGE_TEXT.retentionInvalid)
      .transform(Number)
      .pipe(
        z
          .number()
          .int()
          .min(RETENTION.minMonths, MESSAGE_TEXT.retentionInvalid)
          .max(RETENTION.maxMonths, MESSAGE_TEXT.retentionInvalid),
      ),
  });
}

export const replySchema = /* @__PURE__ */ buildReplySchema();
export const statusSchema = /* @__PURE__ */ buildStatusSchema();
export const retentionSchema = /* @__PURE__ */ buildRetentionSchema();

/** The message page's two forms: a reply, or a change of status. */
export const messageActionSchema = /* @__PURE__ */ z.discriminatedUnion('intent', [replySchema, statusSchema]);

/** The dashboard's notice when the server has no mail server (SMTP_URL): "sent" would otherwise mislead. */
export const MAIL_OFF_NOTICE =
  'Emails are not being sent: no mail server is set (SMTP_URL), so password resets, replies and other emails reach nobody. Ask whoever runs the website to set it.';
