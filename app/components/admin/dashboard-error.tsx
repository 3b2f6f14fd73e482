import { isRouteErrorResponse } from 'react-router';
import type { DashboardFrameData } from '~/lib/permissions';
import { AccessRestricted, ACCESS_RESTRICTED_TITLE } from './access-restricted';
import { DashboardFrame } from './dashboard-frame';
import { NoticePanel } from './notice-panel';

/** What the dashboard says of an address it does not have. */
export const PAGE_NOT_FOUND = { title: 'Page Not Found', message: 'This dashboard page does not exist.' };

/** The heading of what DashboardError shows for `error`, which is also the page's title. */
export function dashboardErrorTitle(error: unknown): string {
  const status = isRouteErrorResponse(error) ? error.status : 500;
  return status === 403 ? ACCESS_RESTRICTED_TITLE : status === 404 ? PAGE_NOT_FOUND.title : 'Something went wrong';
}

/**
 * A refused or missing dashboard page (403, 404) or a failure, without losing the way back. A section
 * the role may not use (the admin middleware sends the dashboard's frame with it) shows spec §2's
 * "Access Restricted" inside the dashboard, with the role's own navigation.
 */
export function DashboardError({ error }: { error: unknown }) {
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const body: unknown = isRouteErrorResponse(error) ? error.data : null;
  const detail = body && typeof body === 'object' && 'error' in body ? String(body.error) : null;
  if (status === 403 && detail && body && typeof body === 'object' && 'frame' in body)
    return (
      <DashboardFrame frame={body.frame as DashboardFrameData}>
        <AccessRestricted message={detail} />
      </DashboardFrame>
    );
  const title = dashboardErrorTitle(error);
  const text = detail ?? (status === 404 ? PAGE_NOT_FOUND.message : 'Sorry, the dashboard had a problem. Please try again.');
  return (
    <main id="main" className="flex min-h-screen items-center justify-center bg-slate-50 px-4">
      <NoticePanel className="max-w-xl" title={title} message={text} />
    </main>
  );
}
