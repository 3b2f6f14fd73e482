import { useRef, type ReactNode } from 'react';
import { NavLink, useLocation } from 'react-router';

// Issue 23: the dashboard's sections under a few headings. On a wide screen they stand in a column
// beside the page; on a phone they fold into a "Dashboard menu" that opens without JavaScript (a
// <details>), says which section is open, and closes again once a section is chosen. Only one of the
// two is displayed at any width, so assistive technology meets one "Dashboard sections" navigation.

export interface DashboardNavGroup {
  /** The heading; null for the overview, which stands above the groups. */
  label: string | null;
  links: { to: string; label: string; content: ReactNode; end?: boolean }[];
}

const LINK = 'block rounded-md px-3 py-2 font-semibold';
const CURRENT = 'bg-indigo-100 text-indigo-900';
const OTHER = 'text-slate-700 hover:bg-slate-100 hover:text-indigo-800';

function Groups({ groups, idPrefix, onNavigate }: { groups: DashboardNavGroup[]; idPrefix: string; onNavigate?: () => void }) {
  return (
    <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-1">
      {groups.map((group, index) => {
        const headingId = `${idPrefix}-group-${index}`;
        return (
          <div key={group.label ?? 'start'}>
            {group.label && (
              <p id={headingId} className="mb-1 px-3 text-xs font-bold tracking-wide text-slate-600 uppercase">
                {group.label}
              </p>
            )}
            <ul aria-labelledby={group.label ? headingId : undefined} className="space-y-1">
              {group.links.map((link) => (
                <li key={link.to}>
                  <NavLink
                    to={link.to}
                    end={link.end}
                    onClick={onNavigate}
                    className={({ isActive }) => `${LINK} ${isActive ? CURRENT : OTHER}`}
                  >
                    {link.content}
                  </NavLink>
                </li>
              ))}
            </ul>
          </div>
        );
      })}
    </div>
  );
}

/** The phone's menu: folded, naming the open section; closes when a section is chosen. */
export function DashboardMenu({ groups }: { groups: DashboardNavGroup[] }) {
  const details = useRef<HTMLDetailsElement>(null);
  const { pathname } = useLocation();
  const links = groups.flatMap((group) => group.links);
  const current = links
    .filter((link) => (link.end ? pathname === link.to : pathname === link.to || pathname.startsWith(`${link.to}/`)))
    .sort((a, b) => b.to.length - a.to.length)[0];
  return (
    <nav aria-label="Dashboard sections" className="mx-auto max-w-7xl px-4 pb-3 lg:hidden">
      <details ref={details} className="rounded-lg border-2 border-slate-300 bg-white">
        <summary className="flex cursor-pointer items-center justify-between gap-2 rounded-md px-4 py-3 font-semibold text-slate-900">
          <span>
            Dashboard menu
            {current && <span className="font-normal text-slate-700">: {current.label}</span>}
          </span>
          <span aria-hidden="true">▾</span>
        </summary>
        <div className="border-t border-slate-200 p-3">
          <Groups groups={groups} idPrefix="menu" onNavigate={() => details.current?.removeAttribute('open')} />
        </div>
      </details>
    </nav>
  );
}

/** The wide screen's column of sections. */
export function DashboardSidebar({ groups }: { groups: DashboardNavGroup[] }) {
  return (
    <nav aria-label="Dashboard sections" className="hidden w-56 shrink-0 py-8 lg:block">
      <Groups groups={groups} idPrefix="side" />
    </nav>
  );
}
