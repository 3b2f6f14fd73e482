import { isRouteErrorResponse } from 'react-router';
import { ACCESS_RESTRICTED_TITLE } from './access-restricted';
import { NoticePanel } from './notice-panel';

/** What the dashboard says of an address it does not have. */
export const PAGE_NOT_FOUND = { title: 'Page Not Found', message: 'This dashboard page does not exist.' };

/** A refused or missing dashboard page (403, 404) or a failure, without losing the way back. */
export function DashboardError({ error }: { error: unknown }) {
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const detail =
    isRouteErrorResponse(error) && error.data && typeof error.data === 'object' && 'error' in error.data
      ? String(error.data.error)
      : null;
  const title = status === 403 ? ACCESS_RESTRICTED_TITLE : status === 404 ? PAGE_NOT_FOUND.title : 'Something went wrong';
  const text = detail ?? (status === 404 ? PAGE_NOT_FOUND.message : 'Sorry, the dashboard had a problem. Please try again.');
  return (
    <main id="main" className="flex min-h-screen items-center justify-center bg-slate-50 px-4">
      <NoticePanel className="max-w-xl" title={title} message={text} />
    </main>
  );
}
