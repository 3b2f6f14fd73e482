import { data, Outlet, type ShouldRevalidateFunctionArgs } from 'react-router';
import { getStaff } from '~/server/http/staff-context.server';
import { readFlash } from '~/server/http/flash.server';
import { dashboardFrame } from '~/server/http/dashboard-frame.server';
import { DashboardError, dashboardErrorTitle } from '~/components/admin/dashboard-error';
import { dashboardMeta } from '~/lib/seo';
import { DashboardFrame } from '~/components/admin/dashboard-frame';
import type { Route } from './+types/dashboard';

/** The title of a refusal or failure shown here (a screen below names its own). */
export const meta: Route.MetaFunction = ({ error }) => dashboardMeta(error ? dashboardErrorTitle(error) : 'Dashboard');
export const headers = () => ({ 'Cache-Control': 'no-store' });

export async function loader({ request, context }: Route.LoaderArgs) {
  const { flash, clear } = readFlash(request);
  const frame = await dashboardFrame(getStaff(context));
  return data({ frame, flash }, clear ? { headers: { 'Set-Cookie': clear } } : undefined);
}

/** Opening a message changes the unread count without an action: count again on every inbox page. */
export function shouldRevalidate({ nextUrl, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return defaultShouldRevalidate || nextUrl.pathname.startsWith('/admin/messages');
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  return (
    <DashboardFrame frame={loaderData.frame} flash={loaderData.flash}>
      <Outlet />
    </DashboardFrame>
  );
}

/** A refused or missing dashboard page (403, 404) or a failure, without losing the way back. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <DashboardError error={error} />;
}
