import { NavList } from '../nav-list';

/** spec §2: User Management's three views. */
const USER_VIEWS = [
  { to: '/admin/users', label: 'Manage Users', end: true },
  { to: '/admin/users/new', label: 'Add New User', end: true },
  { to: '/admin/users/roles', label: 'Role Information', end: true },
] as const;

export function UserSubnav() {
  return (
    <NavList
      label="User management"
      className="mb-6"
      listClassName="flex flex-wrap gap-2"
      links={USER_VIEWS}
      look={{
        base: 'inline-block rounded-full px-4 py-2 font-semibold',
        current: 'bg-indigo-800 text-white',
        other: 'bg-white text-indigo-900 ring-1 ring-slate-300 hover:bg-indigo-50',
      }}
    />
  );
}
