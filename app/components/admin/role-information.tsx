import { PERMISSION_TEXT, ROLE_INFO, ROLES, SECTION_INFO, sectionsBeyondOverview } from '~/lib/permissions';
import { RoleBadge } from './role-badge';

/** spec §2/§6: each role with its permissions, colour, description and sections. */
export function RoleInformation() {
  return (
    <>
      <h1 className="text-2xl font-bold text-slate-900">Role Information</h1>
      <ul className="mt-6 grid gap-6 md:grid-cols-2">
        {ROLES.map((role) => {
          const info = ROLE_INFO[role];
          return (
            <li key={role} className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
              <h2 className="flex items-center gap-3 text-lg font-bold text-slate-900">
                {info.label} <RoleBadge role={role} />
              </h2>
              <p className="mt-2 text-slate-700">{info.description}</p>
              <h3 className="mt-4 text-sm font-semibold tracking-wide text-slate-600 uppercase">Permissions</h3>
              <ul className="mt-2 flex flex-wrap gap-2">
                {info.specPermissions.map((p) => (
                  <li key={p} className="rounded-md bg-slate-100 px-2 py-1 font-mono text-sm text-slate-800">
                    {p}
                  </li>
                ))}
              </ul>
              <h3 className="mt-4 text-sm font-semibold tracking-wide text-slate-600 uppercase">What it can do</h3>
              <ul className="mt-2 list-disc space-y-1 pl-5 text-slate-800">
                {info.permissions.map((permission) => (
                  <li key={permission}>{PERMISSION_TEXT[permission]}</li>
                ))}
              </ul>
              <h3 className="mt-4 text-sm font-semibold tracking-wide text-slate-600 uppercase">Dashboard sections</h3>
              <p className="mt-2 text-slate-800">
                {sectionsBeyondOverview(info.sections)
                  .map((s) => SECTION_INFO[s].label)
                  .join(', ') || 'Dashboard only'}
              </p>
            </li>
          );
        })}
      </ul>
    </>
  );
}
