import { Form, Link } from 'react-router';
import { useEffect, type ReactNode } from 'react';
import { MAIL_OFF_NOTICE } from '~/lib/messages';
import type { DashboardFrameData } from '~/lib/permissions';
import { MessagesTabLabel } from './message-status';
import { Banner } from './banner';
import { RoleBadge } from './role-badge';
import { DashboardMenu, DashboardSidebar, type DashboardNavGroup } from './dashboard-nav';
import { ToastProvider, useToast, type ToastType } from '../toast';
import { useHydrated } from '~/lib/use-hydrated';

/** spec §9: dashboard toasts close after 6 seconds. */
const DASHBOARD_TOAST_MS = 6000;

/**
 * The dashboard around a section: the header (who is signed in, My profile, View website, Logout),
 * the grouped navigation, and the section itself. A section the role may not use is shown in the same
 * frame, with "Access Restricted" in place of the section (app/routes/admin/layout.tsx).
 */
export function DashboardFrame({
  frame,
  flash,
  children,
}: {
  frame: DashboardFrameData;
  flash?: { type: ToastType; message: string; toast?: boolean } | null;
  children: ReactNode;
}) {
  const { user, groups, unreadMessages, mailOff } = frame;
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
            {mailOff && (
              <p className="mb-6 rounded-lg border-l-4 border-amber-600 bg-amber-50 p-4 text-amber-950">{MAIL_OFF_NOTICE}</p>
            )}
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
            {children}
          </main>
        </div>
      </div>
    </ToastProvider>
  );
}

/** Shows a message carried across a redirect as a toast, once. */
function FlashToast({ type, message }: { type: ToastType; message: string }) {
  const toast = useToast();
  useEffect(() => {
    toast(type, message);
  }, [toast, type, message]);
  return null;
}
