// spec §3 Service, shared by the server and the browser. The four built-in services' words live on
// the server (app/server/site/site-defaults.server.ts), which only the server's pages need
// (docs/decisions/303).

import type { SignLanguageMarkup } from './video.ts';
import type { VideoFormState } from './video-upload.ts';

export interface Service {
  id: string;
  title: string;
  description: string;
  features: string[];
  imageUrl: string | null;
  imageAlt: string;
  /** Issue 14: it has a sign-language video visitors can watch (the list shows a badge). */
  signLanguage?: boolean;
  /** Issue 26: its easy-read text ('' or absent for none). */
  easyRead?: string;
  /** Issue 26: the language its words are in on a page in another language ('en' when not translated). */
  textLanguage?: string;
}

/** A service as its own page (/services/{id}) shows it. */
export interface ServiceView extends Service {
  /** Issue 14: its sign-language video, once processed and captioned; null otherwise. */
  video: SignLanguageMarkup | null;
}

/** spec §3: the built-in services used when none are stored, in this order. */
export const DEFAULT_SERVICE_IDS = ['digital-skills', 'inclusion-talks', 'comm-services', 'merchandise'] as const;
export type DefaultServiceId = (typeof DEFAULT_SERVICE_IDS)[number];

/** The built-in services' pictures are static files, so they show even with an empty media folder. */
export function defaultServiceImage(id: string): string {
  return `/images/services/${id}.svg`;
}

/** spec §3: a service in the list shows its first three features; the detail page shows them all. */
export const FEATURES_SHOWN = 3;

/** spec §8. */
export const SERVICES_ERROR = 'Unable to load services. Please try again later.';

export const SERVICE_NOT_FOUND = 'Service not found';

/** The contact form, opened with this service as the subject. */
export function serviceContactHref(service: Pick<Service, 'title'>): string {
  return `/contact?subject=${encodeURIComponent(service.title)}`;
}

// ---------------------------------------------------------------------------------------------
// The dashboard's Services screens (issue 11): the form's rules and messages, shared by the browser
// (instant feedback) and the server (which checks again). docs/decisions/503-services-admin.md

export const SERVICE_TITLE_MAX = 100;
export const SERVICE_DESCRIPTION_MAX = 1_000;
export const SERVICE_FEATURES_MAX = 12;
export const SERVICE_FEATURE_MAX = 160;
export const SERVICE_ALT_MAX = 200;
/** Twelve full lines with generous spacing; a longer field cannot be valid, so it is refused before it is split. */
export const SERVICE_FEATURES_INPUT_MAX = 2_500;
/** Our upload addresses are about 60 characters; checked before the pattern runs. */
export const SERVICE_IMAGE_URL_MAX = 300;

export const SERVICE_MESSAGES = {
  fixErrors: 'Please fix the errors below before submitting.',
  titleRequired: 'Title is required',
  titleTooLong: 'Title must be less than 100 characters',
  descriptionRequired: 'Description is required',
  descriptionTooLong: 'Description must be at most 1,000 characters',
  tooManyFeatures: 'Please list at most 12 features, one per line',
  featureTooLong: 'Each feature must be at most 160 characters',
  altRequired: 'Image description is required when there is an image',
  altTooLong: 'The image description must be at most 200 characters',
  imageInvalid: 'Please upload the image again.',
  notFound: 'Service not found',
  forbidden: 'You do not have permission to perform this action.',
  saveFailed: 'The service could not be saved. Please try again or contact support if the problem persists.',
  deleteFailed: (reason: string) => `Error deleting service: ${reason}`,
  moveFailed: 'The service could not be moved. Please try again.',
  alreadyFirst: (title: string) => `"${title}" is already first.`,
  alreadyLast: (title: string) => `"${title}" is already last.`,
  empty: 'No services are stored. The website shows the four built-in services until you add one.',
} as const;

/** spec §8's manner: 'Service "{title}" created successfully!'. */
export const serviceCreated = (title: string) => `Service "${title}" created successfully!`;
export const serviceUpdated = (title: string) => `Service "${title}" updated successfully!`;
export const serviceDeleted = (title: string) => `Service "${title}" deleted successfully!`;
export const serviceMoved = (title: string, position: number, count: number) =>
  `"${title}" moved to position ${position} of ${count}.`;

/** spec §5: delete confirmations name the item and say 'This action cannot be undone.' */
export function serviceDeleteQuestion(title: string, last: boolean): string {
  const fallback = last ? ' It is the last service: the website will show the four built-in services until you add one.' : '';
  return `Are you sure you want to delete "${title}"?${fallback} This action cannot be undone.`;
}

/** One feature per line: trimmed, blank lines dropped. */
export function parseFeatures(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
}

export const SERVICE_FIELDS = ['title', 'description', 'features', 'imageUrl', 'imageAlt', 'easyRead'] as const;
export type ServiceField = (typeof SERVICE_FIELDS)[number];
/** Issue 14: the sign-language video's fields (its file chooser, captions and transcript). */
export type ServiceVideoField = 'video' | 'captions' | 'transcript';
export type ServiceErrors = Partial<Record<ServiceField | ServiceVideoField | 'form', string>>;

/** What the service form's action answers on a failure (a success redirects to the list). */
export interface ServiceFormFailure {
  ok: false;
  message: string;
  errors: ServiceErrors;
  values: Partial<Record<ServiceField, string>>;
  /**
   * Issue 14: the video the post named, to show again (null: none, or not one the poster may see),
   * and the transcript as typed. Absent when the post had no video field.
   */
  video?: { state: VideoFormState | null; transcript: string };
}

/** A service as the dashboard lists it. */
export interface AdminService extends Service {
  position: number;
  demo: boolean;
  updatedAt: string;
  /** Issue 14: its sign-language video (videos.id), or null. */
  videoId: string | null;
}

/** A service id as the site makes them: a slug of the title. Anything else cannot exist. */
export function isServiceId(value: string): boolean {
  return /^[A-Za-z0-9_-]{1,100}$/.test(value);
}
