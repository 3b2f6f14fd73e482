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
}

export function NavList({ label, className, listClassName, links, look, onNavigate }: NavListProps) {
  return (
    <nav aria-label={label} className={className}>
      <ul className={listClassName}>
        {links.map((link) => (
          <li key={link.to}>
            <NavLink
              to={link.to}
              end={link.end}
              onClick={onNavigate}
              className={({ isActive }) => `${look.base} ${isActive ? look.current : look.other}`}
            >
              {link.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
