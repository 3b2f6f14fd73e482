import { Form, Link, useNavigation, useRevalidator, useSearchParams } from 'react-router';
import { getStaff } from '~/server/http/staff-context.server';
import { listContentForAdmin } from '~/server/content/content-admin.server';
import { getLogger } from '~/server/platform/logger.server';
import { can } from '~/lib/permissions';
import {
  CONTENT_MESSAGES,
  CONTENT_PAGE,
  CONTENT_STATUSES,
  emptyListMessage,
  isContentStatus,
  isContentType,
  STATUS_LABELS,
  type ContentStatus,
  type ContentType,
} from '~/lib/content-form';
import { formatInTimeZone } from '~/lib/schedule';
import { readEditorialTimeZone } from '~/server/content/scheduled-publishing.server';
import { categoryLabel } from '~/lib/categories';
import { articlePath } from '~/lib/collections';
import { formatDate } from '~/lib/format';
import { truncate } from '~/lib/text';
import { ConfirmDelete } from '~/components/admin/confirm-delete';
import { LANGUAGE_NAMES, isPrefixedLanguage, pathInLanguage } from '~/lib/languages';
import type { Route } from './+types/content';
import { dashboardMeta } from '~/lib/seo';

export const meta: Route.MetaFunction = () => dashboardMeta('Manage Content');

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = getStaff(context);
  const base = {
    canEdit: can(user.role, 'content:edit'),
    canDelete: can(user.role, 'content:delete'),
    // Issue 12: "Send to subscribers" for the roles that may send newsletters.
    canSend: can(user.role, 'newsletter:send'),
  };
  const url = new URL(request.url);
  const type = url.searchParams.get('type');
  const q = (url.searchParams.get('q') ?? '').slice(0, 100);
  // Issue 13: Draft, Scheduled or Published; anything else lists them all.
  const rawStatus = url.searchParams.get('status');
  const status: ContentStatus | '' = isContentStatus(rawStatus) ? rawStatus : '';
  const timeZone = await readEditorialTimeZone().catch(() => '');
  // spec §2: nothing is listed until a type is chosen.
  if (!isContentType(type)) return { ...base, type: null, items: [], next: null, q, status, timeZone };
  // "Load more" asks for the next page after the cursor, and keeps the pages already shown.
  const pages = Math.min(50, Math.max(1, Number.parseInt(url.searchParams.get('pages') ?? '1', 10) || 1));
  try {
    const { items, next } = await listContentForAdmin({ type, limit: CONTENT_PAGE * pages, q, status: status || undefined });
    return { ...base, type, items, next: next ? String(pages + 1) : null, q, status, timeZone };
  } catch (error) {
    // spec §8: a load failure is only logged.
    getLogger().error({ err: error }, 'listing content failed');
    return { ...base, type, items: [], next: null, q, status, timeZone };
  }
}

/** Issue 13: each state's badge (AA contrast). */
const STATUS_BADGE: Record<ContentStatus, string> = {
  draft: 'bg-slate-200 text-slate-900',
  scheduled: 'bg-amber-100 text-amber-950',
  published: 'bg-emerald-100 text-emerald-950',
};

const typeButton = (active: boolean) =>
  `rounded-lg px-5 py-2.5 font-semibold ${active ? 'bg-indigo-800 text-white' : 'bg-white text-indigo-900 ring-1 ring-slate-300 hover:bg-indigo-50'}`;

/** spec §2 Manage Content: View News / View Blogs, the newest 20 with Edit, Delete and Refresh. */
/** "1 story", "2 blog posts": what the list's live count says it shows. */
function shownNoun(type: ContentType, count: number): string {
  const [one, many] = type === 'news' ? ['story', 'stories'] : ['blog post', 'blog posts'];
  return count === 1 ? one : many;
}

export default function ManageContent({ loaderData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const revalidator = useRevalidator();
  const loading = useNavigation().state === 'loading' || revalidator.state === 'loading';
  const { type, items, next, q, status, timeZone, canEdit, canDelete, canSend } = loaderData;
  const withParams = (changes: Record<string, string | null>) => {
    const p = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) {
      if (v === null) p.delete(k);
      else p.set(k, v);
    }
    return `?${p}`;
  };

  return (
    <>
      <h1 className="text-2xl font-bold text-slate-900">Manage Content</h1>
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <Link to="?type=news" className={typeButton(type === 'news')} aria-current={type === 'news' ? 'page' : undefined}>
          View News
        </Link>
        <Link to="?type=blogs" className={typeButton(type === 'blogs')} aria-current={type === 'blogs' ? 'page' : undefined}>
          View Blogs
        </Link>
        {type && (
          <button
            type="button"
            onClick={() => revalidator.revalidate()}
            className="rounded-lg border-2 border-slate-300 px-4 py-2 font-semibold text-slate-800 hover:bg-slate-100"
          >
            Refresh
          </button>
        )}
      </div>

      {!type ? (
        <section className="mt-8 rounded-2xl border border-dashed border-slate-300 bg-white p-10 text-center">
          <h2 className="text-xl font-bold text-slate-900">{CONTENT_MESSAGES.chooseType}</h2>
          <p className="mt-2 text-slate-700">Choose View News or View Blogs to see the most recent items.</p>
        </section>
      ) : (
        <>
          <Form method="get" role="search" className="mt-6 flex max-w-xl flex-wrap gap-2">
            <input type="hidden" name="type" value={type} />
            <label htmlFor="status" className="sr-only">
              Status
            </label>
            <select
              id="status"
              name="status"
              defaultValue={status}
              className="rounded-lg border-2 border-slate-300 bg-white px-3 py-2"
            >
              <option value="">All statuses</option>
              {CONTENT_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {STATUS_LABELS[s]}
                </option>
              ))}
            </select>
            <label htmlFor="q" className="sr-only">
              Search titles
            </label>
            <input
              id="q"
              name="q"
              type="search"
              defaultValue={q}
              maxLength={100}
              placeholder="Search titles"
              className="min-w-0 flex-1 basis-40 rounded-lg border-2 border-slate-300 px-3 py-2"
            />
            <button type="submit" className="rounded-lg bg-indigo-800 px-4 py-2 font-semibold text-white hover:bg-indigo-900">
              Search
            </button>
          </Form>
          <p role="status" className="sr-only">
            {loading ? 'Loading...' : `${items.length} ${shownNoun(type, items.length)} shown`}
          </p>
          {items.length === 0 ? (
            <p className="mt-8 rounded-2xl border border-slate-200 bg-white p-8 text-center text-lg font-semibold text-slate-800">
              {emptyListMessage(type)}
            </p>
          ) : (
            <ul className="mt-6 space-y-4" aria-busy={loading}>
              {items.map((item) => (
                <ContentRow
                  key={item.id}
                  item={item}
                  type={type}
                  canEdit={canEdit}
                  canDelete={canDelete}
                  canSend={canSend}
                  timeZone={timeZone}
                />
              ))}
            </ul>
          )}
          {next && (
            <Link
              to={withParams({ pages: next })}
              preventScrollReset
              className="mt-6 inline-block rounded-lg border-2 border-slate-300 bg-white px-5 py-2 font-semibold text-slate-800 hover:bg-slate-100"
            >
              Load more
            </Link>
          )}
        </>
      )}
    </>
  );
}

function ContentRow({
  item,
  type,
  canEdit,
  canDelete,
  canSend,
  timeZone,
}: {
  item: Route.ComponentProps['loaderData']['items'][number];
  type: ContentType;
  canEdit: boolean;
  canDelete: boolean;
  canSend: boolean;
  timeZone: string;
}) {
  const button = 'inline-flex items-center rounded-lg px-3 py-1.5 text-sm font-semibold';
  const published = item.status === 'published';
  return (
    <li className="flex flex-col gap-4 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:flex-row">
      {item.imageUrl ? (
        <img
          src={item.imageUrl.replace(/\.webp$/, '-480w.webp')}
          alt=""
          width={160}
          height={90}
          loading="lazy"
          className="aspect-video w-full shrink-0 rounded-lg object-cover sm:w-40"
        />
      ) : (
        <div className="flex aspect-video w-full shrink-0 items-center justify-center rounded-lg bg-slate-100 text-sm text-slate-600 sm:w-40">
          No image
        </div>
      )}
      <div className="min-w-0 flex-1">
        <h2 className="text-lg font-bold break-words text-slate-900">
          {/* Issue 13: only a published item has a public page. Issue 26: a version's is its English item's, under its language. */}
          {published ? (
            <a
              href={
                isPrefixedLanguage(item.language) && item.translationOf
                  ? pathInLanguage(articlePath(type, item.translationOf), item.language)
                  : articlePath(type, item.id)
              }
              className="hover:underline"
            >
              {item.title}
            </a>
          ) : (
            item.title
          )}
        </h2>
        <p className="mt-1 text-sm text-slate-700">
          <span className={`mr-1 rounded-full px-2 py-0.5 text-xs font-semibold ${STATUS_BADGE[item.status]}`}>
            {STATUS_LABELS[item.status]}
          </span>{' '}
          {/* Issue 26: a version in another language is marked with its language. */}
          {isPrefixedLanguage(item.language) && (
            <span className="mr-1 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-950">
              <span lang={item.language}>{LANGUAGE_NAMES[item.language]}</span> version
            </span>
          )}
          {item.author} · {item.category ? categoryLabel(item.category) : 'No category'} ·{' '}
          {item.status === 'scheduled' && item.scheduledAt ? (
            <>
              goes public <time dateTime={item.scheduledAt}>{formatInTimeZone(item.scheduledAt, timeZone || 'UTC')}</time>
            </>
          ) : item.status === 'draft' ? (
            <>
              last saved <time dateTime={item.updatedAt}>{formatDate(item.updatedAt, 'short')}</time>
            </>
          ) : (
            <time dateTime={item.publishedAt}>{formatDate(item.publishedAt, 'short')}</time>
          )}
        </p>
        <p className="mt-2 text-slate-700">{item.summary ? truncate(item.summary, 160) : CONTENT_MESSAGES.noSummary}</p>
        {item.tags.length > 0 && (
          <ul className="mt-2 flex flex-wrap gap-1.5" aria-label="Tags">
            {item.tags.map((tag) => (
              <li key={tag} className="rounded-full bg-indigo-50 px-2 py-0.5 text-xs font-medium text-indigo-900">
                {tag}
              </li>
            ))}
          </ul>
        )}
      </div>
      <div className="flex shrink-0 flex-wrap items-start gap-2 sm:max-w-48 sm:justify-end">
        {canSend && published && (
          <Link
            to={`/admin/newsletter/${item.id}`}
            className={`${button} border-2 border-slate-300 bg-white text-slate-800 hover:bg-slate-100`}
          >
            Send to subscribers<span className="sr-only"> {item.title}</span>
          </Link>
        )}
        {canEdit && (
          <Link to={`/admin/content/${item.id}/edit`} className={`${button} bg-indigo-800 text-white hover:bg-indigo-900`}>
            Edit<span className="sr-only"> {item.title}</span>
          </Link>
        )}
        {canDelete && (
          <ConfirmDelete
            href={`/admin/content/${item.id}/delete`}
            label="Delete"
            itemName={item.title}
            question={CONTENT_MESSAGES.deleteConfirm(item.title)}
            buttonClass={`${button} bg-red-700 text-white hover:bg-red-800`}
          />
        )}
      </div>
    </li>
  );
}
