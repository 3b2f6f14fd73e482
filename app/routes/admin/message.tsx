import { isLanguage, STAFF_LANGUAGE_NAMES, writtenFromLine } from '~/lib/languages';
import { Fragment, useEffect, useRef } from 'react';
import { data, Form, Link, redirect, useNavigation } from 'react-router';
import { getStaff } from '~/server/http/staff-context.server';
import { openMessage, replyToMessage, setMessageStatus } from '~/server/inbox/messages.server';
import { getSiteInfo } from '~/server/site/site.server';
import { parseForm } from '~/server/http/forms.server';
import { RuleError } from '~/server/platform/rule-error.server';
import { loaderRefusal, ruleResponse } from '~/server/http/rules.server';
import { flashCookie } from '~/server/http/flash.server';
import { clientIp } from '~/server/http/request-info.server';
import { getLogger } from '~/server/platform/logger.server';
import { getConfig } from '~/server/platform/config.server';
import { firstError } from '~/lib/forms';
import {
  formatMessageTime,
  MESSAGE_TEXT,
  messageActionSchema,
  REPLY_MAX,
  STATUS_LABELS,
  type MessageStatus,
  type SettableStatus,
} from '~/lib/messages';
import { ConfirmDelete } from '~/components/admin/confirm-delete';
import { Field, inputClass } from '~/components/admin/form';
import { KindBadge, MessageStatusBadge } from '~/components/admin/message-status';
import { answerLines, isApplicationKind, KIND_LABELS } from '~/lib/applications';
import type { Route } from './+types/message';
import { dashboardMeta } from '~/lib/seo';

export const meta: Route.MetaFunction = ({ loaderData }) =>
  dashboardMeta(`${loaderData?.message?.subject ?? 'Message'} | Messages`);

/** Opening a message marks a New one Read (issue 11). */
export async function loader({ params, context }: Route.LoaderArgs) {
  const user = getStaff(context);
  try {
    const [message, site] = await Promise.all([openMessage(user, params.id, clientIp(context)), getSiteInfo()]);
    return { message, teamEmail: site.email };
  } catch (error) {
    throw loaderRefusal(error);
  }
}

/** The reply's text can be long; its encoded form is larger still. */
const MAX_BODY_BYTES = 256 * 1024;

/** A reply (sent by mail, kept in the thread), or a change of status. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const actor = getStaff(context);
  const form = await parseForm(request, messageActionSchema, { maxBytes: MAX_BODY_BYTES });
  if (!form.ok) {
    const message = (form.refused ? form.formError : firstError(form)) ?? MESSAGE_TEXT.statusInvalid;
    return data(
      {
        ok: false as const,
        message,
        errors: form.refused ? {} : (form.fieldErrors as Record<string, string>),
        // What was typed comes back, so a page without JavaScript shows it again.
        body: form.values.body ?? '',
      },
      { status: form.status, headers: form.headers },
    );
  }
  const ip = clientIp(context);
  const values = form.values;
  try {
    if (values.intent === 'reply') {
      const { to } = await replyToMessage(actor, params.id, values.body, ip);
      return redirect(`/admin/messages/${params.id}`, {
        status: 303,
        headers: {
          'Set-Cookie': getConfig().smtpUrl
            ? flashCookie({ type: 'success', message: MESSAGE_TEXT.replySent(to), toast: true })
            : flashCookie({ type: 'warning', message: MESSAGE_TEXT.replyKept(to), toast: true }),
        },
      });
    }
    const { to } = await setMessageStatus(actor, params.id, values.status, ip);
    // Back to the list: staying would mark a message just made unread as read again.
    return redirect('/admin/messages', {
      status: 303,
      headers: {
        'Set-Cookie': flashCookie({ type: 'success', message: MESSAGE_TEXT.statusChanged[to as SettableStatus], toast: true }),
      },
    });
  } catch (error) {
    if (error instanceof RuleError) return ruleResponse(error);
    getLogger().error({ err: error, contactId: params.id }, 'a message could not be changed');
    const message = values.intent === 'reply' ? MESSAGE_TEXT.replyFailed : MESSAGE_TEXT.statusFailed;
    const body = values.intent === 'reply' ? values.body : '';
    return data({ ok: false as const, message, errors: { form: message } as Record<string, string>, body }, { status: 500 });
  }
}

type Detail = NonNullable<Route.ComponentProps['loaderData']['message']>;

export default function Message({ loaderData, actionData }: Route.ComponentProps) {
  const { message, teamEmail } = loaderData;
  const errors: Record<string, string> = actionData && !actionData.ok ? actionData.errors : {};
  const formError = actionData && !actionData.ok && !errors.body ? actionData.message : undefined;

  return (
    <>
      <Link to="/admin/messages" className="inline-flex min-h-11 items-center font-semibold text-indigo-800 hover:underline">
        <span aria-hidden="true">←&nbsp;</span>All messages
      </Link>
      {formError && (
        <p role="alert" className="mt-4 rounded-lg border-l-4 border-red-700 bg-red-50 p-4 font-medium text-red-950">
          {formError}
        </p>
      )}
      <article aria-labelledby="message-subject" className="mt-4 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <h1 id="message-subject" className="min-w-0 text-2xl font-bold break-words text-slate-900">
            {message.subject}
          </h1>
          <span className="flex flex-wrap gap-2">
            {message.kind !== 'message' && <KindBadge kind={message.kind} />}
            <MessageStatusBadge status={message.status} />
          </span>
        </div>
        <StatusNote message={message} />
        <dl className="mt-4 grid gap-x-6 gap-y-2 sm:grid-cols-[auto_1fr]">
          <dt className="font-semibold text-slate-700">From</dt>
          <dd className="break-words text-slate-900">{message.name}</dd>
          <dt className="font-semibold text-slate-700">Email</dt>
          <dd className="break-all">
            {message.email ? (
              <a href={`mailto:${message.email}`} className="text-indigo-800 underline underline-offset-4">
                {message.email}
              </a>
            ) : (
              'Not given'
            )}
          </dd>
          <dt className="font-semibold text-slate-700">Phone</dt>
          <dd className="text-slate-900">
            {message.phone ? (
              <a href={`tel:${message.phone.replace(/[^\d+]/g, '')}`} className="text-indigo-800 underline underline-offset-4">
                {message.phone}
              </a>
            ) : (
              'Not given'
            )}
          </dd>
          {message.answers &&
            answerLines(message.answers).map(([question, answer]) => (
              <Fragment key={question}>
                <dt className="font-semibold text-slate-700">{question}</dt>
                <dd className="break-words text-slate-900">{answer}</dd>
              </Fragment>
            ))}
          <dt className="font-semibold text-slate-700">Received</dt>
          <dd className="text-slate-900">
            <time dateTime={message.createdAt}>{formatMessageTime(message.createdAt)}</time>
          </dd>
          {isLanguage(message.language) && (
            <>
              <dt className="font-semibold text-slate-700">Language</dt>
              <dd className="text-slate-900">
                {STAFF_LANGUAGE_NAMES[message.language]}
                {writtenFromLine(message.language) && (
                  <span className="block text-slate-700">{writtenFromLine(message.language)}</span>
                )}
              </dd>
            </>
          )}
        </dl>
        <h2 className={message.kind === 'message' ? 'sr-only' : 'mt-6 text-lg font-bold text-slate-900'}>
          {message.kind === 'message'
            ? 'Message'
            : message.kind === 'volunteer'
              ? 'Why they would like to volunteer'
              : 'What they need'}
        </h2>
        <p
          className={`${message.kind === 'message' ? 'mt-6 border-t border-slate-200 pt-6' : 'mt-2'} text-lg break-words whitespace-pre-wrap text-slate-900`}
        >
          {message.message}
        </p>
      </article>

      <section aria-labelledby="replies-title" className="mt-8">
        <h2 id="replies-title" className="text-xl font-bold text-slate-900">
          Replies ({message.replies.length})
        </h2>
        {message.replies.length === 0 ? (
          <p className="mt-2 text-slate-700">No reply yet.</p>
        ) : (
          <ol className="mt-3 space-y-3">
            {message.replies.map((reply) => (
              <li key={reply.id} className="rounded-xl border border-emerald-200 bg-emerald-50 p-4">
                <p className="text-sm text-slate-800">
                  Sent by <span className="font-semibold">{reply.sentByName}</span> ({reply.sentByEmail}) on{' '}
                  <time dateTime={reply.createdAt}>{formatMessageTime(reply.createdAt)}</time>
                </p>
                <p className="mt-2 break-words whitespace-pre-wrap text-slate-900">{reply.body}</p>
              </li>
            ))}
          </ol>
        )}
      </section>

      {message.email ? (
        <ReplyForm
          message={message}
          teamEmail={teamEmail}
          error={errors.body}
          typed={actionData && 'body' in actionData && typeof actionData.body === 'string' ? actionData.body : undefined}
        />
      ) : (
        <section aria-labelledby="reply-title" className="mt-8 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
          <h2 id="reply-title" className="text-xl font-bold text-slate-900">
            Reply
          </h2>
          <p className="mt-2 text-slate-800">{MESSAGE_TEXT.noEmail(message.phone)}</p>
        </section>
      )}
      {isApplicationKind(message.kind) ? <ApplicationActions message={message} /> : <Actions message={message} />}
    </>
  );
}

/** Who last changed the status, and when: "Replied by Ann on …" (issue 11). */
function StatusNote({ message }: { message: Detail }) {
  const lastReply = message.replies.at(-1);
  const by = (name: string | null, at: string | null) =>
    name && at ? (
      <>
        {' '}
        by <span className="font-semibold">{name}</span> on <time dateTime={at}>{formatMessageTime(at)}</time>
      </>
    ) : null;
  const words: Partial<Record<MessageStatus, string>> = {
    read: 'Opened',
    replied: 'Replied',
    archived: 'Marked handled and archived',
    spam: 'Marked as spam',
    new: isApplicationKind(message.kind) ? 'Marked as new' : 'Marked as unread',
    contacted: 'Contacted',
    accepted: 'Accepted',
    declined: 'Declined',
  };
  if (message.status === 'replied' && lastReply)
    return <p className="mt-2 text-slate-700">Replied{by(lastReply.sentByName, lastReply.createdAt)}.</p>;
  if (!message.statusChangedAt) return null;
  return (
    <p className="mt-2 text-slate-700">
      {words[message.status] ?? STATUS_LABELS[message.status]}
      {by(message.statusChangedBy, message.statusChangedAt)}.
    </p>
  );
}

function ReplyForm({
  message,
  teamEmail,
  error,
  typed,
}: {
  message: Detail;
  teamEmail: string;
  error: string | undefined;
  typed: string | undefined;
}) {
  const navigation = useNavigation();
  const sending = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'reply';
  const form = useRef<HTMLFormElement>(null);
  // After a sent reply the page reloads its data; the field empties for the next one.
  const replies = message.replies.length;
  useEffect(() => form.current?.reset(), [replies]);
  return (
    <section aria-labelledby="reply-title" className="mt-8 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id="reply-title" className="text-xl font-bold text-slate-900">
        Reply
      </h2>
      <Form ref={form} method="post" className="mt-3 space-y-4">
        <input type="hidden" name="intent" value="reply" />
        <Field
          id="body"
          label="Your reply"
          required
          error={error}
          note={
            <>
              Sent by email to <span className="break-all">{message.email}</span>, with the message quoted below it. Their answer
              comes to <span className="break-all">{teamEmail}</span>.
            </>
          }
        >
          {(control) => (
            <textarea
              {...control}
              name="body"
              rows={8}
              required
              maxLength={REPLY_MAX}
              defaultValue={typed}
              className={inputClass(!!error)}
            />
          )}
        </Field>
        <button
          type="submit"
          disabled={sending}
          className="min-h-11 rounded-lg bg-indigo-800 px-5 py-2.5 font-semibold text-white hover:bg-indigo-900 disabled:opacity-70"
        >
          {sending ? 'Sending...' : 'Send reply'}
        </button>
      </Form>
    </section>
  );
}

const actionButton =
  'min-h-11 rounded-lg border-2 border-slate-300 bg-white px-4 py-2 font-semibold text-slate-800 hover:bg-slate-100';

function StatusButton({ status, children }: { status: SettableStatus; children: React.ReactNode }) {
  return (
    <Form method="post">
      <input type="hidden" name="intent" value="status" />
      <input type="hidden" name="status" value={status} />
      <button type="submit" className={actionButton}>
        {children}
      </button>
    </Form>
  );
}

/** Issue 27: an application is New, Contacted, Accepted or Declined; a reply makes a new one Contacted. */
function ApplicationActions({ message }: { message: Detail }) {
  const kind = isApplicationKind(message.kind) ? KIND_LABELS[message.kind].one.toLowerCase() : 'application';
  return (
    <section aria-labelledby="actions-title" className="mt-8">
      <h2 id="actions-title" className="text-xl font-bold text-slate-900">
        Status
      </h2>
      <p className="mt-1 text-slate-700">
        Contacted the person another way (a call, a text)? Mark the {kind} contacted. Accept or decline it once you have decided.
      </p>
      <div className="mt-3 flex flex-wrap gap-3">
        {message.status !== 'contacted' && <StatusButton status="contacted">Mark as contacted</StatusButton>}
        {message.status !== 'accepted' && <StatusButton status="accepted">Accept</StatusButton>}
        {message.status !== 'declined' && <StatusButton status="declined">Decline</StatusButton>}
        {message.status !== 'new' && <StatusButton status="new">Mark as new</StatusButton>}
        <ConfirmDelete
          href={`/admin/messages/${message.id}/delete`}
          label="Delete"
          itemName={`message "${message.subject}"`}
          question={MESSAGE_TEXT.deleteConfirm(message.subject, message.name, message.email)}
          buttonClass="inline-flex min-h-11 items-center rounded-lg bg-red-700 px-4 py-2 font-semibold text-white hover:bg-red-800"
        />
      </div>
    </section>
  );
}

function Actions({ message }: { message: Detail }) {
  const inInbox = message.status === 'new' || message.status === 'read' || message.status === 'replied';
  return (
    <section aria-labelledby="actions-title" className="mt-8">
      <h2 id="actions-title" className="text-xl font-bold text-slate-900">
        Other actions
      </h2>
      <p className="mt-1 text-slate-700">
        No reply needed? Mark it handled: it moves to Archived, where the filter still finds it.
      </p>
      <div className="mt-3 flex flex-wrap gap-3">
        {message.status !== 'archived' && <StatusButton status="archived">Mark handled (archive)</StatusButton>}
        {inInbox && message.status !== 'new' && <StatusButton status="new">Mark as unread</StatusButton>}
        {!inInbox && <StatusButton status="read">Move back to the inbox</StatusButton>}
        {message.status !== 'spam' && <StatusButton status="spam">Mark as spam</StatusButton>}
        <ConfirmDelete
          href={`/admin/messages/${message.id}/delete`}
          label="Delete"
          itemName={`message "${message.subject}"`}
          question={MESSAGE_TEXT.deleteConfirm(message.subject, message.name, message.email)}
          buttonClass="inline-flex min-h-11 items-center rounded-lg bg-red-700 px-4 py-2 font-semibold text-white hover:bg-red-800"
        />
      </div>
    </section>
  );
}
