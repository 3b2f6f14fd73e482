import type { ReactNode } from 'react';
import { NavLink } from 'react-router';

// One way to draw a list of navigation links (the site's header and menu, the dashboard's tabs and
// User Management's views): a labelled nav, a list, and a NavLink a link whose look says which is current.

export interface NavItem {
  to: string;
  /** Text, or text with a badge (the dashboard's Messages tab and its unread count). */
  label: ReactNode;
  /** Current only on exactly this address, not below it. */
  end?: boolean;
}

interface NavListProps {
  /** The nav's accessible name. */
  label: string;
  className?: string;
  listClassName: string;
  links: readonly NavItem[];
  /** The links' classes: always, on the current page's link, on the others. */
  look: { base: string; current: string; other: string };
  /** Called when a link is chosen (the mobile menu closes). */
  onNavigate?: () => void;
  /**
   * On a public page, which loads no router script (decision 025): the page's path. The links are
   * then plain anchors, and the one whose path this is, or is below, is the current one (issue 29:
   * no route resolution per link).
   */
  pagePath?: string;
}

/** As React Router's NavLink decides it: this path, or (unless `end`) a path below it, letter case aside. */
export function isCurrentPath(pagePath: string, to: string, end = false): boolean {
  const page = pagePath.toLowerCase();
  const target = to.toLowerCase();
  if (page === target) return true;
  if (end) return false;
  const base = target !== '/' && target.endsWith('/') ? target.slice(0, -1) : target;
  return page.startsWith(target) && page.charAt(base.length) === '/';
}

export function NavList({ label, className, listClassName, links, look, onNavigate, pagePath }: NavListProps) {
  return (
    <nav aria-label={label} className={className}>
      <ul className={listClassName}>
        {links.map((link) => {
          const current = pagePath !== undefined && isCurrentPath(pagePath, link.to, link.end);
          return (
            <li key={link.to}>
              {pagePath === undefined ? (
                <NavLink
                  to={link.to}
                  end={link.end}
                  onClick={onNavigate}
                  className={({ isActive }) => `${look.base} ${isActive ? look.current : look.other}`}
                >
                  {link.label}
                </NavLink>
              ) : (
                <a
                  href={link.to}
                  aria-current={current ? 'page' : undefined}
                  className={`${look.base} ${current ? look.current : look.other}`}
                >
                  {link.label}
                </a>
              )}
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
