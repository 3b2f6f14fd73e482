import { data } from 'react-router';
import { z } from 'zod';
import { getStaff } from '~/server/http/staff-context.server';
import { optionalFile } from '~/lib/forms';
import { parseForm } from '~/server/http/forms.server';
import { discardBody, clientIp } from '~/server/http/request-info.server';
import { RuleError } from '~/server/platform/rule-error.server';
import { getLogger } from '~/server/platform/logger.server';
import { storeUploadedImage, UploadRefusedError } from '~/server/media/uploads.server';
import { findFounderStoryPath, getFounderProfile } from '~/server/site/founder.server';
import {
  assertMayChangeGroup,
  loadSettingsView,
  saveSiteSettings,
  SettingsConflictError,
} from '~/server/site/site-settings.server';
import { can } from '~/lib/permissions';
import {
  FIELD_SPECS,
  GROUP_SPECS,
  groupSchema,
  isSettingGroup,
  RICH_HTML_MAX_BYTES,
  savedMessage,
  SETTINGS_MESSAGES,
  type SettingField,
  type SettingGroup,
  type SettingsAnswer,
} from '~/lib/site-settings';

/** How many characters past a field's limit a refused form shows back. */
const ECHO_MARGIN = 1_000;
import { CONTENT_IMAGE_MAX_BYTES, CONTENT_UPLOAD_MESSAGES } from '~/lib/uploads';
import { SettingsPage, type SettingsPageProps } from '~/components/admin/settings-page';
import type { Route } from './+types/settings';
import { dashboardMeta } from '~/lib/seo';

// Issue 11, Site settings: every group of the page is its own form posting here with ?group=…, with
// or without JavaScript. Who may save what is the service's rule (site-settings.server.ts): texts for
// Admins and the Super Admin, contact details and links for the Super Admin only.

export async function loader({ context }: Route.LoaderArgs) {
  const actor = getStaff(context);
  const [groups, founder] = await Promise.all([loadSettingsView(actor), getFounderProfile()]);
  // Where "Read the story" leads while no link is chosen, for the hint beside that field.
  const storyAuto = await findFounderStoryPath({ email: founder.email });
  const page: Omit<SettingsPageProps, 'answer'> = { groups, storyAuto, canEditLinks: can(actor.role, 'settings:links') };
  return { page };
}

/** The most one group's post may be: a policy text, or the founder's photo sent without JavaScript. */
function maxBytesOf(group: SettingGroup): number {
  if (GROUP_SPECS[group].multipart) return CONTENT_IMAGE_MAX_BYTES + 64_000;
  return GROUP_SPECS[group].fields.some(
    (field) => field === 'privacyText' || field === 'termsText' || field === 'accessibilityText',
  )
    ? RICH_HTML_MAX_BYTES + 16_000
    : 64_000;
}

const EXTRA = {
  version: z.string().max(64).optional(),
  founderPhotoFile: optionalFile,
  founderPhotoRemove: z.string().max(10).optional(),
};

function answer(group: SettingGroup | null, status: number, fields: Omit<SettingsAnswer, 'group'>) {
  return data({ ...fields, group } satisfies SettingsAnswer, { status });
}

export async function action({ request, context }: Route.ActionArgs) {
  const actor = getStaff(context);
  const group = new URL(request.url).searchParams.get('group');
  if (!isSettingGroup(group)) {
    await discardBody(request);
    return answer(null, 400, {
      ok: false,
      message: SETTINGS_MESSAGES.unknownGroup,
      errors: { form: SETTINGS_MESSAGES.unknownGroup },
      values: {},
    });
  }
  try {
    // A group this person may not change is refused before its form is read (even one made by hand).
    assertMayChangeGroup(actor, group);
  } catch (error) {
    if (!(error instanceof RuleError)) throw error;
    await discardBody(request);
    return answer(group, error.status, { ok: false, message: error.message, errors: { form: error.message }, values: {} });
  }

  const form = await parseForm(request, groupSchema(group, EXTRA), {
    maxBytes: maxBytesOf(group),
    tooLargeMessage: SETTINGS_MESSAGES.failed,
  });
  if (!form.ok && form.refused)
    return data(
      { ok: false, group, message: form.formError, errors: { form: form.formError }, values: {} } satisfies SettingsAnswer,
      { status: form.status, headers: form.headers },
    );
  const posted: Partial<Record<SettingField, string>> = {};
  for (const field of GROUP_SPECS[group].fields) {
    const value = form.values[field];
    // A refused form shows the text back, but no more of it than could be saved and then some: a
    // megabyte pasted into one field is not rendered (and escaped) twice into the answer.
    if (value !== undefined) posted[field] = String(value).slice(0, FIELD_SPECS[field].max + ECHO_MARGIN);
  }

  // The founder's photo sent with the form (no JavaScript) is stored first, even when another field
  // is wrong, so the form comes back showing it and the retry need not choose it again.
  const file = form.ok ? form.values.founderPhotoFile : form.files.founderPhotoFile;
  const remove = form.values.founderPhotoRemove === 'on';
  let photo: string | undefined;
  if (group === 'founder' && file) {
    try {
      photo = await storeUploadedImage(file, {
        folder: 'site',
        maxBytes: CONTENT_IMAGE_MAX_BYTES,
        messages: CONTENT_UPLOAD_MESSAGES,
        uploadedBy: actor.email,
      });
      posted.founderPhoto = photo;
    } catch (error) {
      if (!(error instanceof UploadRefusedError)) throw error;
      const errors = { ...(form.ok ? {} : form.fieldErrors), founderPhoto: error.message };
      return answer(group, error.status === 500 ? 500 : 400, {
        ok: false,
        message: SETTINGS_MESSAGES.fixErrors,
        errors,
        values: posted,
      });
    }
  } else if (group === 'founder' && remove) posted.founderPhoto = '';

  if (!form.ok)
    return answer(group, 400, { ok: false, message: SETTINGS_MESSAGES.fixErrors, errors: form.fieldErrors, values: posted });

  const values = { ...form.values };
  if (photo !== undefined) values.founderPhoto = photo;
  else if (group === 'founder' && remove) values.founderPhoto = '';
  try {
    const saved = await saveSiteSettings(actor, group, values, {
      version: form.values.version || undefined,
      ip: clientIp(context),
    });
    const message = saved.changed.length > 0 ? savedMessage(group) : SETTINGS_MESSAGES.nothingChanged;
    return answer(group, 200, { ok: true, message, errors: {}, values: {}, version: saved.version });
  } catch (error) {
    if (!(error instanceof RuleError)) {
      getLogger().error({ err: error, group }, 'saving site settings failed');
      return answer(group, 500, {
        ok: false,
        message: SETTINGS_MESSAGES.failed,
        errors: { form: SETTINGS_MESSAGES.failed },
        values: posted,
      });
    }
    const errors = { form: error.message, ...(error.field ? { [error.field]: error.message } : {}) };
    return answer(group, error.status, {
      ok: false,
      message: error.message,
      errors,
      values: posted,
      ...(error instanceof SettingsConflictError ? { version: error.version } : {}),
    });
  }
}

/** With JavaScript each group saves through a fetcher; a lost connection becomes a message in its form. */
export async function clientAction({ serverAction, request }: Route.ClientActionArgs) {
  try {
    return await serverAction();
  } catch (error) {
    if (error instanceof Response) throw error;
    const group = new URL(request.url).searchParams.get('group');
    return {
      ok: false,
      group: isSettingGroup(group) ? group : null,
      message: 'Please check your internet connection and try again.',
      errors: {},
      values: {},
    } satisfies SettingsAnswer;
  }
}

export const meta: Route.MetaFunction = () => dashboardMeta('Site settings');

export default function Settings({ loaderData, actionData }: Route.ComponentProps) {
  return <SettingsPage {...loaderData.page} answer={actionData} />;
}
