import { data, Form, redirect, useNavigation } from 'react-router';
import { z } from 'zod';
import { getStaff } from '~/server/http/staff-context.server';
import { askEarlierSubscribers, countSubscribers, subscriberList } from '~/server/newsletter/newsletter-subscribers.server';
import { readListPage } from '~/server/http/dashboard-list.server';
import { parseForm } from '~/server/http/forms.server';
import { RuleError } from '~/server/platform/rule-error.server';
import { ruleResponse } from '~/server/http/rules.server';
import { flashCookie } from '~/server/http/flash.server';
import { clientIp } from '~/server/http/request-info.server';
import { formatDate } from '~/lib/format';
import {
  CONFIRM_LINK_DAYS,
  NEWSLETTER_TEXT,
  SUBSCRIBER_SEARCH_MAX,
  SUBSCRIBER_STATUSES,
  SUBSCRIBER_VIEW_LABELS,
  SUBSCRIBER_VIEWS,
  subscriberCount,
} from '~/lib/newsletter';
import { ConfirmDelete } from '~/components/admin/confirm-delete';
import { ListSearch, listHref, PagedList, secondaryButton } from '~/components/admin/paged-list';
import { SubscriberStatusBadge } from '~/components/admin/subscriber-status';
import type { Route } from './+types/subscribers';
import { dashboardMeta } from '~/lib/seo';

export const meta: Route.MetaFunction = () => dashboardMeta('Subscribers');

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = getStaff(context);
  const [{ filter, page }, counts] = await Promise.all([readListPage(subscriberList, user, request), countSubscribers()]);
  return { list: { filter, page, counts } };
}

const askSchema = z.object({ intent: z.literal('ask') });

/** Asks the addresses stored before double opt-in to confirm (one mail each, in the background). */
export async function action({ request, context }: Route.ActionArgs) {
  const actor = getStaff(context);
  const form = await parseForm(request, askSchema, { maxBytes: 1_024 });
  if (!form.ok) return data({ ok: false, message: NEWSLETTER_TEXT.nothingToAsk }, { status: form.status, headers: form.headers });
  try {
    const asked = await askEarlierSubscribers(actor, clientIp(context));
    const back = new URL(request.url);
    return redirect(`${back.pathname}${back.search}`, {
      status: 303,
      headers: { 'Set-Cookie': flashCookie({ type: 'success', message: NEWSLETTER_TEXT.askedToConfirm(asked), toast: true }) },
    });
  } catch (error) {
    if (error instanceof RuleError) return ruleResponse(error);
    throw error;
  }
}

type List = NonNullable<Route.ComponentProps['loaderData']['list']>;

/** Issue 12: the newsletter's addresses with counts, search, a status filter, paging, export and erasure. */
export default function Subscribers({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const { filter, page, counts } = loaderData.list;
  const loading = navigation.state === 'loading' && navigation.location.pathname === '/admin/subscribers';
  const shown = { status: filter.view === 'all' ? null : filter.view, q: filter.q };
  const href = (changes: Record<string, string | null>) => listHref('/admin/subscribers', shown, changes);
  const filtered = filter.view !== 'all' || filter.q !== '';
  const everyone = counts.pending + counts.confirmed + counts.unsubscribed;

  return (
    <>
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold text-slate-900">{NEWSLETTER_TEXT.subscribersTitle}</h1>
          <p className="mt-1 text-slate-700">
            Only confirmed subscribers receive the newsletter. To send a story or news item, open Manage Content and choose “Send
            to subscribers”.
          </p>
        </div>
        <a href={listHref('/admin/subscribers/export', shown)} className={secondaryButton}>
          Export CSV<span className="sr-only"> of the subscribers listed</span>
        </a>
      </div>

      <dl className="mt-6 grid grid-cols-2 gap-3 md:grid-cols-4">
        {SUBSCRIBER_STATUSES.map((status) => (
          <div key={status} className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
            <dt className="text-sm font-medium text-slate-700">{SUBSCRIBER_VIEW_LABELS[status]}</dt>
            <dd className="mt-1 text-2xl font-bold text-slate-900">{counts[status].toLocaleString('en-US')}</dd>
          </div>
        ))}
        <div className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
          <dt className="text-sm font-medium text-slate-700">Everyone</dt>
          <dd className="mt-1 text-2xl font-bold text-slate-900">{everyone.toLocaleString('en-US')}</dd>
        </div>
      </dl>

      {counts.neverAsked > 0 && (
        <AskEarlier count={counts.neverAsked} error={actionData && !actionData.ok ? actionData.message : undefined} />
      )}

      <ListSearch
        name="Subscribers"
        searchLabel="Search email addresses"
        q={filter.q}
        maxLength={SUBSCRIBER_SEARCH_MAX}
        view={filter.view}
        views={SUBSCRIBER_VIEWS}
        viewLabel={(view) =>
          `${SUBSCRIBER_VIEW_LABELS[view]} (${(view === 'all' ? everyone : counts[view]).toLocaleString('en-US')})`
        }
      />

      <PagedList
        summary={`${subscriberCount(page.total)}${filtered ? (page.total === 1 ? ' matches' : ' match') : ''}`}
        loading={loading}
        items={page.items}
        empty={filtered || everyone > 0 ? NEWSLETTER_TEXT.noMatches : NEWSLETTER_TEXT.empty}
        row={(item) => <SubscriberRow key={item.id} item={item} />}
        newer={page.newer}
        older={page.older}
        href={href}
        noun="subscribers"
        newerLabel="Newer"
        olderLabel="Older"
      />
    </>
  );
}

function SubscriberRow({ item }: { item: List['page']['items'][number] }) {
  const dates = [
    `Subscribed ${formatDate(item.createdAt, 'short')}`,
    item.confirmedAt ? `confirmed ${formatDate(item.confirmedAt, 'short')}` : null,
    item.unsubscribedAt ? `unsubscribed ${formatDate(item.unsubscribedAt, 'short')}` : null,
  ].filter(Boolean);
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-2">
          <span className="font-semibold break-all text-slate-900">{item.email}</span>
          <SubscriberStatusBadge status={item.status} />
        </p>
        <p className="mt-1 text-sm text-slate-700">
          {dates.join(', ')}
          {item.neverAsked ? ' · subscribed before confirmation was asked; not asked yet' : ''}
        </p>
      </div>
      <ConfirmDelete
        href={`/admin/subscribers/${item.id}/delete`}
        label="Delete"
        itemName={item.email}
        question={NEWSLETTER_TEXT.deleteConfirm(item.email)}
        buttonClass="inline-flex min-h-11 items-center rounded-lg bg-red-700 px-4 text-sm font-semibold text-white hover:bg-red-800"
      />
    </li>
  );
}

function AskEarlier({ count, error }: { count: number; error: string | undefined }) {
  const navigation = useNavigation();
  const asking = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'ask';
  return (
    <section aria-labelledby="ask-title" className="mt-6 rounded-2xl border border-amber-300 bg-amber-50 p-6">
      <h2 id="ask-title" className="text-lg font-bold text-slate-900">
        {subscriberCount(count)} from before confirmation was asked
      </h2>
      <p className="mt-2 text-slate-800">
        These addresses were typed into the newsletter box before it asked people to confirm, so they receive nothing. You can
        send each one email asking them to confirm; whoever does not confirm within {CONFIRM_LINK_DAYS} days is removed.
      </p>
      {error && (
        <p role="alert" className="mt-3 font-medium text-red-900">
          {error}
        </p>
      )}
      <Form method="post" className="mt-4">
        <input type="hidden" name="intent" value="ask" />
        <button
          type="submit"
          disabled={asking}
          className="min-h-11 rounded-lg bg-indigo-800 px-5 py-2.5 font-semibold text-white hover:bg-indigo-900 disabled:opacity-70"
        >
          {asking ? 'Asking...' : `Ask ${subscriberCount(count)} to confirm`}
        </button>
      </Form>
    </section>
  );
}
