import { Link } from 'react-router';
import { getStaff } from '~/server/http/staff-context.server';
import { getOverview } from '~/server/overview.server';
import { requiredRoles } from '~/server/staff/two-factor.server';
import { RECOMMENDED_ROLES } from '~/lib/two-factor';
import { can, ROLE_INFO, SECTION_INFO, sectionsBeyondOverview } from '~/lib/permissions';
import { articlePath, isDashboardCollection, type Collection } from '~/lib/collections';
import { formatDate } from '~/lib/format';
import type { Route } from './+types/overview';
import { dashboardMeta } from '~/lib/seo';

export const meta: Route.MetaFunction = () => dashboardMeta('Overview');

export async function loader({ context }: Route.LoaderArgs) {
  const user = getStaff(context);
  const overview = await getOverview(user.role);
  // Issue 25: until the super admin requires a second sign-in step of the recommended roles, say so.
  const required = user.role === 'SUPER_ADMIN' ? await requiredRoles() : [];
  const recommendTwoFactor = user.role === 'SUPER_ADMIN' && RECOMMENDED_ROLES.some((r) => !required.includes(r));
  return { role: user.role, canEdit: can(user.role, 'content:edit'), overview, recommendTwoFactor };
}

const KIND: Record<Collection, string> = { news: 'News', blogs: 'Blog', resources: 'Resource' };
const card = 'rounded-2xl border border-slate-200 bg-white p-6 shadow-sm';
const link = 'font-semibold text-indigo-800 underline underline-offset-4 hover:text-indigo-950';
const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/**
 * The dashboard's first screen for every role (issue 11): what waits for the role, each linking to its
 * screen: unread messages, new newsletter subscribers, the latest published items, and, for the super
 * admin, demo content still to remove. A VIEWER reads what its role can do.
 */
export default function Overview({ loaderData }: Route.ComponentProps) {
  const { role, canEdit, overview, recommendTwoFactor } = loaderData;
  const info = ROLE_INFO[role];
  const sections = sectionsBeyondOverview(info.sections);
  return (
    <div className="space-y-6">
      <div>
        <h1 id="overview-title" className="text-2xl font-bold text-slate-900">
          Overview
        </h1>
        <p className="mt-2 text-slate-700">
          You are signed in as {info.label}: {info.description.toLowerCase()}.
        </p>
        {recommendTwoFactor && (
          <p className="mt-2 rounded-lg border border-amber-600 bg-amber-50 p-3 text-slate-900" data-testid="two-factor-advice">
            Recommended: require a second sign-in step for {RECOMMENDED_ROLES.map((r) => ROLE_INFO[r].label).join(' and ')}, so a
            stolen password alone does not open the dashboard.{' '}
            <Link to="/admin/security#required" className={link}>
              Choose in My sign-in
            </Link>
            .
          </p>
        )}
        {sections.length === 0 && (
          <p className="mt-2 text-slate-700">
            Your role can view the dashboard only. To write or manage content, ask the super admin for a different role. You can
            still edit your own{' '}
            <Link to="/admin/profile" className={link}>
              profile
            </Link>
            .
          </p>
        )}
      </div>

      {overview.demoContent && (
        <section aria-labelledby="demo-title" className="rounded-2xl border border-amber-300 bg-amber-50 p-6">
          <h2 id="demo-title" className="text-lg font-bold text-amber-950">
            Demo content is still on the site
          </h2>
          <p className="mt-2 text-amber-950">
            The example stories, news and staff accounts the site started with are still here. Remove them in one step once your
            own content is in; everything your team made stays.
          </p>
          <Link to="/admin/demo-content" className={`${link} mt-3 inline-block`}>
            Review and remove demo content
          </Link>
        </section>
      )}

      {(overview.unreadMessages !== undefined || overview.subscribers) && (
        <div className="grid gap-6 md:grid-cols-2">
          {overview.unreadMessages !== undefined && (
            <section aria-labelledby="messages-title" className={card}>
              <h2 id="messages-title" className="text-lg font-bold text-slate-900">
                Messages
              </h2>
              <p className="mt-2 text-2xl font-bold text-slate-900 md:text-3xl">
                {overview.unreadMessages === 0
                  ? 'No unread messages'
                  : plural(overview.unreadMessages, 'unread message', 'unread messages')}
              </p>
              <Link to="/admin/messages" className={`${link} mt-3 inline-block`}>
                Open Messages
              </Link>
            </section>
          )}
          {overview.subscribers && (
            <section aria-labelledby="subscribers-title" className={card}>
              <h2 id="subscribers-title" className="text-lg font-bold text-slate-900">
                Newsletter subscribers
              </h2>
              <p className="mt-2 text-2xl font-bold text-slate-900 md:text-3xl">
                {plural(overview.subscribers.recent, 'new subscriber', 'new subscribers')}
              </p>
              <p className="mt-1 text-slate-700">
                in the last {overview.subscribers.days} days, {overview.subscribers.total.toLocaleString('en-US')} in total.
              </p>
              <Link to="/admin/subscribers" className="mt-3 inline-block font-semibold text-indigo-800 underline">
                Open Subscribers
              </Link>
            </section>
          )}
        </div>
      )}

      {overview.events && (
        <section aria-labelledby="events-title" className={card}>
          <h2 id="events-title" className="text-lg font-bold text-slate-900">
            Events
          </h2>
          <p className="mt-2 text-2xl font-bold text-slate-900 md:text-3xl">
            {overview.events.upcoming === 0
              ? 'No upcoming events'
              : plural(overview.events.upcoming, 'upcoming event', 'upcoming events')}
          </p>
          <p className="mt-1 text-slate-700">
            {plural(overview.events.taken, 'place taken', 'places taken')}, {overview.events.waiting.toLocaleString('en-US')} on
            waiting lists.
          </p>
          <Link to="/admin/events" className={`${link} mt-3 inline-block`}>
            Open Events
          </Link>
        </section>
      )}

      {overview.latest && (
        <section aria-labelledby="latest-title" className={card}>
          <h2 id="latest-title" className="text-lg font-bold text-slate-900">
            Latest published
          </h2>
          {overview.latest.length === 0 ? (
            <p className="mt-2 text-slate-700">Nothing is published yet.</p>
          ) : (
            <ol className="mt-3 divide-y divide-slate-200">
              {overview.latest.map((item) => {
                const editable = canEdit && isDashboardCollection(item.collection);
                const publicPath = articlePath(item.collection, encodeURIComponent(item.id));
                return (
                  <li
                    key={item.id}
                    className="flex flex-col gap-1 py-3 sm:flex-row sm:items-baseline sm:justify-between sm:gap-4"
                  >
                    <div className="min-w-0">
                      <span className="mr-2 rounded-full bg-indigo-50 px-2 py-0.5 text-xs font-semibold text-indigo-900">
                        {KIND[item.collection]}
                      </span>
                      {editable ? (
                        <Link to={`/admin/content/${encodeURIComponent(item.id)}/edit`} className={`${link} break-words`}>
                          {item.title}
                          <span className="sr-only"> (edit)</span>
                        </Link>
                      ) : (
                        <a href={publicPath} className={`${link} break-words`}>
                          {item.title}
                        </a>
                      )}
                      <p className="mt-1 text-sm text-slate-700">
                        {item.author} · <time dateTime={item.publishedAt}>{formatDate(item.publishedAt, 'short')}</time>
                      </p>
                    </div>
                    {editable && (
                      <a
                        href={publicPath}
                        className="shrink-0 text-sm font-semibold text-indigo-800 underline underline-offset-4"
                      >
                        View<span className="sr-only"> {item.title}</span> on the website
                      </a>
                    )}
                  </li>
                );
              })}
            </ol>
          )}
        </section>
      )}
      {sections.length > 0 && (
        <nav aria-labelledby="sections-title" className={card}>
          <h2 id="sections-title" className="text-lg font-bold text-slate-900">
            Your sections
          </h2>
          <ul className="mt-3 flex flex-wrap gap-x-6 gap-y-2">
            {sections.map((section) => (
              <li key={section}>
                <Link to={SECTION_INFO[section].path} className={link}>
                  {SECTION_INFO[section].label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      )}
    </div>
  );
}
