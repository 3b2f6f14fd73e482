import { useMatches } from 'react-router';
import { RoleInformation } from '~/components/admin/role-information';
import { UserSubnav } from '~/components/admin/user-subnav';
import type { Route } from './+types/roles';
import { dashboardMeta } from '~/lib/seo';

export const meta: Route.MetaFunction = () => dashboardMeta('Role Information');

// Serves both the Role Information tab (/admin/roles) and User Management's third view (/admin/users/roles).
// The loader sends nothing: it is there so that every visit, in the browser too, passes the admin
// middleware, which answers a role without Role Information with "Access Restricted" (./access.ts).
export function loader() {
  return null;
}

export default function Roles(_: Route.ComponentProps) {
  const inUserManagement = useMatches().some((m) => m.id === 'user-roles');
  return (
    <>
      {inUserManagement && <UserSubnav />}
      <RoleInformation />
    </>
  );
}
