import { data, Form, Link, Outlet, type ShouldRevalidateFunctionArgs } from 'react-router';
import { getStaff } from '~/server/http/staff-context.server';
import { readFlash } from '~/server/http/flash.server';
import { can, SECTION_INFO, sectionGroupsFor } from '~/lib/permissions';
import { countUnreadMessages } from '~/server/inbox/messages.server';
import { MessagesTabLabel } from '~/components/admin/message-status';
import { Banner } from '~/components/admin/banner';
import { DashboardError } from '~/components/admin/dashboard-error';
import { useHydrated } from '~/lib/use-hydrated';
import { RoleBadge } from '~/components/admin/role-badge';
import { DashboardMenu, DashboardSidebar, type DashboardNavGroup } from '~/components/admin/dashboard-nav';
import { ToastProvider, useToast, type ToastType } from '~/components/toast';
import { useEffect } from 'react';
import type { Route } from './+types/dashboard';

export const meta: Route.MetaFunction = () => [{ title: 'Dashboard | TDG Uganda' }, { name: 'robots', content: 'noindex' }];
export const headers = () => ({ 'Cache-Control': 'no-store' });

/** spec §9: dashboard toasts close after 6 seconds. */
const DASHBOARD_TOAST_MS = 6000;

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = getStaff(context);
  const { flash, clear } = readFlash(request);
  const groups = sectionGroupsFor(user.role).map((group) => ({
    label: group.label,
    sections: group.sections.map((section) => ({ section, ...SECTION_INFO[section] })),
  }));
  // The Messages tab's count of unread (New) messages, only for the roles that manage the inbox.
  const unreadMessages = can(user.role, 'messages:manage') ? await countUnreadMessages() : 0;
  return data(
    {
      user: { id: user.id, name: user.name, email: user.email, role: user.role },
      groups,
      unreadMessages,
      flash,
    },
    clear ? { headers: { 'Set-Cookie': clear } } : undefined,
  );
}

/** Opening a message changes the unread count without an action: count again on every inbox page. */
export function shouldRevalidate({ nextUrl, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return defaultShouldRevalidate || nextUrl.pathname.startsWith('/admin/messages');
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { user, groups, unreadMessages, flash } = loaderData;
  const nav: DashboardNavGroup[] = groups.map((group) => ({
    label: group.label,
    links: group.sections.map((tab) => ({
      to: tab.path,
      label: tab.label,
      content: tab.section === 'messages' ? <MessagesTabLabel label={tab.label} unread={unreadMessages} /> : tab.label,
      end: tab.path === '/admin/content',
    })),
  }));
  const hydrated = useHydrated();
  return (
    <ToastProvider lifetime={DASHBOARD_TOAST_MS}>
      <a
        href="#main"
        className="sr-only z-[60] rounded-md bg-white px-4 py-3 font-semibold text-indigo-900 focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to main content
      </a>
      <div className="min-h-screen bg-slate-50">
        <header className="border-b border-slate-200 bg-white">
          <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-4 px-4 py-4">
            <div className="flex min-w-0 items-center gap-4">
              <Link to="/" className="shrink-0 rounded" aria-label="TDG Uganda website">
                <img src="/logo.svg" alt="" width={150} height={40} className="h-9 w-auto" />
              </Link>
              <div className="min-w-0">
                <p className="text-lg font-bold break-words text-slate-900">Welcome, {user.name}</p>
                <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm break-all text-slate-600">
                  {user.email} <RoleBadge role={user.role} />
                </p>
              </div>
            </div>
            <div className="flex flex-wrap items-center gap-2">
              <Link to="/admin/profile" className="rounded-lg px-3 py-2 font-medium text-indigo-800 hover:bg-indigo-50">
                My profile
              </Link>
              <Link to="/" className="rounded-lg px-3 py-2 font-medium text-indigo-800 hover:bg-indigo-50">
                View website
              </Link>
              <Form method="post" action="/admin/logout">
                <button
                  type="submit"
                  className="rounded-lg border-2 border-slate-300 px-4 py-2 font-semibold text-slate-800 hover:bg-slate-100"
                >
                  Logout
                </button>
              </Form>
            </div>
          </div>
          <DashboardMenu groups={nav} />
        </header>
        <div className="mx-auto flex max-w-7xl gap-8 px-4">
          <DashboardSidebar groups={nav} />
          <main id="main" tabIndex={-1} className="min-w-0 flex-1 py-8 outline-none">
            {flash && flash.toast && hydrated ? (
              <FlashToast type={flash.type} message={flash.message} />
            ) : (
              flash && (
                // Without JavaScript a toast cannot show, so the same message comes as a banner.
                <div className="mb-6">
                  <Banner key={flash.message} type={flash.type} message={flash.message} />
                </div>
              )
            )}
            <Outlet />
          </main>
        </div>
      </div>
    </ToastProvider>
  );
}

/** A refused or missing dashboard page (403, 404) or a failure, without losing the way back. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <DashboardError error={error} />;
}

/** Shows a message carried across a redirect as a toast, once. */
function FlashToast({ type, message }: { type: ToastType; message: string }) {
  const toast = useToast();
  useEffect(() => {
    toast(type, message);
  }, [toast, type, message]);
  return null;
}
