import { data, redirect } from 'react-router';
import { getStaff } from '~/server/http/staff-context.server';
import { deleteSubscriber, getSubscriber } from '~/server/newsletter/newsletter-subscribers.server';
import { flashCookie } from '~/server/http/flash.server';
import { clientIp } from '~/server/http/request-info.server';
import { NEWSLETTER_TEXT } from '~/lib/newsletter';
import { DeleteConfirmation } from '~/components/admin/delete-confirmation';
import { failureAnswer } from '~/server/http/rules.server';
import type { Route } from './+types/subscriber-delete';
import { dashboardMeta } from '~/lib/seo';

export const meta: Route.MetaFunction = () => dashboardMeta('Delete subscriber');

/** The confirmation page used without JavaScript (with it, a dialog on the list asks). Opening it changes nothing. */
export async function loader({ params }: Route.LoaderArgs) {
  const subscriber = await getSubscriber(params.id);
  if (!subscriber) throw data({ error: NEWSLETTER_TEXT.notFound }, { status: 404 });
  return { email: subscriber.email };
}

/** Erasure on request: the address and every delivery record that names it go. */
export async function action({ params, context }: Route.ActionArgs) {
  const actor = getStaff(context);
  try {
    await deleteSubscriber(actor, params.id, clientIp(context));
  } catch (error) {
    return failureAnswer(error, NEWSLETTER_TEXT.deleteFailed, 'deleting a subscriber failed');
  }
  return redirect('/admin/subscribers', {
    status: 303,
    headers: { 'Set-Cookie': flashCookie({ type: 'success', message: NEWSLETTER_TEXT.deleted, toast: true }) },
  });
}

export default function SubscriberDelete({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <DeleteConfirmation
      question={NEWSLETTER_TEXT.deleteConfirm(loaderData.email)}
      cancelTo="/admin/subscribers"
      error={actionData?.message}
    />
  );
}
