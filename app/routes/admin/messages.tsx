import { data, Form, Link, redirect, useNavigation } from 'react-router';
import { getStaff } from '~/server/http/staff-context.server';
import { getRetentionMonths, messageList, setRetentionMonths } from '~/server/inbox/messages.server';
import { readListPage } from '~/server/http/dashboard-list.server';
import { parseForm } from '~/server/http/forms.server';
import { RuleError } from '~/server/platform/rule-error.server';
import { ruleResponse } from '~/server/http/rules.server';
import { flashCookie } from '~/server/http/flash.server';
import { clientIp } from '~/server/http/request-info.server';
import {
  formatMessageTime,
  INBOX_STATUSES,
  MESSAGE_SEARCH_MAX,
  MESSAGE_TEXT,
  MESSAGE_VIEWS,
  RETENTION,
  retentionSchema,
  VIEW_LABELS,
  KIND_FILTERS,
  statusesOfKind,
  type MessageStatus,
  type MessageView,
} from '~/lib/messages';
import { isInboxKind, KIND_LABELS } from '~/lib/applications';
import { Field, inputClass } from '~/components/admin/form';
import { ListSearch, listHref, PagedList, secondaryButton } from '~/components/admin/paged-list';
import { KindBadge, MessageStatusBadge } from '~/components/admin/message-status';
import type { Route } from './+types/messages';
import { dashboardMeta } from '~/lib/seo';

export const meta: Route.MetaFunction = () => dashboardMeta('Messages');

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = getStaff(context);
  const kind = messageList.filterFromParams(new URL(request.url).searchParams).facet;
  const [{ filter, page }, counts, kindCounts, retentionMonths] = await Promise.all([
    readListPage(messageList, user, request),
    messageList.countByStatus(undefined, kind),
    messageList.countByFacet(),
    getRetentionMonths(),
  ]);
  return { inbox: { filter, page, counts, kindCounts, retentionMonths } };
}

/** The retention setting: whole months after which messages are deleted automatically. */
export async function action({ request, context }: Route.ActionArgs) {
  const actor = getStaff(context);
  const form = await parseForm(request, retentionSchema, { maxBytes: 2_048 });
  if (!form.ok) {
    const message = form.refused ? form.formError : (form.fieldErrors.months ?? MESSAGE_TEXT.retentionInvalid);
    return data({ ok: false, message, errors: { months: message } }, { status: form.status, headers: form.headers });
  }
  try {
    const { to } = await setRetentionMonths(actor, form.values.months, clientIp(context));
    const back = new URL(request.url);
    return redirect(`${back.pathname}${back.search}`, {
      status: 303,
      headers: { 'Set-Cookie': flashCookie({ type: 'success', message: MESSAGE_TEXT.retentionSaved(to), toast: true }) },
    });
  } catch (error) {
    if (error instanceof RuleError) return ruleResponse(error);
    throw error;
  }
}

type Inbox = NonNullable<Route.ComponentProps['loaderData']['inbox']>;

/**
 * Issue 11: every contact message, newest first, with search, a status filter, paging, export and
 * retention; issue 27: applications too, each of its kind, with a filter by kind.
 */
export default function Messages({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const { filter, page, counts, kindCounts, retentionMonths } = loaderData.inbox;
  const loading = navigation.state === 'loading' && navigation.location.pathname === '/admin/messages';
  const shown = { status: filter.view === 'inbox' ? null : filter.view, q: filter.q };
  const kind = isInboxKind(filter.facet) ? filter.facet : undefined;
  const withKind = { kind: kind ?? null };
  const href = (changes: Record<string, string | null>) => listHref('/admin/messages', shown, { ...withKind, ...changes });
  const filtered = filter.view !== 'inbox' || filter.q !== '' || kind !== undefined;
  // Issue 27: the status filter offers the statuses of the kind shown (every status for every kind).
  const views = MESSAGE_VIEWS.filter(
    (view) => view === 'inbox' || view === 'all' || !kind || statusesOfKind(kind).includes(view),
  );

  return (
    <>
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold text-slate-900">{MESSAGE_TEXT.title}</h1>
          <p className="mt-1 text-slate-700">
            {counts.new === 1 ? '1 unread message' : `${counts.new.toLocaleString('en-US')} unread messages`}
          </p>
        </div>
        <a href={listHref('/admin/messages/export', shown, withKind)} className={secondaryButton}>
          Export CSV<span className="sr-only"> of the messages listed</span>
        </a>
      </div>

      <ListSearch
        name="Messages"
        searchLabel="Search name, email, subject or text"
        q={filter.q}
        maxLength={MESSAGE_SEARCH_MAX}
        view={filter.view}
        views={views}
        viewLabel={(view) => `${VIEW_LABELS[view]} (${viewCount(view, counts).toLocaleString('en-US')})`}
        filters={
          <div>
            <label htmlFor="messages-kind" className="block font-medium text-slate-900">
              Kind
            </label>
            <select id="messages-kind" name="kind" defaultValue={kind ?? 'all'} className={`${inputClass(false)} bg-white`}>
              {KIND_FILTERS.map((choice) => (
                <option key={choice} value={choice}>
                  {choice === 'all'
                    ? `Messages and applications (${Object.values(kindCounts)
                        .reduce((a, b) => a + b, 0)
                        .toLocaleString('en-US')})`
                    : `${KIND_LABELS[choice].many} (${(kindCounts[choice] ?? 0).toLocaleString('en-US')})`}
                </option>
              ))}
            </select>
          </div>
        }
      />

      <PagedList
        summary={
          page.total === 1
            ? `1 message${filtered ? ' matches' : ''}`
            : `${page.total.toLocaleString('en-US')} messages${filtered ? ' match' : ''}`
        }
        loading={loading}
        items={page.items}
        empty={filtered || page.total > 0 ? MESSAGE_TEXT.noMatches : MESSAGE_TEXT.empty}
        row={(item) => <MessageRow key={item.id} item={item} />}
        newer={page.newer}
        older={page.older}
        href={href}
        noun="messages"
        newerLabel="Newer messages"
        olderLabel="Older messages"
      />

      <RetentionForm months={retentionMonths} error={actionData && !actionData.ok ? actionData.message : undefined} />
    </>
  );
}

function viewCount(view: MessageView, counts: Record<MessageStatus, number>): number {
  if (view === 'all') return Object.values(counts).reduce((a, b) => a + b, 0);
  if (view === 'inbox') return INBOX_STATUSES.reduce((sum, status) => sum + counts[status], 0);
  return counts[view];
}

function MessageRow({ item }: { item: Inbox['page']['items'][number] }) {
  const unread = item.status === 'new';
  return (
    <li
      className={`rounded-xl border bg-white p-4 shadow-sm ${unread ? 'border-indigo-300 border-l-4 border-l-indigo-800' : 'border-slate-200'}`}
    >
      <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-1">
        <p className="min-w-0 text-slate-900">
          <span className={unread ? 'font-bold' : 'font-semibold'}>{item.name}</span>{' '}
          <span className="break-all text-slate-600">{item.email}</span>
        </p>
        <span className="flex flex-wrap gap-2">
          {item.kind !== 'message' && <KindBadge kind={item.kind} />}
          <MessageStatusBadge status={item.status} />
        </span>
      </div>
      <h2 className={`mt-1 text-lg break-words ${unread ? 'font-bold' : 'font-semibold'} text-slate-900`}>
        <Link to={`/admin/messages/${item.id}`} className="text-indigo-900 underline-offset-4 hover:underline">
          {item.subject}
        </Link>
      </h2>
      {item.firstLine && <p className="mt-1 break-words text-slate-700">{item.firstLine}</p>}
      <p className="mt-2 text-sm text-slate-600">
        Received <time dateTime={item.createdAt}>{formatMessageTime(item.createdAt)}</time>
      </p>
    </li>
  );
}

function RetentionForm({ months, error }: { months: number; error: string | undefined }) {
  const navigation = useNavigation();
  const saving = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'retention';
  return (
    <section
      aria-labelledby="retention-title"
      className="mt-10 max-w-xl rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
    >
      <h2 id="retention-title" className="text-xl font-bold text-slate-900">
        How long messages are kept
      </h2>
      <p className="mt-2 text-slate-700">
        Messages and applications older than this are deleted automatically, once a day. The contact page and the application
        forms tell visitors how long their message is kept.
      </p>
      <Form method="post" className="mt-4 flex flex-wrap items-end gap-3">
        <input type="hidden" name="intent" value="retention" />
        <div className="w-40">
          <Field id="months" label="Months" error={error} note={`${RETENTION.minMonths} to ${RETENTION.maxMonths}`}>
            {(control) => (
              <input
                {...control}
                name="months"
                type="number"
                inputMode="numeric"
                min={RETENTION.minMonths}
                max={RETENTION.maxMonths}
                step={1}
                required
                defaultValue={months}
                className={inputClass(!!error)}
              />
            )}
          </Field>
        </div>
        <button
          type="submit"
          disabled={saving}
          className="mb-6 min-h-11 rounded-lg bg-indigo-800 px-5 py-2.5 font-semibold text-white hover:bg-indigo-900 disabled:opacity-70"
        >
          {saving ? 'Saving...' : 'Save'}
        </button>
      </Form>
    </section>
  );
}
