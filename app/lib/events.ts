import { z } from 'zod';
import { pathInLanguage, type Language } from './languages.ts';

// Issue 27, parts 2-5: trainings and events people register for (docs/decisions/028-events.md).
// The limits, texts and schemas shared by the pages and the server, the calendar file (.ics) and
// the JSON-LD Event. Times are stored as ISO-8601 UTC and entered and shown in the organisation's
// time zone (lib/schedule.ts).

export const EVENT_LIMITS = {
  title: 120,
  summary: 300,
  description: 50_000,
  place: 200,
  onlineUrl: 500,
  imageUrl: 300,
  imageAlt: 200,
  capacityMax: 10_000,
  name: 100,
  email: 254,
  phone: 30,
  accessNeeds: 1_000,
  message: 5_000,
  subject: 150,
} as const;

/** The hidden field people never see and bots fill (the contact form's). */
export const HONEYPOT = 'website';

/** Registration posts larger than this are refused before they are read. */
export const REGISTRATION_MAX_BODY_BYTES = 16 * 1024;
/** Registrations per visitor address in the window (the contact form's rule, a little wider). */
export const REGISTRATION_RATE_LIMIT = { limit: 10, windowMs: 10 * 60_000 } as const;
/** The staff form: the largest picture plus room for the words. */
export const EVENT_FORM_MAX_BYTES = 5 * 1024 * 1024 + 200_000;

export type EventStatus = 'draft' | 'published' | 'cancelled';
export type RegistrationStatus = 'confirmed' | 'waiting' | 'cancelled';

/** An event as the public pages show it. */
export interface PublicEvent {
  id: string;
  slug: string;
  title: string;
  summary: string;
  description: string;
  startsAt: string;
  endsAt: string;
  place: string;
  onlineUrl: string;
  capacity: number;
  taken: number;
  waiting: number;
  signLanguage: boolean;
  captioning: boolean;
  stepFree: boolean;
  imageUrl: string | null;
  imageAlt: string;
  registrationOpen: boolean;
  registrationDeadline: string | null;
  status: EventStatus;
  updatedAt: string;
  /**
   * On a page in Luganda or Swahili (decision 051): the language the words are in, the page's when
   * the event has a published version in it, else 'en'. Not set on English pages.
   */
  textLanguage?: string;
}

export interface AdminEvent extends PublicEvent {
  demo: boolean;
  authorEmail: string | null;
  confirmed: number;
}

export const EVENT_TEXT = {
  fixErrors: 'Please fix the errors below before saving.',
  notFound: 'Event not found',
  notFoundDetail: 'This event does not exist or is no longer listed.',
  forbidden: 'You do not have permission to perform this action.',
  saveFailed: 'The event could not be saved. Please try again.',
  titleRequired: 'Title is required',
  titleTooLong: `Title must be at most ${EVENT_LIMITS.title} characters`,
  summaryRequired: 'Summary is required',
  summaryTooLong: `Summary must be at most ${EVENT_LIMITS.summary} characters`,
  descriptionRequired: 'Description is required',
  descriptionTooLong: 'Description is too long',
  startInvalid: 'Please enter the start date and time',
  endInvalid: 'Please enter the end date and time',
  endBeforeStart: 'The end must be after the start',
  placeRequired: 'Please give a place or an online link (or both)',
  placeTooLong: `The place must be at most ${EVENT_LIMITS.place} characters`,
  onlineUrlInvalid: 'The online link must be a full address starting with https://',
  capacityInvalid: `Places must be a whole number from 1 to ${EVENT_LIMITS.capacityMax.toLocaleString('en-US')}`,
  capacityBelowTaken: (taken: number) =>
    `${taken} people already have a place: places cannot be fewer than ${taken}. Cancel registrations first.`,
  deadlineInvalid: 'Please enter both the date and time of the deadline, or neither',
  deadlineAfterStart: 'The registration deadline must be before the event starts',
  altRequired: 'Image description is required when there is an image',
  altTooLong: `The image description must be at most ${EVENT_LIMITS.imageAlt} characters`,
  imageInvalid: 'Please upload the image again.',
  publishForbidden: 'Your role may save events as drafts only; an editor or admin publishes them.',
  editForbidden: 'Your role may edit only its own drafts.',
  alreadyCancelled: 'This event is cancelled; it can no longer be changed.',
  // Public registration.
  register: 'Register',
  sending: 'Registering...',
  failed: 'There was an error sending your registration. Please try again later.',
  invalid: 'Please correct the fields marked below, then register again.',
  rateLimited: 'You have sent several registrations in a short time. Please wait 10 minutes and try again.',
  automated:
    'Sorry, your registration looks like it was sent automatically, so we did not accept it. If you are a person, please contact us instead.',
  tooLarge: 'Your registration is too large to send. Please shorten what you wrote and try again.',
  closed: 'Registration for this event is closed.',
  nameRequired: 'Please enter your name.',
  nameTooLong: `Your name must be ${EVENT_LIMITS.name} characters or fewer.`,
  nameOneLine: 'Please type your name on one line.',
  emailInvalid: 'Please enter a valid email address, such as name@example.com.',
  emailTooLong: `Your email address must be ${EVENT_LIMITS.email} characters or fewer.`,
  phoneInvalid: 'Please enter a phone number using digits, spaces and + ( ) - only.',
  phoneTooLong: `Your phone number must be ${EVENT_LIMITS.phone} characters or fewer.`,
  contactRequired: 'Please give an email address or a phone number so we can reach you.',
  accessTooLong: `Please keep this to ${EVENT_LIMITS.accessNeeds.toLocaleString('en-US')} characters or fewer.`,
  confirmedTitle: 'You have a place!',
  waitingTitle: 'You are on the waiting list',
  // Cancellation.
  cancelTitle: 'Cancel your registration',
  cancelButton: 'Cancel my registration',
  cancelledTitle: 'Your registration is cancelled',
  cancelInvalidTitle: 'This link does not work',
  cancelInvalid: 'This cancellation link has already been used or is not valid. If you still need help, please contact us.',
  // Staff.
  messageSubjectRequired: 'Please enter a subject.',
  messageRequired: 'Please enter your message.',
  messageTooLong: `The message must be at most ${EVENT_LIMITS.message.toLocaleString('en-US')} characters.`,
} as const;

const checkbox = z
  .string()
  .optional()
  .transform((value) => value === 'on' || value === 'true' || value === '1');

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^\d{2}:\d{2}$/;
const optionalDate = z
  .string()
  .trim()
  .max(10)
  .refine((v) => v === '' || DATE.test(v));
const optionalTime = z
  .string()
  .trim()
  .max(5)
  .refine((v) => v === '' || TIME.test(v));

/** An online link: https:// (or http://) and nothing a browser could run. */
function isWebAddress(value: string): boolean {
  if (value.length > EVENT_LIMITS.onlineUrl) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/** The staff form's fields as posted; times are wall-clock values in the organisation's zone. */
export const eventFormSchema = z.object({
  intent: z.enum(['draft', 'publish']).default('draft'),
  title: z.string().trim().min(1, EVENT_TEXT.titleRequired).max(EVENT_LIMITS.title, EVENT_TEXT.titleTooLong),
  summary: z.string().trim().min(1, EVENT_TEXT.summaryRequired).max(EVENT_LIMITS.summary, EVENT_TEXT.summaryTooLong),
  description: z.string().max(EVENT_LIMITS.description, EVENT_TEXT.descriptionTooLong),
  startDate: z.string().trim().max(10).regex(DATE, EVENT_TEXT.startInvalid),
  startTime: z.string().trim().max(5).regex(TIME, EVENT_TEXT.startInvalid),
  endDate: z.string().trim().max(10).regex(DATE, EVENT_TEXT.endInvalid),
  endTime: z.string().trim().max(5).regex(TIME, EVENT_TEXT.endInvalid),
  place: z.string().trim().max(EVENT_LIMITS.place, EVENT_TEXT.placeTooLong).default(''),
  onlineUrl: z
    .string()
    .trim()
    .default('')
    .refine((v) => v === '' || isWebAddress(v), EVENT_TEXT.onlineUrlInvalid),
  capacity: z
    .string()
    .trim()
    .max(6, EVENT_TEXT.capacityInvalid)
    .regex(/^\d+$/, EVENT_TEXT.capacityInvalid)
    .transform(Number)
    .refine((n) => n >= 1 && n <= EVENT_LIMITS.capacityMax, EVENT_TEXT.capacityInvalid),
  signLanguage: checkbox,
  captioning: checkbox,
  stepFree: checkbox,
  registrationOpen: checkbox,
  deadlineDate: optionalDate.default(''),
  deadlineTime: optionalTime.default(''),
  imageUrl: z
    .string()
    .trim()
    .max(EVENT_LIMITS.imageUrl, EVENT_TEXT.imageInvalid)
    .refine((v) => v === '' || /^\/media\/[A-Za-z0-9/_.-]+$/.test(v), EVENT_TEXT.imageInvalid)
    .default(''),
  imageAlt: z.string().trim().max(EVENT_LIMITS.imageAlt, EVENT_TEXT.altTooLong).default(''),
});
export type EventFormValues = z.output<typeof eventFormSchema>;
export const EVENT_FORM_FIELDS = [
  'title',
  'summary',
  'description',
  'startDate',
  'startTime',
  'endDate',
  'endTime',
  'place',
  'onlineUrl',
  'capacity',
  'deadlineDate',
  'deadlineTime',
  'imageUrl',
  'imageAlt',
] as const;
export type EventFormField = (typeof EVENT_FORM_FIELDS)[number] | 'signLanguage' | 'captioning' | 'stepFree' | 'registrationOpen';
export type EventErrors = Partial<Record<(typeof EVENT_FORM_FIELDS)[number] | 'form', string>>;
export type EventFormShown = Partial<Record<(typeof EVENT_FORM_FIELDS)[number], string>> & {
  signLanguage?: boolean;
  captioning?: boolean;
  stepFree?: boolean;
  registrationOpen?: boolean;
};
export interface EventFormFailure {
  ok: false;
  message: string;
  errors: EventErrors;
  values: EventFormShown;
}

export const REGISTRATION_FIELDS = ['name', 'email', 'phone', 'accessNeeds'] as const;
export type RegistrationField = (typeof REGISTRATION_FIELDS)[number];
export type RegistrationValues = Record<RegistrationField, string>;
export type RegistrationErrors = Partial<Record<RegistrationField, string>>;

function buildRegistrationSchema() {
  return z
    .object({
      // The name opens mails sent to whatever address was typed: one line of it, without control
      // characters or marks that turn text around, so it cannot become a message of its own.
      name: z
        .string()
        .trim()
        .min(1, EVENT_TEXT.nameRequired)
        .max(EVENT_LIMITS.name, EVENT_TEXT.nameTooLong)
        .regex(/^[^\p{Cc}\u202A-\u202E\u2066-\u2069]*$/u, EVENT_TEXT.nameOneLine),
      email: z
        .string()
        .trim()
        .max(EVENT_LIMITS.email, EVENT_TEXT.emailTooLong)
        .default('')
        .pipe(z.union([z.literal(''), z.email(EVENT_TEXT.emailInvalid)]))
        .transform((v) => (v === '' ? null : v.toLowerCase())),
      phone: z
        .string()
        .trim()
        .max(EVENT_LIMITS.phone, EVENT_TEXT.phoneTooLong)
        .regex(/^[+\d\s().-]*$/, EVENT_TEXT.phoneInvalid)
        .default('')
        .transform((v) => (v === '' ? null : v)),
      accessNeeds: z.string().trim().max(EVENT_LIMITS.accessNeeds, EVENT_TEXT.accessTooLong).default(''),
    })
    .superRefine((value, ctx) => {
      if (!value.email && !value.phone) ctx.addIssue({ code: 'custom', path: ['email'], message: EVENT_TEXT.contactRequired });
    });
}

/**
 * The same phone number however it was typed: its digits, with Uganda's +256 written as a leading 0
 * (+256 772 000111, 256772000111 and 0772 000111 are one number). Undefined without digits.
 */
export function phoneKey(phone: string | null): string | undefined {
  const digits = (phone ?? '').replace(/\D/g, '').replace(/^00/, '');
  if (!digits) return undefined;
  return digits.startsWith('256') && digits.length === 12 ? `0${digits.slice(3)}` : digits;
}

/** Marked pure so that pages importing only the texts do not ship zod. */
export const registrationSchema = /* @__PURE__ */ buildRegistrationSchema();
export type RegistrationInput = z.output<typeof registrationSchema>;

/** What the registration form's action answers; `values` keeps what was typed. */
export type RegistrationResult =
  | {
      status: 'registered';
      place: 'confirmed' | 'waiting';
      name: string;
      mailed: boolean;
      cancelUrl: string | null;
      /** A phone number without an email address that was already registered: nothing new was stored or shown. */
      phoneAgain: boolean;
    }
  | { status: 'invalid'; message: string; errors: RegistrationErrors; values: RegistrationValues }
  | { status: 'refused' | 'failed' | 'closed'; message: string; values: RegistrationValues };

/** The staff message to every registrant. */
export const eventMessageSchema = z.object({
  intent: z.literal('message'),
  subject: z.string().trim().min(1, EVENT_TEXT.messageSubjectRequired).max(EVENT_LIMITS.subject),
  message: z.string().trim().min(1, EVENT_TEXT.messageRequired).max(EVENT_LIMITS.message, EVENT_TEXT.messageTooLong),
});

// ---------------------------------------------------------------------------------------------

/** The public address of an event. */
export function eventPath(slug: string): string {
  return `/events/${encodeURIComponent(slug)}`;
}

/** The calendar file of an event; from a page in Luganda or Swahili, in that page's words (decision 051). */
export function eventCalendarPath(slug: string, language: Language = 'en'): string {
  return `/events/${encodeURIComponent(slug)}/calendar.ics${language === 'en' ? '' : `?language=${language}`}`;
}

/** Whether registration is possible now (published, open, before its deadline, not yet started). */
export function registrationIsOpen(
  event: Pick<PublicEvent, 'status' | 'registrationOpen' | 'registrationDeadline' | 'startsAt'>,
  now = Date.now(),
): boolean {
  if (event.status !== 'published' || !event.registrationOpen) return false;
  if (Date.parse(event.startsAt) <= now) return false;
  return !(event.registrationDeadline && Date.parse(event.registrationDeadline) <= now);
}

export function placesLeft(event: Pick<PublicEvent, 'capacity' | 'taken'>): number {
  return Math.max(0, event.capacity - event.taken);
}

/** The locale event times are written in: US English on English pages, as every date (spec §9), else the page's language (issue 26). */
export function eventLocale(language: string = 'en'): string {
  return language === 'en' ? 'en-US' : language;
}

/**
 * "Saturday, December 5, 2026, 09:00–12:00 (East Africa Time)" style (a 24-hour clock, as Uganda reads
 * times), in the organisation's zone; in
 * Luganda or Swahili (`language`), that language's day and month names from Intl.
 */
export function formatEventWhen(startsAt: string, endsAt: string, timeZone: string, language = 'en'): string {
  const start = new Date(startsAt);
  const end = new Date(endsAt);
  const locale = eventLocale(language);
  const day = new Intl.DateTimeFormat(locale, { timeZone, weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
  const time = new Intl.DateTimeFormat(locale, { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  const zone =
    new Intl.DateTimeFormat(locale, { timeZone, timeZoneName: 'long' })
      .formatToParts(start)
      .find((p) => p.type === 'timeZoneName')?.value ?? timeZone;
  const sameDay = day.format(start) === day.format(end);
  return sameDay
    ? `${day.format(start)}, ${time.format(start)}–${time.format(end)} (${zone})`
    : `${day.format(start)}, ${time.format(start)} – ${day.format(end)}, ${time.format(end)} (${zone})`;
}

/** The accessibility an event offers, in words. */
export function accessFeatures(event: Pick<PublicEvent, 'signLanguage' | 'captioning' | 'stepFree'>): string[] {
  const list: string[] = [];
  if (event.signLanguage) list.push('Sign-language interpretation');
  if (event.captioning) list.push('Live captioning');
  if (event.stepFree) list.push('Step-free access');
  return list;
}

// ---------------------------------------------------------------------------------------------
// The calendar file (RFC 5545): one VEVENT, times in UTC, text escaped and lines folded at 75 octets.

function icsText(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');
}

function icsTime(iso: string): string {
  return new Date(iso)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

/** Folds a content line so no line passes 75 octets (continuations start with a space). */
function fold(line: string): string {
  const encoder = new TextEncoder();
  if (encoder.encode(line).length <= 75) return line;
  const parts: string[] = [];
  let current = '';
  let size = 0;
  for (const char of line) {
    const length = encoder.encode(char).length;
    const limit = parts.length === 0 ? 75 : 74;
    if (size + length > limit) {
      parts.push(current);
      current = '';
      size = 0;
    }
    current += char;
    size += length;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

export function eventCalendar(
  event: Pick<
    PublicEvent,
    'id' | 'slug' | 'title' | 'summary' | 'startsAt' | 'endsAt' | 'place' | 'onlineUrl' | 'updatedAt' | 'status'
  >,
  options: { publicUrl: string; host: string; organiser: string; language?: Language },
): string {
  const url = `${options.publicUrl}${pathInLanguage(eventPath(event.slug), options.language ?? 'en')}`;
  const location = [event.place, event.onlineUrl].filter(Boolean).join(' · ');
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:-//${icsText(options.organiser)}//Events//EN`,
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    'BEGIN:VEVENT',
    `UID:${event.id}@${options.host}`,
    `DTSTAMP:${icsTime(event.updatedAt)}`,
    // Each change of the event a higher number (seconds of its last change since 2026), so a calendar
    // that has it replaces it with a later file: a new time, or its cancellation.
    `SEQUENCE:${Math.max(0, Math.floor((Date.parse(event.updatedAt) - Date.UTC(2026, 0, 1)) / 1000))}`,
    `DTSTART:${icsTime(event.startsAt)}`,
    `DTEND:${icsTime(event.endsAt)}`,
    `SUMMARY:${icsText(event.title)}`,
    `DESCRIPTION:${icsText(`${event.summary}\n\n${url}`)}`,
    ...(location ? [`LOCATION:${icsText(location)}`] : []),
    `URL:${url}`,
    `STATUS:${event.status === 'cancelled' ? 'CANCELLED' : 'CONFIRMED'}`,
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return `${lines.map(fold).join('\r\n')}\r\n`;
}

/** schema.org Event for the event's page. */
export function eventJsonLd(
  event: PublicEvent,
  options: { publicUrl: string; organiser: string; language?: Language },
): Record<string, unknown> {
  const url = `${options.publicUrl}${pathInLanguage(eventPath(event.slug), options.language ?? 'en')}`;
  const physical = event.place ? { '@type': 'Place', name: event.place, address: event.place } : null;
  const virtual = event.onlineUrl ? { '@type': 'VirtualLocation', url: event.onlineUrl } : null;
  const locations = [physical, virtual].filter(Boolean);
  return {
    '@context': 'https://schema.org',
    '@type': 'Event',
    name: event.title,
    description: event.summary,
    ...(event.textLanguage ? { inLanguage: event.textLanguage } : {}),
    startDate: event.startsAt,
    endDate: event.endsAt,
    url,
    eventStatus: event.status === 'cancelled' ? 'https://schema.org/EventCancelled' : 'https://schema.org/EventScheduled',
    eventAttendanceMode:
      physical && virtual
        ? 'https://schema.org/MixedEventAttendanceMode'
        : virtual
          ? 'https://schema.org/OnlineEventAttendanceMode'
          : 'https://schema.org/OfflineEventAttendanceMode',
    location: locations.length === 1 ? locations[0] : locations,
    ...(event.imageUrl ? { image: `${options.publicUrl}${event.imageUrl}` } : {}),
    maximumAttendeeCapacity: event.capacity,
    remainingAttendeeCapacity: placesLeft(event),
    isAccessibleForFree: true,
    organizer: { '@type': 'Organization', name: options.organiser, url: options.publicUrl },
    offers: {
      '@type': 'Offer',
      price: 0,
      priceCurrency: 'UGX',
      url,
      availability: placesLeft(event) > 0 ? 'https://schema.org/InStock' : 'https://schema.org/SoldOut',
    },
  };
}
