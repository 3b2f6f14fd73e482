import { data, Form, Link, redirect, useNavigation } from 'react-router';
import { Banner } from '~/components/admin/banner';
import { Field, FieldError, inputClass, primaryButton } from '~/components/admin/form';
import { RichTextEditor } from '~/components/admin/rich-text-editor.client';
import {
  EVENT_VERSION_MESSAGES,
  EVENT_VERSION_NAMES,
  eventVersionPostSchema,
  eventVersionSchema,
  isEventVersionLanguage,
  type EventVersionInput,
} from '~/lib/event-versions';
import { EVENT_LIMITS, EVENT_TEXT } from '~/lib/events';
import { checkFormSync } from '~/lib/forms';
import { can } from '~/lib/permissions';
import { dashboardMeta } from '~/lib/seo';
import { useHydrated } from '~/lib/use-hydrated';
import { getEventVersion, saveEventVersion } from '~/server/events/event-versions.server';
import { EventRuleError, getEventForAdmin } from '~/server/events/events.server';
import { flashCookie } from '~/server/http/flash.server';
import { formRefusal, parseForm } from '~/server/http/forms.server';
import { clientIp } from '~/server/http/request-info.server';
import { getStaff } from '~/server/http/staff-context.server';
import type { Route } from './+types/event-version';

// Decision 051: an event's version in Luganda or Swahili: its own title, summary and description, and
// a place and picture description where they need words of their own; saved as a draft, published or
// unpublished on its own. A plain form that works without JavaScript (the description is then a
// textarea of HTML, as on the event form).

type Field = 'title' | 'summary' | 'description' | 'place' | 'imageAlt';
type Values = Record<Field, string>;
interface Failure {
  ok: false;
  message: string;
  errors: Partial<Record<Field, string>>;
  values: Values;
}
const EMPTY: Values = { title: '', summary: '', description: '', place: '', imageAlt: '' };

export const meta: Route.MetaFunction = ({ loaderData }) =>
  dashboardMeta(loaderData ? `${loaderData.name} version: ${loaderData.englishTitle}` : 'Event version');

export async function loader({ params, context }: Route.LoaderArgs) {
  const actor = getStaff(context);
  if (!can(actor.role, 'events:publish')) throw data({ error: EVENT_VERSION_MESSAGES.forbidden }, { status: 403 });
  const event = await getEventForAdmin(params.id);
  if (!event) throw data({ error: EVENT_TEXT.notFound }, { status: 404 });
  const language = params.language;
  if (!isEventVersionLanguage(language)) throw data({ error: EVENT_VERSION_MESSAGES.unknownLanguage }, { status: 404 });
  if (event.status === 'cancelled') throw data({ error: EVENT_TEXT.alreadyCancelled }, { status: 403 });
  const version = await getEventVersion(event.id, language);
  return {
    id: event.id,
    slug: event.slug,
    englishTitle: event.title,
    english: { place: event.place, imageAlt: event.imageAlt, hasImage: Boolean(event.imageUrl) },
    eventPublished: event.status === 'published',
    language,
    name: EVENT_VERSION_NAMES[language],
    status: version?.status ?? null,
    version: version?.version ?? null,
    initial: version
      ? {
          title: version.title,
          summary: version.summary,
          description: version.description,
          place: version.place,
          imageAlt: version.imageAlt,
        }
      : EMPTY,
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const staff = getStaff(context);
  const form = await parseForm(request, eventVersionPostSchema, { maxBytes: EVENT_LIMITS.description * 2 });
  if (!form.ok && form.refused) return formRefusal(form);
  if (!form.ok) {
    const values = { ...EMPTY, ...form.values } as Values;
    return data({ ok: false, message: EVENT_TEXT.fixErrors, errors: {}, values } satisfies Failure, { status: 400 });
  }
  const { intent, version, ...posted } = form.values;
  const failure = (status: number, message: string, errors: Failure['errors'] = {}) =>
    data({ ok: false, message, errors, values: posted } satisfies Failure, { status });
  let input: EventVersionInput | undefined;
  if (intent !== 'unpublish') {
    const checked = checkFormSync(eventVersionSchema, posted);
    if (!checked.ok) return failure(400, EVENT_TEXT.fixErrors, checked.fieldErrors as Failure['errors']);
    input = checked.values;
  }
  const name = isEventVersionLanguage(params.language) ? EVENT_VERSION_NAMES[params.language] : '';
  try {
    await saveEventVersion({
      actor: staff,
      eventId: params.id,
      language: params.language,
      intent,
      input,
      expectedVersion: /^\d{1,9}$/.test(version ?? '') ? Number(version) : undefined,
      ip: clientIp(context),
    });
  } catch (error) {
    if (error instanceof EventRuleError)
      return failure(
        error.status,
        error.field ? EVENT_TEXT.fixErrors : error.message,
        error.field ? { [error.field]: error.message } : {},
      );
    throw error;
  }
  const message =
    intent === 'publish'
      ? EVENT_VERSION_MESSAGES.published(name)
      : intent === 'unpublish'
        ? EVENT_VERSION_MESSAGES.unpublished(name)
        : EVENT_VERSION_MESSAGES.saved(name);
  // Back to the event, whose Languages panel says where each version stands.
  return redirect(`/admin/events/${params.id}/edit`, {
    status: 303,
    headers: { 'Set-Cookie': flashCookie({ type: 'success', message, toast: true }) },
  });
}

export default function EventVersionPage({ loaderData, actionData }: Route.ComponentProps) {
  const { id, slug, englishTitle, english, eventPublished, language, name, status, version, initial } = loaderData;
  const failure = actionData as Failure | undefined;
  const values = failure ? { ...initial, ...failure.values } : initial;
  const errors = failure?.errors ?? {};
  const saving = useNavigation().state === 'submitting';
  const hydrated = useHydrated();
  const address = `/${language}/events/${slug}`;
  const line = (
    field: Exclude<Field, 'description'>,
    label: string,
    options: { required?: boolean; note?: string; rows?: number },
  ) => (
    <Field id={`version-${field}`} label={label} required={options.required} error={errors[field]} note={options.note}>
      {(control) =>
        options.rows ? (
          <textarea
            {...control}
            name={field}
            rows={options.rows}
            lang={language}
            defaultValue={values[field]}
            className={inputClass(Boolean(errors[field]))}
          />
        ) : (
          <input
            {...control}
            name={field}
            lang={language}
            defaultValue={values[field]}
            className={inputClass(Boolean(errors[field]))}
          />
        )
      }
    </Field>
  );
  return (
    <>
      <p className="mb-2">
        <Link to={`/admin/events/${id}/edit`} className="font-semibold text-indigo-800 underline underline-offset-4">
          Back to {englishTitle}
        </Link>
      </p>
      <h1 className="mb-1 text-2xl font-bold break-words text-slate-900">
        {name} version: {englishTitle}
      </h1>
      <p className="mb-6 text-slate-700">
        {!eventPublished
          ? `The event is a draft: its versions show once it is published.${status === 'published' ? ` This version will then show at ${address}.` : ''}`
          : status === 'published'
            ? `Published: ${address} shows it, and registrants who chose ${name} get their mails in it.`
            : status === 'draft'
              ? `Draft: not on the website. ${address} shows the English text until it is published.`
              : `No ${name} version yet. ${address} shows the English text.`}{' '}
        The times, places, access and registrations are the event's own.
      </p>
      <Form
        method="post"
        noValidate
        className="max-w-4xl space-y-6 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm md:p-8"
      >
        {failure && <Banner key={failure.message} type="error" message={failure.message} autoClose={false} />}
        {line('title', 'Title', { required: true })}
        {line('summary', 'Summary', { required: true, rows: 3, note: 'One or two sentences for the list and search engines.' })}
        <div>
          <p id="version-description-label" className="font-medium text-slate-900">
            Description <span aria-hidden="true">*</span>
          </p>
          {hydrated ? (
            <RichTextEditor
              id="version-description"
              name="description"
              initialHtml={values.description}
              invalid={Boolean(errors.description)}
              describedBy={errors.description ? 'version-description-error' : undefined}
              onChange={() => undefined}
            />
          ) : (
            <textarea
              id="version-description"
              name="description"
              rows={10}
              lang={language}
              defaultValue={values.description}
              aria-labelledby="version-description-label"
              aria-describedby={errors.description ? 'version-description-error' : undefined}
              className={inputClass(Boolean(errors.description))}
            />
          )}
          <FieldError id="version-description-error" message={errors.description} />
        </div>
        {english.place &&
          line('place', 'Place', {
            note: `Leave empty to show the event's own: "${english.place}".`,
          })}
        {english.hasImage &&
          line('imageAlt', 'Picture description', {
            note: `What the picture shows, for people who cannot see it. Leave empty to use the English one: "${english.imageAlt}".`,
          })}
        {!english.place && <input type="hidden" name="place" value={values.place} />}
        {!english.hasImage && <input type="hidden" name="imageAlt" value={values.imageAlt} />}
        {version !== null && <input type="hidden" name="version" value={version} />}
        <div className="flex flex-wrap gap-3">
          <button type="submit" name="intent" value="publish" disabled={saving} className={primaryButton}>
            {status === 'published' ? 'Update' : 'Publish'}
          </button>
          <button
            type="submit"
            name="intent"
            value="draft"
            disabled={saving}
            className="rounded-lg border-2 border-indigo-800 bg-white px-5 py-2 font-semibold text-indigo-900 hover:bg-indigo-50"
          >
            Save draft
          </button>
          {status === 'published' && (
            <button
              type="submit"
              name="intent"
              value="unpublish"
              disabled={saving}
              className="rounded-lg border-2 border-slate-400 bg-white px-5 py-2 font-semibold text-slate-800 hover:bg-slate-100"
            >
              Unpublish
            </button>
          )}
        </div>
      </Form>
    </>
  );
}
