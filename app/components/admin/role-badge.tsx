import { ROLE_INFO, type Role } from '~/lib/permissions';

export function RoleBadge({ role }: { role: Role }) {
  return (
    <span className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ${ROLE_INFO[role].badge}`}>{role}</span>
  );
}
