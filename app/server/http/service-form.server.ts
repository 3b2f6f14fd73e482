import type { RouterContextProvider } from 'react-router';
import { parseForm } from './forms.server.ts';
import { clientIp } from './request-info.server.ts';
import {
  SERVICE_FORM_MAX_BYTES,
  SERVICE_POST_SCHEMA,
  saveServicePost,
  serviceFormFailure,
  shownServiceValues,
  type ServiceFormResult,
} from '../content/services.server.ts';
import type { StaffUser } from '../staff/auth.server.ts';
import { CONTENT_UPLOAD_MESSAGES } from '../../lib/uploads.ts';

/**
 * The service form's HTTP half: reads the post within its limit (411/413/415 answered here, a 413
 * against the picture, the largest part) and hands it to the one save (app/server/content/services.server.ts).
 */
export async function saveServiceForm(
  request: Request,
  context: Readonly<RouterContextProvider>,
  actor: StaffUser,
  target: { mode: 'create' } | { mode: 'edit'; id: string },
): Promise<ServiceFormResult> {
  const form = await parseForm(request, SERVICE_POST_SCHEMA, {
    maxBytes: SERVICE_FORM_MAX_BYTES,
    tooLargeMessage: CONTENT_UPLOAD_MESSAGES.size,
  });
  if (!form.ok && form.refused)
    return serviceFormFailure(
      form.status,
      form.formError,
      shownServiceValues(form),
      form.status === 413 ? { imageUrl: form.formError } : {},
      form.headers,
    );
  return saveServicePost(form, actor, target, clientIp(context));
}
