import { data, Form, useNavigation } from 'react-router';
import { Banner } from '~/components/admin/banner';
import { VersionButtons, VersionHeading, VersionTextField } from '~/components/admin/language-versions';
import { EasyReadField } from '~/components/admin/easy-read-field';
import { SERVICE_DESCRIPTION_MAX, SERVICE_FEATURES_INPUT_MAX, SERVICE_MESSAGES, SERVICE_TITLE_MAX } from '~/lib/services';
import { EASY_READ_MAX_CHARS } from '~/lib/easy-read';
import { SERVICE_VERSION_MESSAGES, serviceVersionPostSchema, serviceVersionSchema } from '~/lib/service-versions';
import { isVersionLanguage, VERSION_NAMES } from '~/lib/versions';
import { getServiceForAdmin } from '~/server/content/services.server';
import { getServiceVersion, saveServiceVersion } from '~/server/content/service-versions.server';
import { clientIp } from '~/server/http/request-info.server';
import { getStaff } from '~/server/http/staff-context.server';
import { versionFormAction, type VersionFailure } from '~/server/http/version-form.server';
import type { Route } from './+types/service-version';
import { dashboardMeta } from '~/lib/seo';

// Issue 26 item 4, for services (decision 033): a service's version in Luganda or Swahili, its own
// title, description, features and easy read, saved as a draft, published or unpublished on its own.
// A plain form: it works without JavaScript.

type Values = Record<'title' | 'description' | 'features' | 'easyRead', string>;
type Failure = VersionFailure<keyof Values>;

async function load(id: string, language: string) {
  const service = await getServiceForAdmin(id);
  if (!service) throw data({ error: SERVICE_MESSAGES.notFound }, { status: 404 });
  if (!isVersionLanguage(language)) throw data({ error: SERVICE_VERSION_MESSAGES.unknownLanguage }, { status: 404 });
  return { service, language, version: await getServiceVersion(id, language) };
}

export const meta: Route.MetaFunction = ({ loaderData }) =>
  dashboardMeta(loaderData ? `${loaderData.name} version: ${loaderData.englishTitle}` : 'Service version');

export async function loader({ params }: Route.LoaderArgs) {
  const { service, language, version } = await load(params.id, params.language);
  const initial: Values = version
    ? {
        title: version.title,
        description: version.description,
        features: version.features.join('\n'),
        easyRead: version.easyRead,
      }
    : { title: '', description: '', features: '', easyRead: '' };
  return {
    id: service.id,
    englishTitle: service.title,
    language,
    name: VERSION_NAMES[language],
    status: version?.status ?? null,
    version: version?.version ?? null,
    initial,
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const staff = getStaff(context);
  return versionFormAction({
    request,
    language: params.language,
    postSchema: serviceVersionPostSchema,
    wordsSchema: serviceVersionSchema,
    empty: { title: '', description: '', features: '', easyRead: '' },
    // The longest version, percent-encoded (a letter such as ŋ is six bytes so), and room for the rest.
    maxBytes: (SERVICE_TITLE_MAX + SERVICE_DESCRIPTION_MAX + SERVICE_FEATURES_INPUT_MAX + EASY_READ_MAX_CHARS) * 6 + 64_000,
    fixErrors: SERVICE_MESSAGES.fixErrors,
    messages: SERVICE_VERSION_MESSAGES,
    save: (intent, input, expectedVersion) =>
      saveServiceVersion({
        actor: staff,
        serviceId: params.id,
        language: params.language,
        intent,
        input,
        expectedVersion,
        ip: clientIp(context),
      }),
    savedTo: `/admin/services/${params.id}/versions/${params.language}`,
  });
}

export default function ServiceVersionPage({ loaderData, actionData }: Route.ComponentProps) {
  const { id, englishTitle, language, name, status, version, initial } = loaderData;
  const failure = actionData as Failure | undefined;
  const values = failure ? { ...initial, ...failure.values } : initial;
  const errors = failure?.errors ?? {};
  const saving = useNavigation().state === 'submitting';
  const text = (field: 'title' | 'description' | 'features', rows?: number) => (
    <VersionTextField
      field={field}
      label={field[0]!.toUpperCase() + field.slice(1)}
      language={language}
      value={values[field]}
      error={errors[field]}
      required={field !== 'features'}
      {...(rows ? { rows } : {})}
    />
  );
  return (
    <>
      <VersionHeading backTo={`/admin/services/${id}/edit`} englishTitle={englishTitle} name={name} />
      <p className="mb-6 text-slate-700">
        {status === 'published'
          ? `Published: /${language}/services/${id} shows it.`
          : status === 'draft'
            ? `Draft: not on the website. /${language}/services/${id} shows the English text until it is published.`
            : `No ${name} version yet. /${language}/services/${id} shows the English text.`}
      </p>
      <Form
        method="post"
        noValidate
        className="max-w-4xl space-y-6 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm md:p-8"
      >
        {failure && <Banner key={failure.message} type="error" message={failure.message} autoClose={false} />}
        {text('title')}
        {text('description', 5)}
        {text('features', 6)}
        <EasyReadField initial={values.easyRead} error={errors.easyRead} language={language} />
        {version !== null && <input type="hidden" name="version" value={version} />}
        <VersionButtons status={status} saving={saving} />
      </Form>
    </>
  );
}
