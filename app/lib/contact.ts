import { z } from 'zod';

// The contact form (spec §2 /contact, §3 Contact message, §4 contact states, §5): its limits, its
// texts and the one schema the action parses with. The page imports the texts and limits; the
// schema stays on the server (docs/decisions/401-contact-form.md).

/** Sensible maximum lengths, also used as `maxLength` on the inputs. */
export const CONTACT_LIMITS = { name: 100, email: 254, phone: 30, subject: 150, message: 5000 } as const;

/** Requests larger than this are refused with 413 before the body is read. */
export const CONTACT_MAX_BODY_BYTES = 64 * 1024;

/** Not in the spec: at most this many messages per visitor address in the window (docs/decisions/401-contact-form.md). */
export const CONTACT_RATE_LIMIT = { limit: 5, windowMs: 10 * 60_000 } as const;

/** The hidden field people never see and bots like to fill. */
export const HONEYPOT_FIELD = 'website';

export const CONTACT_LOCATION = 'Kampala, Uganda';

export const CONTACT_TEXT = {
  // spec §4 and §8, verbatim.
  sending: 'Sending...',
  sent: 'Message Sent Successfully!',
  failed: 'There was an error sending your message. Please try again later.',
  // Not shown in the spec.
  send: 'Send Message',
  sentDetail: 'Thank you for writing to us. We read every message and will reply to you by email.',
  sendAnother: 'Send another message',
  invalid: 'Please correct the fields marked below, then send your message again.',
  rateLimited:
    'You have sent several messages in a short time. Please wait 10 minutes and try again, or write to us by email instead.',
  automated:
    'Sorry, your message looks like it was sent automatically, so we did not accept it. If you are a person, please write to us by email instead.',
  tooLarge: 'Your message is too large to send. Please shorten it to 5,000 characters or fewer and try again.',
} as const;

export const CONTACT_ERRORS = {
  name: { required: 'Please enter your name.', tooLong: `Your name must be ${CONTACT_LIMITS.name} characters or fewer.` },
  email: {
    required: 'Please enter your email address.',
    invalid: 'Please enter a valid email address, such as name@example.com.',
    tooLong: `Your email address must be ${CONTACT_LIMITS.email} characters or fewer.`,
  },
  phone: {
    invalid: 'Please enter a phone number using digits, spaces and + ( ) - only.',
    tooLong: `Your phone number must be ${CONTACT_LIMITS.phone} characters or fewer.`,
  },
  subject: {
    required: 'Please enter a subject.',
    tooLong: `The subject must be ${CONTACT_LIMITS.subject} characters or fewer.`,
  },
  message: {
    required: 'Please enter your message.',
    tooLong: 'Your message must be 5,000 characters or fewer.',
  },
} as const;

export const CONTACT_FIELDS = ['name', 'email', 'phone', 'subject', 'message'] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number];
export type ContactValues = Record<ContactField, string>;
export type ContactFieldErrors = Partial<Record<ContactField, string>>;

function buildContactSchema() {
  const required = (field: Exclude<ContactField, 'phone'>) =>
    z.string().trim().min(1, CONTACT_ERRORS[field].required).max(CONTACT_LIMITS[field], CONTACT_ERRORS[field].tooLong);
  return z.object({
    name: required('name'),
    email: required('email').pipe(z.email(CONTACT_ERRORS.email.invalid)),
    phone: z
      .string()
      .trim()
      .max(CONTACT_LIMITS.phone, CONTACT_ERRORS.phone.tooLong)
      .regex(/^[+\d\s().-]*$/, CONTACT_ERRORS.phone.invalid)
      .transform((v) => (v === '' ? null : v)),
    subject: required('subject'),
    message: required('message'),
  });
}

// Marked pure so that pages importing only the texts do not ship zod (about 22 KB gzipped) to phones.
export const contactSchema = /* @__PURE__ */ buildContactSchema();

export type ContactMessageInput = z.output<typeof contactSchema>;

/** What the action answers; `values` always carries what the visitor typed, so nothing is lost. */
export type ContactResult =
  | { status: 'sent' }
  | { status: 'invalid'; message: string; errors: ContactFieldErrors; values: ContactValues }
  | { status: 'refused' | 'failed'; message: string; values: ContactValues };

/**
 * The contact page's one sentence on how a message is used and kept (Uganda's Data Protection and
 * Privacy Act 2019 asks for purpose and retention); the months are the inbox's retention setting.
 */
export function contactPrivacyNotice(retentionMonths: number): string {
  const kept = retentionMonths === 1 ? '1 month' : `${retentionMonths} months`;
  return `We use your message only to answer you, and delete it after ${kept}.`;
}

/** A subject passed in the address (?subject=Partnership), made safe to show in the field. */
export function subjectFromQuery(value: string | null): string {
  // Only the start can be shown; the cut is generous so that leading spaces cannot push it out.
  return (value ?? '')
    .slice(0, CONTACT_LIMITS.subject * 4)
    .replace(/[\p{Cc}\p{Cf}]/gu, ' ')
    .trim()
    .slice(0, CONTACT_LIMITS.subject);
}
