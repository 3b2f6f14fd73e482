import { z } from 'zod';
import { pathWithoutLanguage } from './languages.ts';

// Issue 27 part 1, applications (docs/decisions/027-applications.md): "Become a Volunteer", "Partner
// with us", "Book Speaker" and "Get Design Help" each open a short form of their own. What is sent
// is an inbox message of its kind (contacts.kind): the person's name, email, phone and main words in
// the message's own columns, the other answers as JSON in contacts.answers, checked by the kind's
// schema when written and again when read. The pages import the texts and limits; the schemas are
// built only when the server asks for one, so no page ships zod.

export const APPLICATION_KINDS = ['volunteer', 'partner', 'speaker', 'design'] as const;
export type ApplicationKind = (typeof APPLICATION_KINDS)[number];

/** What an inbox row is: a contact message, or an application of one kind. */
export const INBOX_KINDS = ['message', ...APPLICATION_KINDS] as const;
export type InboxKind = (typeof INBOX_KINDS)[number];

export function isApplicationKind(value: unknown): value is ApplicationKind {
  return typeof value === 'string' && (APPLICATION_KINDS as readonly string[]).includes(value);
}

export function isInboxKind(value: unknown): value is InboxKind {
  return typeof value === 'string' && (INBOX_KINDS as readonly string[]).includes(value);
}

/** The inbox's words for each kind: one row's label and the filter's choice. */
export const KIND_LABELS: Record<InboxKind, { one: string; many: string }> = {
  message: { one: 'Message', many: 'Contact messages' },
  volunteer: { one: 'Volunteer application', many: 'Volunteer applications' },
  partner: { one: 'Partnership request', many: 'Partnership requests' },
  speaker: { one: 'Speaker request', many: 'Speaker requests' },
  design: { one: 'Design help request', many: 'Design help requests' },
};

/** Each form's public address, in the order the sitemap lists them. */
export const APPLICATION_PATHS: Record<ApplicationKind, string> = {
  volunteer: '/volunteer',
  partner: '/partner',
  speaker: '/book-speaker',
  design: '/design-help',
};

/** The built-in services whose page also offers a request form (issue 27): the talks and the design services. */
export const SERVICE_APPLICATIONS: Partial<Record<string, ApplicationKind>> = {
  'inclusion-talks': 'speaker',
  'comm-services': 'design',
};

export function applicationKindFromPath(pathname: string): ApplicationKind | undefined {
  // In any language: /lg/partner is the partnership form too.
  const path = pathWithoutLanguage(pathname).replace(/(?<!^)\/$/, '');
  return APPLICATION_KINDS.find((kind) => APPLICATION_PATHS[kind] === path);
}

/** Sensible maximum lengths, also the inputs' `maxLength`. */
export const APPLICATION_LIMITS = {
  name: 100,
  email: 254,
  phone: 30,
  organisation: 150,
  audience: 300,
  message: 3000,
} as const;

/** Posts larger than this are refused with 413 (the contact form's cap). */
export const APPLICATION_MAX_BODY_BYTES = 64 * 1024;

/** At most this many applications per visitor address in the window, all four forms together (as the contact form). */
export const APPLICATION_RATE_LIMIT = { limit: 5, windowMs: 10 * 60_000 } as const;

/**
 * At most this many confirmation mails to one address a day: the forms mail whatever address is
 * typed, so they must not become a way to flood somebody's mailbox.
 */
export const CONFIRMATION_LIMIT = { limit: 3, windowMs: 24 * 60 * 60_000 } as const;

/** Volunteers: how well they sign (Ugandan Sign Language). */
export const SIGN_LANGUAGE_LEVELS = [
  ['none', 'Not yet: I would like to learn'],
  ['learning', 'I am learning'],
  ['conversational', 'I can hold a conversation'],
  ['fluent', 'Fluent (I am Deaf, or sign every day)'],
  ['interpreter', 'I am a trained interpreter'],
] as const;
export type SignLanguageLevel = (typeof SIGN_LANGUAGE_LEVELS)[number][0];

/** Volunteers: other skills they offer, each a checkbox of its own (`skill_{id}`). */
export const VOLUNTEER_SKILLS = [
  ['teaching', 'Teaching or training'],
  ['design', 'Design, photos or video'],
  ['writing', 'Writing or translation'],
  ['events', 'Events and logistics'],
  ['it', 'Computers and IT'],
  ['fundraising', 'Fundraising'],
] as const;
export type VolunteerSkill = (typeof VOLUNTEER_SKILLS)[number][0];

/** Volunteers: when they can help, each a checkbox of its own (`available_{id}`). */
export const AVAILABILITY = [
  ['weekdays', 'Weekdays'],
  ['evenings', 'Evenings'],
  ['weekends', 'Weekends'],
  ['online', 'Online, from home'],
] as const;
export type Availability = (typeof AVAILABILITY)[number][0];

const labelOf = <Id extends string>(list: readonly (readonly [Id, string])[], id: string): string =>
  list.find(([key]) => key === id)?.[1] ?? id;

/** The form's free-text and choice fields, as posted (checkboxes are `skill_*`, `available_*`, `consent`). */
export type ApplicationField = 'name' | 'email' | 'phone' | 'organisation' | 'date' | 'audience' | 'sign_language' | 'message';

interface KindText {
  /** The page's heading and title. */
  title: string;
  /** The page's lead paragraph. */
  intro: string;
  description: string;
  /** The main text's label and hint. */
  messageLabel: string;
  messageHint: string;
  /** The name field's label: the applicant, or the organisation's contact person. */
  nameLabel: string;
  dateLabel?: string;
  dateOptional?: boolean;
  audienceLabel?: string;
  audienceHint?: string;
  send: string;
  sent: string;
  sentDetail: string;
}

export const APPLICATION_TEXT: Record<ApplicationKind, KindText> = {
  volunteer: {
    title: 'Become a Volunteer',
    intro:
      'Give a few hours to help young deaf, hard-of-hearing and disabled people learn, work and be heard. Tell us a little about yourself and we will get in touch.',
    description:
      'Volunteer with TDG Uganda: sign language, teaching, design, events or online help. Tell us your skills and when you are free, and we will contact you.',
    nameLabel: 'Your name',
    messageLabel: 'Why would you like to volunteer?',
    messageHint: 'A few sentences are enough. Up to 3,000 characters.',
    send: 'Send application',
    sent: 'Application Sent Successfully!',
    sentDetail:
      'Thank you for offering your time. Someone from our team will contact you, usually within two weeks. If you gave an email address, we have sent you a confirmation.',
  },
  partner: {
    title: 'Partner with us',
    intro:
      'Schools, employers, churches, associations and companies work with us on training, awareness and accessible services. Tell us who you are and what you have in mind.',
    description:
      'Partner with TDG Uganda on disability inclusion: trainings, awareness, accessible communication and programmes for deaf and disabled young people in Uganda.',
    nameLabel: 'Contact person',
    messageLabel: 'What would you like to do together?',
    messageHint: 'Your idea, your timing, and anything we should know. Up to 3,000 characters.',
    send: 'Send request',
    sent: 'Request Sent Successfully!',
    sentDetail: 'Thank you for reaching out. We will reply by email, usually within a week, and have sent you a confirmation.',
  },
  speaker: {
    title: 'Book a Speaker',
    intro:
      'Our speakers lead disability awareness conversations at schools, workplaces, churches and community groups, with sign-language interpretation. Tell us about your event.',
    description:
      'Book a TDG Uganda speaker for a disability awareness talk at your school, workplace, church or community group, with sign-language interpretation.',
    nameLabel: 'Contact person',
    dateLabel: 'Date of the event',
    audienceLabel: 'Audience',
    audienceHint: 'Who will be there, and about how many people?',
    messageLabel: 'What do you need?',
    messageHint: 'The topic, the length of the talk, the place, and any access needs. Up to 3,000 characters.',
    send: 'Send request',
    sent: 'Request Sent Successfully!',
    sentDetail:
      'Thank you. We will reply by email to agree the details, usually within a week, and have sent you a confirmation.',
  },
  design: {
    title: 'Get Design Help',
    intro:
      'Accessible graphics, captioned videos, easy-read documents and social media that everyone can use. Tell us what you need and when.',
    description:
      'Ask TDG Uganda for inclusive design help: accessible graphics, captioned videos, easy-read documents and social media for your organisation.',
    nameLabel: 'Contact person',
    dateLabel: 'Needed by (optional)',
    dateOptional: true,
    audienceLabel: 'Audience',
    audienceHint: 'Who is it for? For example: Deaf parents, staff, the public.',
    messageLabel: 'What do you need?',
    messageHint: 'What should we make, in which formats and languages. Up to 3,000 characters.',
    send: 'Send request',
    sent: 'Request Sent Successfully!',
    sentDetail: 'Thank you. We will reply by email, usually within a week, and have sent you a confirmation.',
  },
};

/** Shared words of the four forms (those the contact form has, with "application" for "message"). */
export const APPLICATION_FORM_TEXT = {
  sending: 'Sending...',
  failed: 'There was an error sending your application. Please try again later.',
  invalid: 'Please correct the fields marked below, then send it again.',
  rateLimited:
    'You have sent several applications in a short time. Please wait 10 minutes and try again, or write to us by email instead.',
  automated:
    'Sorry, your application looks like it was sent automatically, so we did not accept it. If you are a person, please write to us by email instead.',
  tooLarge: 'Your application is too large to send. Please shorten it to 3,000 characters or fewer and try again.',
  required: 'All fields are required unless marked optional.',
  another: 'Back to the home page',
} as const;

export const APPLICATION_ERRORS = {
  name: { required: 'Please enter a name.', tooLong: `The name must be ${APPLICATION_LIMITS.name} characters or fewer.` },
  email: {
    required: 'Please enter your email address.',
    invalid: 'Please enter a valid email address, such as name@example.com.',
    tooLong: `The email address must be ${APPLICATION_LIMITS.email} characters or fewer.`,
  },
  reach: 'Please give an email address or a phone number, so we can reach you.',
  phone: {
    invalid: 'Please enter a phone number using digits, spaces and + ( ) - only.',
    tooLong: `The phone number must be ${APPLICATION_LIMITS.phone} characters or fewer.`,
  },
  organisation: {
    required: 'Please enter the name of your organisation.',
    tooLong: `The organisation's name must be ${APPLICATION_LIMITS.organisation} characters or fewer.`,
  },
  date: {
    required: 'Please enter the date.',
    invalid: 'Please enter a date such as 2027-03-15.',
    past: 'Please choose a date from today onwards.',
    far: 'Please choose a date within the next two years.',
  },
  audience: {
    required: 'Please tell us who the audience is.',
    tooLong: `The audience must be ${APPLICATION_LIMITS.audience} characters or fewer.`,
  },
  signLanguage: 'Please choose how well you sign.',
  availability: 'Please choose at least one time when you could help.',
  message: { required: 'Please write a few words here.', tooLong: 'This must be 3,000 characters or fewer.' },
  consent: 'Please tick the box to agree, so that we may keep your details to answer you.',
} as const;

/**
 * The privacy note above each form (Uganda's Data Protection and Privacy Act 2019 asks for purpose
 * and retention); the months are the inbox's retention setting.
 */
export function applicationPrivacyNotice(kind: ApplicationKind, retentionMonths: number): string {
  const kept = retentionMonths === 1 ? '1 month' : `${retentionMonths} months`;
  const what = KIND_LABELS[kind].one.toLowerCase();
  return `We use the details you give here only to answer your ${what} and to work with you on it. Only our team sees them; we never sell or share them. We delete them after ${kept}, or sooner if you ask us.`;
}

export const CONSENT_LABEL = 'I agree that TDG Uganda may keep these details to answer me, as described above.';

// ---------------------------------------------------------------------------------------------
// The answers kept as JSON (contacts.answers), besides name, email, phone and the main text.

export type ApplicationAnswers =
  | { kind: 'volunteer'; signLanguage: SignLanguageLevel; skills: VolunteerSkill[]; availability: Availability[] }
  | { kind: 'partner'; organisation: string }
  | { kind: 'speaker'; organisation: string; date: string; audience: string }
  | { kind: 'design'; organisation: string; date: string | null; audience: string };

/** An application as the form's schema gives it: the message's columns and the kind's answers. */
export interface ApplicationInput {
  name: string;
  /** '' when a volunteer gave only a phone number. */
  email: string;
  phone: string | null;
  message: string;
  answers: ApplicationAnswers;
}

/** The inbox's subject for an application: its kind and who, on one line. */
export function applicationSubject(input: Pick<ApplicationInput, 'name' | 'answers'>): string {
  const a = input.answers;
  const subject =
    a.kind === 'volunteer'
      ? `Volunteer: ${input.name}`
      : a.kind === 'partner'
        ? `Partnership: ${a.organisation}`
        : a.kind === 'speaker'
          ? `Speaker request: ${a.organisation}, ${a.date}`
          : `Design help: ${a.organisation}`;
  return subject.replace(/[\s\p{Cc}]+/gu, ' ').trim();
}

/** The answers as labelled lines, for the inbox's page, the team's mail and nothing else. */
export function answerLines(answers: ApplicationAnswers): [label: string, value: string][] {
  switch (answers.kind) {
    case 'volunteer':
      return [
        ['Sign language', labelOf(SIGN_LANGUAGE_LEVELS, answers.signLanguage)],
        ['Other skills', answers.skills.map((s) => labelOf(VOLUNTEER_SKILLS, s)).join(', ') || 'None given'],
        ['Available', answers.availability.map((s) => labelOf(AVAILABILITY, s)).join(', ')],
      ];
    case 'partner':
      return [['Organisation', answers.organisation]];
    case 'speaker':
    case 'design':
      return [
        ['Organisation', answers.organisation],
        [answers.kind === 'speaker' ? 'Date of the event' : 'Needed by', answers.date ?? 'Not given'],
        ['Audience', answers.audience],
      ];
  }
}

/** The CSV's answer columns: one per answer, empty where a kind has none. */
export const ANSWER_COLUMNS = ['Organisation', 'Date', 'Audience', 'Sign language', 'Skills', 'Availability'] as const;

export function answerCells(answers: ApplicationAnswers | undefined): string[] {
  if (!answers) return ANSWER_COLUMNS.map(() => '');
  if (answers.kind === 'volunteer')
    return [
      '',
      '',
      '',
      labelOf(SIGN_LANGUAGE_LEVELS, answers.signLanguage),
      answers.skills.map((s) => labelOf(VOLUNTEER_SKILLS, s)).join('; '),
      answers.availability.map((s) => labelOf(AVAILABILITY, s)).join('; '),
    ];
  if (answers.kind === 'partner') return [answers.organisation, '', '', '', '', ''];
  return [answers.organisation, answers.date ?? '', answers.audience, '', '', ''];
}

const ids = <Id extends string>(list: readonly (readonly [Id, string])[]) => list.map(([id]) => id) as [Id, ...Id[]];

function buildAnswersSchema() {
  const text = (max: number) => z.string().trim().min(1).max(max);
  const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
  return z.discriminatedUnion('kind', [
    z.object({
      kind: z.literal('volunteer'),
      signLanguage: z.enum(ids(SIGN_LANGUAGE_LEVELS)),
      skills: z.array(z.enum(ids(VOLUNTEER_SKILLS))).max(VOLUNTEER_SKILLS.length),
      availability: z
        .array(z.enum(ids(AVAILABILITY)))
        .min(1)
        .max(AVAILABILITY.length),
    }),
    z.object({ kind: z.literal('partner'), organisation: text(APPLICATION_LIMITS.organisation) }),
    z.object({
      kind: z.literal('speaker'),
      organisation: text(APPLICATION_LIMITS.organisation),
      date,
      audience: text(APPLICATION_LIMITS.audience),
    }),
    z.object({
      kind: z.literal('design'),
      organisation: text(APPLICATION_LIMITS.organisation),
      date: date.nullable(),
      audience: text(APPLICATION_LIMITS.audience),
    }),
  ]);
}

let answersSchema: ReturnType<typeof buildAnswersSchema> | undefined;

/** The stored answers of a row, checked; undefined for a contact message or answers that do not read. */
export function readAnswers(kind: string, json: string | null): ApplicationAnswers | undefined {
  if (!isApplicationKind(kind) || !json || json.length > 20_000) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return undefined;
  }
  answersSchema ??= buildAnswersSchema();
  const parsed = answersSchema.safeParse(value);
  return parsed.success && parsed.data.kind === kind ? parsed.data : undefined;
}

/** The answers as stored: checked against the same schema first, so nothing else is ever written. */
export function storedAnswers(answers: ApplicationAnswers): string {
  answersSchema ??= buildAnswersSchema();
  return JSON.stringify(answersSchema.parse(answers));
}

// ---------------------------------------------------------------------------------------------
// The forms' schemas.

/** Today's date in Kampala, YYYY-MM-DD. */
export function kampalaToday(now = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Africa/Kampala',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}

function isRealDate(value: string): boolean {
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/** The names of the checkboxes of a volunteer's skills and availability. */
export const skillField = (id: VolunteerSkill) => `skill_${id}` as const;
export const availableField = (id: Availability) => `available_${id}` as const;

/** The hidden field people never see and bots like to fill (the contact form's). */
export const APPLICATION_HONEYPOT = 'website';

/** A form as posted and checked: its text fields, and its ticked boxes as 'yes'. */
export type CheckedApplication = Record<string, string | undefined>;

function buildFormSchema(kind: ApplicationKind): z.ZodObject {
  const E = APPLICATION_ERRORS;
  const required = (max: number, errors: { required: string; tooLong: string }) =>
    z.string().trim().min(1, errors.required).max(max, errors.tooLong);
  const email = z
    .string()
    .trim()
    .max(APPLICATION_LIMITS.email, E.email.tooLong)
    .pipe(z.union([z.literal(''), z.email(E.email.invalid)]));
  const phone = z
    .string()
    .trim()
    .max(APPLICATION_LIMITS.phone, E.phone.tooLong)
    .regex(/^[+\d\s().-]*$/, E.phone.invalid);
  const common = {
    name: required(APPLICATION_LIMITS.name, E.name),
    phone,
    message: required(APPLICATION_LIMITS.message, E.message),
    consent: z.string().refine((v) => v === 'yes', E.consent),
    [APPLICATION_HONEYPOT]: z.string().optional(),
  };
  const checkbox = z.string().optional();

  if (kind === 'volunteer') {
    const checks = Object.fromEntries([
      ...VOLUNTEER_SKILLS.map(([id]) => [skillField(id), checkbox]),
      ...AVAILABILITY.map(([id]) => [availableField(id), checkbox]),
    ]) as Record<string, typeof checkbox>;
    return z
      .object({
        ...common,
        email,
        sign_language: z.enum(ids(SIGN_LANGUAGE_LEVELS), E.signLanguage),
        ...checks,
        // Never posted: the availability's message is shown on its group of boxes under this name.
        availability: z.string().optional(),
      })
      .superRefine(
        (v, ctx) => {
          // Run even when other fields have errors (`when`), so every message shows at once.
          const posted = v as Record<string, unknown>;
          if (!posted.email && !posted.phone) ctx.addIssue({ code: 'custom', path: ['email'], message: E.reach });
          if (!AVAILABILITY.some(([id]) => posted[availableField(id)] !== undefined))
            ctx.addIssue({ code: 'custom', path: ['availability'], message: E.availability });
        },
        { when: () => true },
      ) as unknown as z.ZodObject;
  }

  const organisation = required(APPLICATION_LIMITS.organisation, E.organisation);
  const requiredEmail = email.refine((v) => v !== '', E.email.required);
  if (kind === 'partner') return z.object({ ...common, organisation, email: requiredEmail });
  const optional = kind === 'design';
  const date = z
    .string()
    .trim()
    .max(10, E.date.invalid)
    .superRefine((value, ctx) => {
      if (value === '') {
        if (!optional) ctx.addIssue({ code: 'custom', message: E.date.required });
        return;
      }
      const today = kampalaToday();
      if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || !isRealDate(value)) ctx.addIssue({ code: 'custom', message: E.date.invalid });
      else if (value < today) ctx.addIssue({ code: 'custom', message: E.date.past });
      else if (value > `${Number(today.slice(0, 4)) + 2}${today.slice(4)}`) ctx.addIssue({ code: 'custom', message: E.date.far });
    });
  return z.object({
    ...common,
    organisation,
    email: requiredEmail,
    date,
    audience: required(APPLICATION_LIMITS.audience, E.audience),
  });
}

const formSchemas = new Map<ApplicationKind, z.ZodObject>();

/** The schema a kind's form is parsed with (built once, on the server): an object, so a field left out reads as ''. */
export function applicationFormSchema(kind: ApplicationKind): z.ZodObject {
  let schema = formSchemas.get(kind);
  if (!schema) formSchemas.set(kind, (schema = buildFormSchema(kind)));
  return schema;
}

/** A checked form as the inbox keeps it: the message's columns and the kind's answers. */
export function toApplicationInput(kind: ApplicationKind, v: CheckedApplication): ApplicationInput {
  const text = (name: string) => v[name] ?? '';
  const base = { name: text('name'), email: text('email'), phone: text('phone') || null, message: text('message') };
  switch (kind) {
    case 'volunteer':
      return {
        ...base,
        answers: {
          kind,
          signLanguage: text('sign_language') as SignLanguageLevel,
          skills: VOLUNTEER_SKILLS.map(([id]) => id).filter((id) => v[skillField(id)] !== undefined),
          availability: AVAILABILITY.map(([id]) => id).filter((id) => v[availableField(id)] !== undefined),
        },
      };
    case 'partner':
      return { ...base, answers: { kind, organisation: text('organisation') } };
    case 'speaker':
      return { ...base, answers: { kind, organisation: text('organisation'), date: text('date'), audience: text('audience') } };
    case 'design':
      return {
        ...base,
        answers: { kind, organisation: text('organisation'), date: text('date') || null, audience: text('audience') },
      };
  }
}

/** What a form's fields hold when shown again: every posted text, and each ticked box. */
export type ApplicationValues = Record<string, string>;
export type ApplicationFieldErrors = Partial<Record<string, string>>;

/** What the action answers; `values` carries what was typed back, so nothing is lost. */
export type ApplicationResult =
  | { status: 'sent' }
  | { status: 'invalid'; message: string; errors: ApplicationFieldErrors; values: ApplicationValues }
  | { status: 'refused' | 'failed'; message: string; values: ApplicationValues };
