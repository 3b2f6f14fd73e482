import { languageOfPath } from '../../lib/languages.ts';
import type { Kysely } from 'kysely';
import {
  APPLICATION_FORM_TEXT,
  APPLICATION_HONEYPOT,
  APPLICATION_MAX_BODY_BYTES,
  APPLICATION_RATE_LIMIT,
  applicationFormSchema,
  toApplicationInput,
  type ApplicationKind,
  type ApplicationResult,
  type ApplicationValues,
} from '../../lib/applications.ts';
import type { Database } from '../db/schema.ts';
import { receiveApplication } from '../inbox/applications.server.ts';
import { getLogger } from '../platform/logger.server.ts';
import { parseForm } from './forms.server.ts';
import { limitVisitorPost, visitorOverLimit, type FormAnswer, type VisitorRefusal } from './rate-limit.server.ts';

// Issue 27 part 1: the four application forms as posted, checked on the server with the contact
// form's protections (http/contact-form.server.ts): a byte cap counted before the body is parsed, a
// per-address limit (all four forms together), a honeypot, and neutral answers. An application that
// passes is handed to the inbox (inbox/applications.server.ts). Logs never hold the applicant's words.

export type ApplicationSubmission = FormAnswer<ApplicationResult>;

/** A form's action: every outcome is an answer for the visitor, never a thrown error. */
export async function submitApplicationForm(options: {
  kind: ApplicationKind;
  request: Request;
  clientIp: string;
  db?: Kysely<Database>;
}): Promise<ApplicationSubmission> {
  const log = getLogger();
  const { kind } = options;
  // A visitor already over the limit is known before the body is read: not checked, stored or counted again.
  const over = await visitorOverLimit('application', options.clientIp, APPLICATION_RATE_LIMIT);
  const form = await parseForm(options.request, applicationFormSchema(kind), {
    maxBytes: APPLICATION_MAX_BODY_BYTES,
    tooLargeMessage: APPLICATION_FORM_TEXT.tooLarge,
    requireLength: false,
  });
  if (!form.ok && form.refused) {
    if (form.status === 413) {
      log.warn({ form: 'application', kind }, 'application refused: too large');
      return {
        status: 413,
        result: { status: 'refused', message: APPLICATION_FORM_TEXT.tooLarge, values: {} },
        headers: form.headers,
      };
    }
    return {
      status: 400,
      result: { status: 'failed', message: APPLICATION_FORM_TEXT.failed, values: {} },
      headers: form.headers,
    };
  }

  // What the form shows again: as posted, or once checked (trimmed); the honeypot never comes back.
  const values: ApplicationValues = {};
  for (const [name, value] of Object.entries(form.values as Record<string, unknown>))
    if (typeof value === 'string' && name !== APPLICATION_HONEYPOT) values[name] = value;
  const limitAnswer = (limited: VisitorRefusal): ApplicationSubmission => ({
    ...limited,
    result:
      limited.status === 429
        ? { status: 'refused', message: APPLICATION_FORM_TEXT.rateLimited, values }
        : { status: 'failed', message: APPLICATION_FORM_TEXT.failed, values },
  });
  if (over) return limitAnswer(over);

  const honeypot = (form.values as Record<string, unknown>)[APPLICATION_HONEYPOT];
  if (typeof honeypot !== 'string' || honeypot.trim() !== '') {
    log.warn({ form: 'application', kind }, 'application refused: honeypot filled');
    return { status: 400, result: { status: 'refused', message: APPLICATION_FORM_TEXT.automated, values } };
  }

  if (!form.ok)
    return {
      status: 400,
      result: { status: 'invalid', message: APPLICATION_FORM_TEXT.invalid, errors: form.fieldErrors, values },
    };

  const limited = await limitVisitorPost('application', options.clientIp, APPLICATION_RATE_LIMIT);
  if (limited) return limitAnswer(limited);

  try {
    // In the page's language: the applicant's confirmation is written in it.
    const language = languageOfPath(new URL(options.request.url).pathname);
    await receiveApplication(toApplicationInput(kind, form.values as Record<string, string | undefined>), options.db, language);
  } catch (error) {
    log.error({ err: error, form: 'application', kind }, 'application could not be stored');
    return { status: 503, result: { status: 'failed', message: APPLICATION_FORM_TEXT.failed, values } };
  }
  return { status: 200, result: { status: 'sent' } };
}
