import { data, useMatches } from 'react-router';
import { getStaff, isAllowed } from '~/server/http/staff-context.server';
import { accessRestrictedText } from '~/lib/permissions';
import { AccessRestricted } from '~/components/admin/access-restricted';
import { RoleInformation } from '~/components/admin/role-information';
import { UserSubnav } from '~/components/admin/user-subnav';
import type { Route } from './+types/roles';

// Serves both the Role Information tab (/admin/roles) and User Management's third view (/admin/users/roles).
export function loader({ context }: Route.LoaderArgs) {
  if (!isAllowed(context)) return data({ restricted: accessRestrictedText(getStaff(context).role) }, { status: 403 });
  return { restricted: null };
}

export default function Roles({ loaderData }: Route.ComponentProps) {
  const inUserManagement = useMatches().some((m) => m.id === 'user-roles');
  if (loaderData.restricted) return <AccessRestricted message={loaderData.restricted} />;
  return (
    <>
      {inUserManagement && <UserSubnav />}
      <RoleInformation />
    </>
  );
}
