import type { Generated } from 'kysely';
import type { Collection } from '../../lib/collections.ts';
import type { Role } from '../../lib/permissions.ts';
import type { ContentStatus } from '../../lib/content-form.ts';
import type { VideoStatus } from '../../lib/video-upload.ts';
import type { InboxKind } from '../../lib/applications.ts';

// Typed tables shared by both engines. Timestamps are ISO-8601 UTC strings on both SQLite and
// PostgreSQL (docs/decisions/002-timestamps-and-ids.md); lists and JSON are stored as text. Roles
// and collections are defined in app/lib (permissions.ts, collections.ts), the columns take their types.

export interface SystemUserTable {
  id: string;
  name: string;
  email: string;
  role: Generated<Role>;
  bio: Generated<string>;
  /** Job title shown in the article author block. */
  title: Generated<string>;
  full_bio: Generated<string>;
  /** JSON: { twitter?: string; linkedin?: string } */
  social_links: Generated<string>;
  profile_picture: string | null;
  /** null: the account cannot sign in until a password is set through a reset link. */
  password_hash: string | null;
  disabled: Generated<number>;
  /** 1 for the demo staff the first start adds; "Remove demo content" deletes them. */
  demo: Generated<number>;
  created_at: string;
  updated_at: string;
  updated_by: string | null;
  last_login: string | null;
}

export interface SessionTable {
  /** SHA-256 of the random token held in the cookie; the token itself is never stored. */
  id: string;
  user_id: string;
  remember: Generated<number>;
  /** Set when the session was ended for the user (account deleted, password changed). */
  ended_reason: string | null;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  ip: string | null;
  user_agent: string | null;
}

export interface ContentTable {
  id: string;
  collection: Collection;
  title: string;
  summary: string | null;
  excerpt: string | null;
  content: string;
  /** Plain text of `content`, kept for full-text search. */
  search_text: Generated<string>;
  category: string;
  author: string;
  author_email: string | null;
  author_role: string | null;
  image_url: string | null;
  image_alt: string | null;
  /** JSON array of strings. */
  tags: Generated<string>;
  /** Issue 13: only 'published' items are public (docs/decisions/015-editorial-states.md). */
  status: Generated<ContentStatus>;
  /** When a scheduled item goes public (ISO-8601 UTC); null unless status is 'scheduled'. */
  scheduled_at: Generated<string | null>;
  /** Counts saves: a form opened at an older version is answered 409 instead of overwriting. */
  version: Generated<number>;
  /** Email of who saved last; null for the scheduled-publishing job (and rows from before 0008). */
  updated_by: Generated<string | null>;
  /** 1 for the demo stories, news and resources the first start adds. */
  demo: Generated<number>;
  /** Issue 14: its sign-language video (`videos.id`), or null. */
  video_id: Generated<string | null>;
  /** Issue 26: 'en', or the language of a version that translates `translation_of`. */
  language: Generated<string>;
  /** Issue 26: the English item this row translates; null for an English item. */
  translation_of: Generated<string | null>;
  /** Issue 26: the plain-language (easy read) text, or null. */
  easy_read: Generated<string | null>;
  created_at: string;
  published_at: string;
  updated_at: string;
}

/**
 * Issue 14: an uploaded sign-language video, from its first chunk to its two MP4 files, poster and
 * captions (docs/decisions/020-sign-language-video.md). Keys are media-store keys.
 */
export interface VideoTable {
  id: string;
  status: VideoStatus;
  original_name: string;
  /** The size the browser announced; the upload is whole when `received_bytes` reaches it. */
  size_bytes: number;
  received_bytes: Generated<number>;
  uploaded_by: string;
  /** 0–100 while processing. */
  progress: Generated<number>;
  /** Why processing failed, in plain words. */
  error: string | null;
  duration_ms: number | null;
  width: number | null;
  height: number | null;
  rendition_360_key: string | null;
  rendition_360_bytes: number | null;
  rendition_240_key: string | null;
  rendition_240_bytes: number | null;
  poster_key: string | null;
  captions_key: string | null;
  /** The checked WebVTT as stored (the transcript can be made from it again). */
  captions_vtt: string | null;
  transcript: Generated<string>;
  created_at: string;
  updated_at: string;
}

/** Issue 13: a link that shows an unpublished item; only the SHA-256 of its token is kept. */
export interface PreviewLinkTable {
  token_hash: string;
  content_id: string;
  created_by: string;
  created_at: string;
  expires_at: string;
}

export interface ServiceTable {
  id: string;
  title: string;
  description: string;
  /** JSON array of strings. */
  features: Generated<string>;
  image_url: string | null;
  image_alt: string | null;
  position: Generated<number>;
  /** 1 for demo services (none today: the four built-in services are the organisation's own). */
  demo: Generated<number>;
  /** Issue 14: its sign-language video (`videos.id`), or null. */
  video_id: Generated<string | null>;
  /** Issue 26: the plain-language (easy read) text, or null. */
  easy_read: Generated<string | null>;
  created_at: string;
  updated_at: string;
}

/** Issue 26: a service in Luganda or Swahili, drafted and published on its own. */
export interface ServiceTranslationTable {
  service_id: string;
  language: string;
  title: string;
  description: string;
  /** JSON array of strings. */
  features: Generated<string>;
  easy_read: Generated<string | null>;
  status: Generated<'draft' | 'published'>;
  version: Generated<number>;
  updated_by: string | null;
  created_at: string;
  updated_at: string;
  published_at: string | null;
}

/** Decision 051: an event in Luganda or Swahili, drafted and published on its own. */
export interface EventTranslationTable {
  event_id: string;
  language: string;
  title: string;
  summary: string;
  /** Sanitised HTML, as events.description. */
  description: string;
  /** Empty: the event's own place. */
  place: Generated<string>;
  /** Empty: the event's own picture description. */
  image_alt: Generated<string>;
  status: Generated<'draft' | 'published'>;
  version: Generated<number>;
  updated_by: string | null;
  created_at: string;
  updated_at: string;
  published_at: string | null;
}

/** Issue 27: a contact message's statuses, then an application's (contacted, accepted, declined). */
export type ContactStatus = 'new' | 'read' | 'replied' | 'archived' | 'spam' | 'contacted' | 'accepted' | 'declined';

export interface ContactTable {
  id: string;
  name: string;
  email: string;
  phone: string | null;
  subject: string;
  message: string;
  created_at: string;
  /** When a staff member first opened it. */
  read_at: string | null;
  status: Generated<ContactStatus>;
  /** Who last changed its status, and when (a reply, "handled", archive, spam). */
  status_changed_at: string | null;
  status_changed_by: string | null;
  /** Issue 27: 'message' (the contact form) or an application's kind (docs/decisions/027-applications.md). */
  kind: Generated<InboxKind>;
  /** An application's answers besides name, email, phone and its main text: JSON checked by app/lib/applications.ts. */
  answers: string | null;
  /** The outbox row of the confirmation mailed to the applicant, deleted with the application. */
  confirmation_mail_id: string | null;
  /** The language of the pages it was sent from (en, lg, sw): staff may answer in it. Null: stored before 0023, unknown. */
  language: string | null;
}

/** A reply sent from the inbox, kept in the message's thread. */
export interface ContactReplyTable {
  id: string;
  contact_id: string;
  body: string;
  sent_by_email: string;
  sent_by_name: string;
  /** The outbox row of the mail that carried it. */
  mail_id: string | null;
  created_at: string;
}

export interface MediaTable {
  id: string;
  /** Storage key of the original-size WebP, such as blogs/1732250000000_photo.webp */
  key: string;
  folder: string;
  original_name: string;
  width: number;
  height: number;
  /** JSON array of { width, key } for the responsive sizes. */
  variants: Generated<string>;
  bytes: number;
  uploaded_by: string | null;
  created_at: string;
}

export interface AuditLogTable {
  id: string;
  at: string;
  actor_email: string | null;
  action: string;
  target: string | null;
  /** JSON with action-specific detail; never passwords or message bodies. */
  detail: Generated<string>;
  ip: string | null;
}

export interface SettingTable {
  key: string;
  /** JSON value. */
  value: string;
  updated_at: string;
}

export interface PasswordResetTokenTable {
  /** SHA-256 of the token mailed to the user. */
  token_hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface MailOutboxTable {
  id: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  reply_to: string | null;
  created_at: string;
  sent_at: string | null;
  error: string | null;
  /** 1 when the body holds a secret (a reset link): it is emptied once the mail has gone. */
  carries_secret: Generated<number>;
  attempts: Generated<number>;
  /** JSON object of extra headers (List-Unsubscribe on mail to a subscriber); null for none. */
  headers: string | null;
  /** Issue 27: JSON list of files sent with the mail (an event's .ics); null for none. */
  attachments: Generated<string | null>;
}

export type NewsletterSubscriberStatus = 'pending' | 'confirmed' | 'unsubscribed';

/** A newsletter address (docs/decisions/505-newsletter.md): waiting, confirmed, or kept only to suppress it. */
export interface NewsletterSubscriberTable {
  id: string;
  email: string;
  source: string | null;
  created_at: string;
  status: Generated<NewsletterSubscriberStatus>;
  confirmed_at: string | null;
  unsubscribed_at: string | null;
  /** SHA-256 of the latest confirmation link's token; null once used, or when none is out. */
  confirm_token_hash: string | null;
  /** When the latest confirmation link was made (it works for 7 days); null: never asked (before 0007). */
  confirm_sent_at: string | null;
  /** The language of the page the subscription was asked on (en, lg, sw): its confirmation is written in it. */
  language: Generated<string>;
}

/** One published item sent to the confirmed subscribers: what was sent, by whom, and how it goes. */
export interface NewsletterSendTable {
  id: string;
  content_id: string;
  subject: string;
  /** JSON: the mail's parts as they were when sending started (the item may change later). */
  snapshot: string;
  status: Generated<'sending' | 'finished' | 'stopped'>;
  recipients: number;
  /** The job that runs the next batch; a batch run by any other job stops at once. */
  batch_job_id: string | null;
  created_by: string;
  created_at: string;
  finished_at: string | null;
}

/** One item to one subscriber: at most one row each, so nobody gets an item twice. */
export interface NewsletterDeliveryTable {
  content_id: string;
  subscriber_id: string;
  send_id: string;
  status: 'queued' | 'sending' | 'sent' | 'failed' | 'skipped';
  attempts: Generated<number>;
  error: string | null;
  updated_at: string;
}

export interface LoginAttemptTable {
  id: string;
  email: string;
  ip: string;
  at: string;
  succeeded: number;
}

export type JobStatus = 'queued' | 'running' | 'done' | 'failed';

/** Work that outlives a request, claimed by one process at a time. */
export interface JobTable {
  id: string;
  kind: string;
  /** JSON. */
  payload: Generated<string>;
  status: Generated<JobStatus>;
  run_at: string;
  attempts: Generated<number>;
  max_attempts: Generated<number>;
  locked_at: string | null;
  locked_by: string | null;
  last_error: string | null;
  created_at: string;
  finished_at: string | null;
}

/** A fixed-window counter shared by every process (sign-in, password reset, public forms). */
export interface RateLimitTable {
  key: string;
  hits: number;
  window_started_at: string;
}

/** Issue 13: an item as one save left it (docs/decisions/016-revisions-and-autosave.md). */
export interface ContentRevisionTable {
  id: string;
  content_id: string;
  /** 1, 2, 3… per item, in the order of its saves; number 1 is never pruned. */
  number: number;
  kind: 'published' | 'updated' | 'draft' | 'scheduled' | 'restored';
  /** null: no person saved it (the scheduled-publishing job, or a save from before history was kept). */
  actor_email: string | null;
  actor_name: string | null;
  /** JSON: RevisionSnapshot (app/lib/revisions.ts). */
  snapshot: string;
  created_at: string;
}

/** Issue 13: a staff member's unsaved form, one row per item (or new item of a type), overwritten. */
export interface ContentAutosaveTable {
  staff_email: string;
  /** The item's id, or new-<collection> for a form that has not been saved yet. */
  slot: string;
  content_id: string | null;
  /** JSON: AutosaveValues (app/lib/revisions.ts). */
  form_values: string;
  saved_at: string;
}

/** Issue 25: one authenticator app per account (decision 026). */
export interface TwoFactorTotpTable {
  user_id: string;
  /** Base32 key shared with the app. */
  secret: string;
  /** null while being set up, until the first code confirms it. */
  confirmed_at: string | null;
  /** The last 30-second step a code was accepted for (no code is accepted twice). */
  last_step: number | string | null;
  created_at: string;
}

export interface TwoFactorRecoveryCodeTable {
  /** SHA-256 of the code as shown (without dashes, lower case). */
  code_hash: string;
  user_id: string;
  used_at: string | null;
  created_at: string;
}

export interface PasskeyTable {
  /** The credential id (base64url). */
  id: string;
  user_id: string;
  name: string;
  /** The credential's public key (base64url of its COSE form). */
  public_key: string;
  counter: Generated<number | string>;
  /** JSON list of transports the authenticator named. */
  transports: Generated<string>;
  created_at: string;
  last_used_at: string | null;
}

/** The pending second step of a sign-in, or a passkey ceremony under way. */
export interface SignInChallengeTable {
  /** SHA-256 of the token held in the browser's cookie. */
  id: string;
  user_id: string | null;
  /** 'second-step' (after a right password), 'passkey-sign-in' or 'passkey-add'. */
  kind: string;
  remember: Generated<number>;
  webauthn_challenge: string | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface RememberedDeviceTable {
  /** SHA-256 of the token held in the device's cookie. */
  id: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  last_used_at: string;
  ip: string | null;
  user_agent: string | null;
}

/** Issue 28: one UTC day's count for one dimension and value (docs/decisions/029). */
export interface AnalyticsDailyTable {
  /** YYYY-MM-DD, UTC. */
  day: string;
  /** 'total', 'path', 'referrer', 'device', 'language', 'save_data', 'utm_source', 'video:25', 'click:rss', 'empty_search' … */
  dimension: string;
  value: string;
  /** The story, news item, resource or service the row is about, when it is about one. */
  item_id: string | null;
  views: Generated<number | string>;
  visits: Generated<number | string>;
  /** Unique visitors, filled in once the day is over (null until then). */
  visitors: number | string | null;
}

/** Issue 28: a finished month's sums of its daily rows (the roll-up job makes them). */
export interface AnalyticsMonthlyTable {
  /** YYYY-MM, UTC. */
  month: string;
  dimension: string;
  value: string;
  item_id: string | null;
  views: Generated<number | string>;
  visits: Generated<number | string>;
  visitors: number | string | null;
}

/** Issue 28: a visitor's daily hash, per scope ('' the site, or an item id); kept at most 48 hours. */
export interface AnalyticsRecentTable {
  day: string;
  visitor: string;
  scope: string;
}

/** Issue 28: the day's random salt, shared by every process; deleted when the day is over. */
export interface AnalyticsSaltTable {
  day: string;
  salt: string;
}

/** Issue 26 item 3: an interface text as staff corrected it (the Translations screen), per language and key. */
export interface InterfaceTextTable {
  language: string;
  key: string;
  text: string;
  /** The English source when the text was written, to tell when the English has changed since. */
  source_text: string;
  updated_by: string | null;
  updated_at: string;
}

export interface Database {
  system_users: SystemUserTable;
  sessions: SessionTable;
  content: ContentTable;
  preview_links: PreviewLinkTable;
  services: ServiceTable;
  service_translations: ServiceTranslationTable;
  event_translations: EventTranslationTable;
  contacts: ContactTable;
  contact_replies: ContactReplyTable;
  media: MediaTable;
  videos: VideoTable;
  audit_log: AuditLogTable;
  settings: SettingTable;
  password_reset_tokens: PasswordResetTokenTable;
  mail_outbox: MailOutboxTable;
  newsletter_subscribers: NewsletterSubscriberTable;
  newsletter_sends: NewsletterSendTable;
  newsletter_deliveries: NewsletterDeliveryTable;
  login_attempts: LoginAttemptTable;
  jobs: JobTable;
  rate_limits: RateLimitTable;
  content_revisions: ContentRevisionTable;
  content_autosaves: ContentAutosaveTable;
  two_factor_totp: TwoFactorTotpTable;
  two_factor_recovery_codes: TwoFactorRecoveryCodeTable;
  passkeys: PasskeyTable;
  sign_in_challenges: SignInChallengeTable;
  remembered_devices: RememberedDeviceTable;
  events: EventTable;
  event_registrations: EventRegistrationTable;
  analytics_daily: AnalyticsDailyTable;
  analytics_monthly: AnalyticsMonthlyTable;
  analytics_recent: AnalyticsRecentTable;
  analytics_salts: AnalyticsSaltTable;
  interface_texts: InterfaceTextTable;
}

// Issue 27: trainings and events (docs/decisions/028-events.md).
export interface EventTable {
  id: string;
  slug: string;
  title: string;
  summary: string;
  /** Sanitised HTML (the content form's allow-list). */
  description: string;
  starts_at: string;
  ends_at: string;
  place: Generated<string>;
  online_url: Generated<string>;
  capacity: number;
  /** Confirmed places; changed only by conditional UPDATEs, never above capacity. */
  taken: Generated<number>;
  next_seq: Generated<number>;
  sign_language: Generated<number>;
  captioning: Generated<number>;
  step_free: Generated<number>;
  image_url: string | null;
  image_alt: string | null;
  registration_open: Generated<number>;
  registration_deadline: string | null;
  status: Generated<'draft' | 'published' | 'cancelled'>;
  demo: Generated<number>;
  author_email: string | null;
  created_at: string;
  updated_at: string;
  updated_by: string | null;
}

export interface EventRegistrationTable {
  id: string;
  event_id: string;
  seq: number;
  name: string;
  email: string | null;
  phone: string | null;
  /** The phone number's digits (lib/events.ts `phoneKey`) when no email was given: one live registration per number. */
  phone_key: string | null;
  access_needs: Generated<string>;
  /** The language of the page it was made on (en, lg, sw): its mails are written in it. */
  language: Generated<string>;
  status: 'confirmed' | 'waiting' | 'cancelled';
  cancel_token_hash: string | null;
  attended: Generated<number>;
  reminded_at: string | null;
  created_at: string;
  updated_at: string;
}
