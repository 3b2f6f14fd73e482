import { languageOfPath } from '../../lib/languages.ts';
import { z } from 'zod';
import {
  EVENT_FORM_FIELDS,
  EVENT_FORM_MAX_BYTES,
  EVENT_TEXT,
  eventFormSchema,
  HONEYPOT,
  REGISTRATION_FIELDS,
  REGISTRATION_MAX_BODY_BYTES,
  REGISTRATION_RATE_LIMIT,
  registrationSchema,
  type AdminEvent,
  type EventErrors,
  type EventFormFailure,
  type EventFormShown,
  type RegistrationErrors,
  type RegistrationResult,
  type RegistrationValues,
} from '../../lib/events.ts';
import { optionalFile } from '../../lib/forms.ts';
import { CONTENT_IMAGE_MAX_BYTES, CONTENT_UPLOAD_MESSAGES } from '../../lib/uploads.ts';
import {
  createEvent,
  eventColumns,
  EventRuleError,
  getEventForAdmin,
  readEventTimeZone,
  updateEvent,
} from '../events/events.server.ts';
import {
  EventNotListedError,
  fillFreedPlaces,
  RegistrationClosedError,
  registerForEvent,
} from '../events/registrations.server.ts';
import { isStoredImage } from '../media/media.server.ts';
import { storeUploadedImage, UploadRefusedError } from '../media/uploads.server.ts';
import { getLogger } from '../platform/logger.server.ts';
import type { StaffUser } from '../staff/auth.server.ts';
import { parseForm } from './forms.server.ts';
import { limitVisitorPost, visitorOverLimit, type FormAnswer, type VisitorRefusal } from './rate-limit.server.ts';

// Issue 27: the event forms' HTTP half. The public registration form has the contact form's
// protections (http/contact-form.server.ts): a per-address limit counted in the database, a byte cap
// counted as the body streams in, a honeypot, neutral errors, and logs without the person's details.
// The staff form reads the post (with a picture sent without JavaScript) and hands it to the save.

const registrationFormSchema = registrationSchema.safeExtend({ [HONEYPOT]: z.string().optional() });
const EMPTY: RegistrationValues = { name: '', email: '', phone: '', accessNeeds: '' };

/** The registration form's action: every outcome is an answer for the visitor, never a thrown error. */
export async function submitRegistration(options: {
  request: Request;
  clientIp: string;
  slug: string;
}): Promise<FormAnswer<RegistrationResult>> {
  const log = getLogger();
  const over = await visitorOverLimit('event', options.clientIp, REGISTRATION_RATE_LIMIT);
  const form = await parseForm(options.request, registrationFormSchema, {
    maxBytes: REGISTRATION_MAX_BODY_BYTES,
    tooLargeMessage: EVENT_TEXT.tooLarge,
    requireLength: false,
  });
  if (!form.ok && form.refused) {
    const tooLarge = form.status === 413;
    return {
      status: tooLarge ? 413 : 400,
      result: {
        status: tooLarge ? 'refused' : 'failed',
        message: tooLarge ? EVENT_TEXT.tooLarge : EVENT_TEXT.failed,
        values: EMPTY,
      },
      headers: form.headers,
    };
  }
  const values = { ...EMPTY };
  for (const field of REGISTRATION_FIELDS) values[field] = (form.values[field] ?? '').slice(0, 4_000);
  const limitAnswer = (limited: VisitorRefusal): FormAnswer<RegistrationResult> => ({
    ...limited,
    result:
      limited.status === 429
        ? { status: 'refused', message: EVENT_TEXT.rateLimited, values }
        : { status: 'failed', message: EVENT_TEXT.failed, values },
  });
  if (over) return limitAnswer(over);
  const honeypot = form.values[HONEYPOT];
  if (honeypot === undefined || honeypot.trim() !== '') {
    log.warn({ form: 'event' }, 'event registration refused: honeypot filled');
    return { status: 400, result: { status: 'refused', message: EVENT_TEXT.automated, values } };
  }
  if (!form.ok) {
    const errors: RegistrationErrors = form.fieldErrors;
    return { status: 400, result: { status: 'invalid', message: EVENT_TEXT.invalid, errors, values } };
  }
  const limited = await limitVisitorPost('event', options.clientIp, REGISTRATION_RATE_LIMIT);
  if (limited) return limitAnswer(limited);
  const { [HONEYPOT]: _, ...input } = form.values;
  try {
    // In the page's language: the mails about it, and the links in them and on the page, are in it.
    const language = languageOfPath(new URL(options.request.url).pathname);
    const outcome = await registerForEvent(options.slug, { ...input, language });
    return {
      status: 200,
      result: {
        status: 'registered',
        place: outcome.place,
        name: input.name,
        mailed: outcome.mailed,
        cancelUrl: outcome.cancelUrl,
        phoneAgain: outcome.phoneAgain,
      },
    };
  } catch (error) {
    if (error instanceof RegistrationClosedError)
      return {
        status: error instanceof EventNotListedError ? 404 : 409,
        result: { status: 'closed', message: EVENT_TEXT.closed, values },
      };
    log.error({ err: error, form: 'event' }, 'event registration could not be stored');
    return { status: 503, result: { status: 'failed', message: EVENT_TEXT.failed, values } };
  }
}

// ---------------------------------------------------------------------------------------------

const EVENT_POST_SCHEMA = eventFormSchema.safeExtend({ imageFile: optionalFile });

export type EventFormResult =
  /** `madePublic`: this save put the event on the public site (a new event published, or a draft). */
  | { ok: true; event: AdminEvent; madePublic: boolean }
  | { ok: false; status: 400 | 403 | 404 | 411 | 413 | 415 | 500; failure: EventFormFailure; headers: Record<string, string> };

const SHOWN_MAX = 60_000;

function shownValues(values: Record<string, unknown>): EventFormShown {
  const shown: EventFormShown = {};
  for (const field of EVENT_FORM_FIELDS) {
    const value = values[field];
    shown[field] = typeof value === 'string' ? value.slice(0, SHOWN_MAX) : typeof value === 'number' ? String(value) : '';
  }
  for (const box of ['signLanguage', 'captioning', 'stepFree', 'registrationOpen'] as const) {
    const value = values[box];
    shown[box] = value === true || value === 'on';
  }
  return shown;
}

/** The Add event / Edit event form, with or without JavaScript, in one call. */
export async function saveEventForm(
  request: Request,
  actor: StaffUser,
  target: { mode: 'create' } | { mode: 'edit'; id: string },
  ip: string,
): Promise<EventFormResult> {
  const form = await parseForm(request, EVENT_POST_SCHEMA, {
    maxBytes: EVENT_FORM_MAX_BYTES,
    tooLargeMessage: CONTENT_UPLOAD_MESSAGES.size,
  });
  const values = shownValues(form.values as Record<string, unknown>);
  const failure = (
    status: Exclude<EventFormResult, { ok: true }>['status'],
    message: string,
    errors: EventErrors = {},
    headers: Record<string, string> = {},
  ): EventFormResult => ({
    ok: false,
    status,
    failure: { ok: false, message, errors: { ...errors, form: message }, values },
    headers,
  });
  if (!form.ok && form.refused)
    return failure(form.status, form.formError, form.status === 413 ? { imageUrl: form.formError } : {}, form.headers);

  const file = form.ok ? form.values.imageFile : form.files.imageFile;
  if (file) {
    try {
      values.imageUrl = await storeUploadedImage(file, {
        folder: 'events',
        maxBytes: CONTENT_IMAGE_MAX_BYTES,
        messages: CONTENT_UPLOAD_MESSAGES,
        uploadedBy: actor.email,
      });
    } catch (error) {
      if (!(error instanceof UploadRefusedError)) throw error;
      return failure(error.status === 500 ? 500 : 400, error.message, { imageUrl: error.message });
    }
  }
  if (!form.ok) return failure(400, EVENT_TEXT.fixErrors, form.fieldErrors as EventErrors);
  const { imageFile: _, ...input } = form.values;
  if (file && values.imageUrl) input.imageUrl = values.imageUrl;

  const existing = target.mode === 'edit' ? await getEventForAdmin(target.id) : undefined;
  if (target.mode === 'edit' && !existing) return failure(404, EVENT_TEXT.notFound);
  if (input.imageUrl && !file && input.imageUrl !== existing?.imageUrl && !(await isStoredImage(input.imageUrl)))
    return failure(400, EVENT_TEXT.fixErrors, { imageUrl: EVENT_TEXT.imageInvalid });
  const columns = eventColumns(input, await readEventTimeZone());
  if (!columns.ok) return failure(400, EVENT_TEXT.fixErrors, columns.errors);
  try {
    const event =
      target.mode === 'create'
        ? await createEvent(actor, columns.columns, input.intent, ip)
        : await updateEvent(actor, target.id, columns.columns, input.intent, ip);
    // More places than before: the first waiting take them now.
    if (existing && event.capacity > existing.capacity) await fillFreedPlaces(event.id);
    return { ok: true, event, madePublic: event.status === 'published' && existing?.status !== 'published' };
  } catch (error) {
    if (error instanceof EventRuleError)
      return failure(
        error.status as 400 | 403 | 404,
        error.status === 400 ? EVENT_TEXT.fixErrors : error.message,
        error.field ? { [error.field]: error.message } : {},
      );
    getLogger().error({ err: error }, 'saving an event failed');
    return failure(500, EVENT_TEXT.saveFailed);
  }
}
