import { data, redirect } from 'react-router';
import { getStaff } from '~/server/http/staff-context.server';
import { deleteMessage, getMessage } from '~/server/inbox/messages.server';
import { flashCookie } from '~/server/http/flash.server';
import { clientIp } from '~/server/http/request-info.server';
import { MESSAGE_TEXT } from '~/lib/messages';
import { DeleteConfirmation } from '~/components/admin/delete-confirmation';
import { failureAnswer } from '~/server/http/rules.server';
import type { Route } from './+types/message-delete';
import { dashboardMeta } from '~/lib/seo';

export const meta: Route.MetaFunction = () => dashboardMeta('Delete message');

/** The confirmation page used without JavaScript (with it, a dialog on the message asks). Opening it changes nothing. */
export async function loader({ params }: Route.LoaderArgs) {
  const message = await getMessage(params.id);
  if (!message) throw data({ error: MESSAGE_TEXT.notFound }, { status: 404 });
  return { id: message.id, subject: message.subject, name: message.name, email: message.email };
}

export async function action({ params, context }: Route.ActionArgs) {
  const actor = getStaff(context);
  try {
    await deleteMessage(actor, params.id, clientIp(context));
  } catch (error) {
    return failureAnswer(error, MESSAGE_TEXT.deleteFailed, `deleting the message ${params.id} failed`);
  }
  return redirect('/admin/messages', {
    status: 303,
    headers: { 'Set-Cookie': flashCookie({ type: 'success', message: MESSAGE_TEXT.deleted, toast: true }) },
  });
}

export default function MessageDelete({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <DeleteConfirmation
      question={MESSAGE_TEXT.deleteConfirm(loaderData.subject, loaderData.name, loaderData.email)}
      cancelTo={`/admin/messages/${loaderData.id}`}
      error={actionData?.message}
    />
  );
}
