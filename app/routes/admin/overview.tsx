import { getStaff } from '~/server/staff-context.server';
import { ROLE_INFO, SECTION_INFO } from '~/lib/permissions';
import { Link } from 'react-router';
import type { Route } from './+types/overview';

export function loader({ context }: Route.LoaderArgs) {
  const user = getStaff(context);
  return { role: user.role, name: user.name };
}

/** The dashboard home for every role; the only page of a VIEWER (spec §6 "dashboard only"). */
export default function Overview({ loaderData }: Route.ComponentProps) {
  const info = ROLE_INFO[loaderData.role];
  return (
    <section aria-labelledby="overview-title" className="rounded-2xl border border-slate-200 bg-white p-8 shadow-sm">
      <h1 id="overview-title" className="text-2xl font-bold text-slate-900">
        Dashboard
      </h1>
      <p className="mt-3 text-slate-700">
        You are signed in as {info.label}: {info.description.toLowerCase()}.
      </p>
      {info.sections.length > 0 ? (
        <ul className="mt-6 flex flex-wrap gap-3">
          {info.sections.map((section) => (
            <li key={section}>
              <Link
                to={SECTION_INFO[section].path}
                className="inline-block rounded-lg bg-indigo-800 px-4 py-2 font-semibold text-white hover:bg-indigo-900"
              >
                {SECTION_INFO[section].label}
              </Link>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-3 text-slate-700">
          Your role can view the dashboard only. To write or manage content, ask the super admin for a different role. You can
          still edit your own{' '}
          <Link to="/admin/profile" className="font-semibold text-indigo-800 underline">
            profile
          </Link>
          .
        </p>
      )}
    </section>
  );
}
