import { data, Form, Link, redirect, useNavigation } from 'react-router';
import { Banner } from '~/components/admin/banner';
import { EasyReadField } from '~/components/admin/easy-read-field';
import { Field, inputClass, primaryButton } from '~/components/admin/form';
import { checkFormSync } from '~/lib/forms';
import { SERVICE_MESSAGES } from '~/lib/services';
import {
  isServiceVersionLanguage,
  SERVICE_VERSION_MESSAGES,
  SERVICE_VERSION_NAMES,
  serviceVersionPostSchema,
  serviceVersionSchema,
  type ServiceVersionInput,
} from '~/lib/service-versions';
import { getServiceForAdmin, ServiceRuleError } from '~/server/content/services.server';
import { getServiceVersion, saveServiceVersion } from '~/server/content/service-versions.server';
import { flashCookie } from '~/server/http/flash.server';
import { formRefusal, parseForm } from '~/server/http/forms.server';
import { clientIp } from '~/server/http/request-info.server';
import { getStaff } from '~/server/http/staff-context.server';
import type { Route } from './+types/service-version';
import { dashboardMeta } from '~/lib/seo';

// Issue 26 item 4, for services (decision 033): a service's version in Luganda or Swahili, its own
// title, description, features and easy read, saved as a draft, published or unpublished on its own.
// A plain form: it works without JavaScript.

type Values = Record<'title' | 'description' | 'features' | 'easyRead', string>;
interface Failure {
  ok: false;
  message: string;
  errors: Partial<Record<keyof Values, string>>;
  values: Values;
}

async function load(id: string, language: string) {
  const service = await getServiceForAdmin(id);
  if (!service) throw data({ error: SERVICE_MESSAGES.notFound }, { status: 404 });
  if (!isServiceVersionLanguage(language)) throw data({ error: SERVICE_VERSION_MESSAGES.unknownLanguage }, { status: 404 });
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
    name: SERVICE_VERSION_NAMES[language],
    status: version?.status ?? null,
    version: version?.version ?? null,
    initial,
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const staff = getStaff(context);
  const form = await parseForm(request, serviceVersionPostSchema, { maxBytes: 64_000 });
  if (!form.ok && form.refused) return formRefusal(form);
  if (!form.ok) {
    const values = { title: '', description: '', features: '', easyRead: '', ...form.values } as Values;
    return data({ ok: false, message: SERVICE_MESSAGES.fixErrors, errors: {}, values } satisfies Failure, { status: 400 });
  }
  const { intent, version, ...posted } = form.values;
  const failure = (status: number, message: string, errors: Failure['errors'] = {}) =>
    data({ ok: false, message, errors, values: posted } satisfies Failure, { status });
  let input: ServiceVersionInput | undefined;
  if (intent !== 'unpublish') {
    const checked = checkFormSync(serviceVersionSchema, posted);
    if (!checked.ok) return failure(400, SERVICE_MESSAGES.fixErrors, checked.fieldErrors as Failure['errors']);
    input = checked.values;
  }
  const name = isServiceVersionLanguage(params.language) ? SERVICE_VERSION_NAMES[params.language] : '';
  try {
    await saveServiceVersion({
      actor: staff,
      serviceId: params.id,
      language: params.language,
      intent,
      input,
      expectedVersion: /^\d{1,9}$/.test(version ?? '') ? Number(version) : undefined,
      ip: clientIp(context),
    });
  } catch (error) {
    if (error instanceof ServiceRuleError) return failure(error.status, error.message);
    throw error;
  }
  const message =
    intent === 'publish'
      ? SERVICE_VERSION_MESSAGES.published(name)
      : intent === 'unpublish'
        ? SERVICE_VERSION_MESSAGES.unpublished(name)
        : SERVICE_VERSION_MESSAGES.saved(name);
  return redirect(`/admin/services/${params.id}/versions/${params.language}`, {
    status: 303,
    headers: { 'Set-Cookie': flashCookie({ type: 'success', message, toast: true }) },
  });
}

export default function ServiceVersionPage({ loaderData, actionData }: Route.ComponentProps) {
  const { id, englishTitle, language, name, status, version, initial } = loaderData;
  const failure = actionData as Failure | undefined;
  const values = failure ? { ...initial, ...failure.values } : initial;
  const errors = failure?.errors ?? {};
  const saving = useNavigation().state === 'submitting';
  const text = (field: 'title' | 'description' | 'features', rows?: number) => (
    <Field
      id={`version-${field}`}
      label={field[0]!.toUpperCase() + field.slice(1)}
      required={field !== 'features'}
      error={errors[field]}
    >
      {(control) =>
        rows ? (
          <textarea
            {...control}
            name={field}
            rows={rows}
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
        <Link to={`/admin/services/${id}/edit`} className="font-semibold text-indigo-800 underline underline-offset-4">
          Back to {englishTitle}
        </Link>
      </p>
      <h1 className="mb-1 text-2xl font-bold break-words text-slate-900">
        {name} version: {englishTitle}
      </h1>
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
