import { data, Form, useNavigation } from 'react-router';
import { Banner } from '~/components/admin/banner';
import { VersionButtons, VersionHeading, VersionTextField } from '~/components/admin/language-versions';
import { DescriptionField } from '~/components/admin/description-field';
import { EVENT_VERSION_MESSAGES, eventVersionPostSchema, eventVersionSchema } from '~/lib/event-versions';
import { isVersionLanguage, VERSION_NAMES } from '~/lib/versions';
import { EVENT_LIMITS, EVENT_TEXT } from '~/lib/events';
import { can } from '~/lib/permissions';
import { dashboardMeta } from '~/lib/seo';
import { getEventVersion, saveEventVersion } from '~/server/events/event-versions.server';
import { getEventForAdmin } from '~/server/events/events.server';
import { clientIp } from '~/server/http/request-info.server';
import { getStaff } from '~/server/http/staff-context.server';
import { versionFormAction, type VersionFailure } from '~/server/http/version-form.server';
import type { Route } from './+types/event-version';

// Decision 051: an event's version in Luganda or Swahili: its own title, summary and description, and
// a place and picture description where they need words of their own; saved as a draft, published or
// unpublished on its own. A plain form that works without JavaScript (the description is then a
// textarea of HTML, as on the event form).

type Field = 'title' | 'summary' | 'description' | 'place' | 'imageAlt';
type Values = Record<Field, string>;
type Failure = VersionFailure<Field>;
const EMPTY: Values = { title: '', summary: '', description: '', place: '', imageAlt: '' };

export const meta: Route.MetaFunction = ({ loaderData }) =>
  dashboardMeta(loaderData ? `${loaderData.name} version: ${loaderData.englishTitle}` : 'Event version');

export async function loader({ params, context }: Route.LoaderArgs) {
  const actor = getStaff(context);
  if (!can(actor.role, 'events:publish')) throw data({ error: EVENT_VERSION_MESSAGES.forbidden }, { status: 403 });
  const event = await getEventForAdmin(params.id);
  if (!event) throw data({ error: EVENT_TEXT.notFound }, { status: 404 });
  const language = params.language;
  if (!isVersionLanguage(language)) throw data({ error: EVENT_VERSION_MESSAGES.unknownLanguage }, { status: 404 });
  if (event.status === 'cancelled') throw data({ error: EVENT_TEXT.alreadyCancelled }, { status: 403 });
  const version = await getEventVersion(event.id, language);
  return {
    id: event.id,
    slug: event.slug,
    englishTitle: event.title,
    english: { place: event.place, imageAlt: event.imageAlt, hasImage: Boolean(event.imageUrl) },
    eventPublished: event.status === 'published',
    language,
    name: VERSION_NAMES[language],
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
  return versionFormAction({
    request,
    language: params.language,
    postSchema: eventVersionPostSchema,
    wordsSchema: eventVersionSchema,
    empty: EMPTY,
    // The longest description, percent-encoded (a letter such as ŋ is six bytes so), and room for the rest.
    maxBytes: EVENT_LIMITS.description * 6 + 64_000,
    fixErrors: EVENT_TEXT.fixErrors,
    messages: EVENT_VERSION_MESSAGES,
    save: (intent, input, expectedVersion) =>
      saveEventVersion({
        actor: staff,
        eventId: params.id,
        language: params.language,
        intent,
        input,
        expectedVersion,
        ip: clientIp(context),
      }),
    // Back to the event, whose Languages panel says where each version stands.
    savedTo: `/admin/events/${params.id}/edit`,
  });
}

export default function EventVersionPage({ loaderData, actionData }: Route.ComponentProps) {
  const { id, slug, englishTitle, english, eventPublished, language, name, status, version, initial } = loaderData;
  const failure = actionData as Failure | undefined;
  const values = failure ? { ...initial, ...failure.values } : initial;
  const errors = failure?.errors ?? {};
  const saving = useNavigation().state === 'submitting';
  const address = `/${language}/events/${slug}`;
  const line = (
    field: Exclude<Field, 'description'>,
    label: string,
    options: { required?: boolean; note?: string; rows?: number },
  ) => (
    <VersionTextField field={field} label={label} language={language} value={values[field]} error={errors[field]} {...options} />
  );
  return (
    <>
      <VersionHeading backTo={`/admin/events/${id}/edit`} englishTitle={englishTitle} name={name} />
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
        <DescriptionField id="version-description" initialHtml={values.description} error={errors.description} lang={language} />
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
        <VersionButtons status={status} saving={saving} />
      </Form>
    </>
  );
}
