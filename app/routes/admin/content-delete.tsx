import { data, redirect } from 'react-router';
import { getStaff } from '~/server/http/staff-context.server';
import { deleteContent, getContentForAdmin } from '~/server/content/content-admin.server';
import { flashCookie } from '~/server/http/flash.server';
import { clientIp } from '~/server/http/request-info.server';
import { CONTENT_MESSAGES } from '~/lib/content-form';
import { DeleteConfirmation } from '~/components/admin/delete-confirmation';
import { redirectWithFailure } from '~/server/http/rules.server';
import type { Route } from './+types/content-delete';
import { dashboardMeta } from '~/lib/seo';

export const meta: Route.MetaFunction = ({ loaderData }) => dashboardMeta(loaderData ? `Delete: ${loaderData.title}` : 'Delete');

/** The confirmation page used without JavaScript (with it, a dialog on the list asks). */
export async function loader({ params }: Route.LoaderArgs) {
  const item = await getContentForAdmin(params.id);
  if (!item) throw data({ error: CONTENT_MESSAGES.notFound }, { status: 404 });
  return { title: item.title, type: item.type };
}

export async function action({ params, context }: Route.ActionArgs) {
  const actor = getStaff(context);
  const item = await getContentForAdmin(params.id);
  const back = `/admin/content?type=${item?.type ?? 'news'}`;
  try {
    await deleteContent(actor, params.id, clientIp(context));
  } catch (error) {
    // A refusal is told with the list (a flash), not as a form's failure: spec §8 reloads the list.
    return redirectWithFailure(
      back,
      error,
      'The item could not be deleted.',
      'deleting content failed',
      CONTENT_MESSAGES.deleteFailed,
    );
  }
  return redirect(back, {
    status: 303,
    headers: { 'Set-Cookie': flashCookie({ type: 'success', message: CONTENT_MESSAGES.deleted, toast: true }) },
  });
}

export default function ContentDelete({ loaderData }: Route.ComponentProps) {
  return (
    <DeleteConfirmation
      question={CONTENT_MESSAGES.deleteConfirm(loaderData.title)}
      cancelTo={`/admin/content?type=${loaderData.type}`}
    />
  );
}
