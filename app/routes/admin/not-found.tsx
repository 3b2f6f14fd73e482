import { data } from 'react-router';
import { PAGE_NOT_FOUND } from '~/components/admin/dashboard-error';
import { NoticePanel } from '~/components/admin/notice-panel';
import { dashboardMeta } from '~/lib/seo';
import type { Route } from './+types/not-found';

export const meta: Route.MetaFunction = () => dashboardMeta(PAGE_NOT_FOUND.title);

export function loader() {
  return data(null, { status: 404 });
}

/** A post to an admin address that does not exist (an old endpoint, a typo) is told so: 404. */
export function action() {
  return data(null, { status: 404 });
}

export default function AdminNotFound() {
  return <NoticePanel title={PAGE_NOT_FOUND.title} message={PAGE_NOT_FOUND.message} />;
}
