import { data, Link, redirect } from 'react-router';
import { getStaff } from '~/server/http/staff-context.server';
import { getServiceForAdmin } from '~/server/content/services.server';
import { saveServiceForm } from '~/server/http/service-form.server';
import { flashCookie } from '~/server/http/flash.server';
import { getVideoFormState } from '~/server/media/video.server';
import { checkVideoTools } from '~/server/media/video-tools.server';
import { SERVICE_MESSAGES, serviceUpdated } from '~/lib/services';
import { VIDEO_MESSAGES } from '~/lib/video-upload';
import { ServiceForm, type ServiceFormValues } from '~/components/admin/service-form';
import { itemNumbers, maySeeItemNumbers } from '~/server/analytics/report.server';
import { flushAnalytics } from '~/server/analytics/counting.server';
import { ItemNumbersPanel } from '~/components/admin/item-numbers';
import { LanguageVersionsPanel } from '~/components/admin/language-versions';
import { listServiceVersions } from '~/server/content/service-versions.server';
import { VERSION_LANGUAGES, VERSION_NAMES } from '~/lib/versions';
import type { Route } from './+types/service-edit';
import { dashboardMeta } from '~/lib/seo';

export const meta: Route.MetaFunction = ({ loaderData }) =>
  dashboardMeta(loaderData ? `Edit service: ${loaderData.title}` : 'Edit service');

export async function loader({ params, context }: Route.LoaderArgs) {
  const service = await getServiceForAdmin(params.id);
  if (!service) throw data({ error: SERVICE_MESSAGES.notFound }, { status: 404 });
  const initial: ServiceFormValues = {
    title: service.title,
    description: service.description,
    features: service.features.join('\n'),
    imageUrl: service.imageUrl ?? '',
    imageAlt: service.imageAlt,
    easyRead: service.easyRead ?? '',
  };
  // Issue 14: its sign-language video, and whether this server can process one.
  // Issue 28: its own visit counts, for ADMIN and above (a service has no author).
  const [video, tools, numbers, versions] = await Promise.all([
    getVideoFormState(service.videoId),
    checkVideoTools(),
    maySeeItemNumbers(getStaff(context), null) ? flushAnalytics().then(() => itemNumbers(service.id)) : null,
    // Issue 26: its Luganda and Swahili versions.
    listServiceVersions(service.id),
  ]);
  const videoUnavailable = tools.available ? null : `${VIDEO_MESSAGES.unavailable}: ${tools.reason}`;
  const languages = VERSION_LANGUAGES.map((language) => ({
    language,
    name: VERSION_NAMES[language],
    status: versions.find((v) => v.language === language)?.status ?? null,
  }));
  return { id: service.id, title: service.title, initial, video, videoUnavailable, numbers, languages };
}

/** The form, with or without JavaScript: back to the list with 'Service "{title}" updated successfully!'. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const result = await saveServiceForm(request, context, getStaff(context), { mode: 'edit', id: params.id });
  if (!result.ok) return data(result.failure, { status: result.status, headers: result.headers });
  return redirect('/admin/services', {
    status: 303,
    headers: { 'Set-Cookie': flashCookie({ type: 'success', message: serviceUpdated(result.service.title), toast: true }) },
  });
}

export default function ServiceEdit({ loaderData, actionData }: Route.ComponentProps) {
  const { id, title, initial, video, videoUnavailable, numbers, languages } = loaderData;
  return (
    <>
      <p className="mb-2">
        <Link to="/admin/services" className="font-semibold text-indigo-800 underline underline-offset-4">
          All services
        </Link>
      </p>
      <h1 className="mb-1 text-2xl font-bold break-words text-slate-900">Edit service: {title}</h1>
      <p className="mb-6 text-slate-700">
        Its address stays{' '}
        <a href={`/services/${id}`} className="font-medium text-indigo-800 underline underline-offset-4">
          /services/{id}
        </a>
        .
      </p>
      {numbers && <ItemNumbersPanel numbers={numbers} />}
      <LanguageVersionsPanel basePath={`/admin/services/${id}`} languages={languages} />
      <ServiceForm
        key={actionData ? JSON.stringify(actionData.values) : 'loaded'}
        mode="edit"
        initial={actionData ? { ...initial, ...actionData.values } : initial}
        failure={actionData}
        video={video}
        videoUnavailable={videoUnavailable}
      />
    </>
  );
}
