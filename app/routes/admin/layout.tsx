import { Outlet } from 'react-router';
import { adminAccessMiddleware } from '~/server/http/admin-access.server';
import { useFocusAfterNavigation } from '~/components/admin/focus-after-navigation';
import { DashboardError, dashboardErrorTitle } from '~/components/admin/dashboard-error';
import { dashboardMeta } from '~/lib/seo';
import { ADMIN_ACCESS } from './access';
import stylesheet from '~/styles/dashboard.css?url';
import type { Route } from './+types/layout';

// Wraps every /admin route (app/routes.ts). Its middleware is the one place that decides who may
// use which admin route (spec §6): the rules are in ./access.ts, and a route that declares none is
// refused. The route renders nothing of its own; it keeps the keyboard's place from page to page.

export const middleware: Route.MiddlewareFunction[] = [adminAccessMiddleware(ADMIN_ACCESS)];

/** The title of a refusal or failure shown here (a screen below names its own). */
export const meta: Route.MetaFunction = ({ error }) => dashboardMeta(error ? dashboardErrorTitle(error) : 'Dashboard');

/** The dashboard's own stylesheet: the public site's classes and its own (issue 24). */
export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: stylesheet }];

export const headers = () => ({ 'Cache-Control': 'no-store' });

export default function AdminLayout() {
  useFocusAfterNavigation();
  return <Outlet />;
}

/** Refusals thrown by the middleware (403, with the dashboard's frame for a restricted section) land here. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <DashboardError error={error} />;
}
