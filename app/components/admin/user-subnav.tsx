import { NavLink } from 'react-router';

/** spec §2: User Management's three views. */
export function UserSubnav() {
  const links = [
    { to: '/admin/users', label: 'Manage Users', end: true },
    { to: '/admin/users/new', label: 'Add New User', end: true },
    { to: '/admin/users/roles', label: 'Role Information', end: true },
  ];
  return (
    <nav aria-label="User management" className="mb-6">
      <ul className="flex flex-wrap gap-2">
        {links.map((link) => (
          <li key={link.to}>
            <NavLink
              to={link.to}
              end={link.end}
              className={({ isActive }) =>
                `inline-block rounded-full px-4 py-2 font-semibold ${isActive ? 'bg-indigo-800 text-white' : 'bg-white text-indigo-900 ring-1 ring-slate-300 hover:bg-indigo-50'}`
              }
            >
              {link.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
