import { useEffect, useRef } from 'react';
import { useLocation, useNavigation } from 'react-router';

/** Whether `element` is still on the page and shown (a link in a menu that closed is hidden, not gone). */
function stillThere(element: Element): boolean {
  return element.isConnected && (!(element instanceof HTMLElement) || element.checkVisibility());
}

/**
 * After a move to another dashboard page (a link followed, a form that moved on), the keyboard's
 * place is kept: if the control that had the focus when the move began is gone with the old page,
 * or hidden (a menu that closed), the new page's heading takes the focus, as a page just opened
 * starts at its top, so a screen reader says where they are and Tab goes on from there. A field the
 * page focused itself (the first one to fix) keeps it; a click that focused nothing (Safari) moves
 * nothing; a form answered on its own page keeps its answer beside it (the page places the focus).
 * Used by the admin layout, which stays when a page below it is refused or missing.
 */
export function useFocusAfterNavigation(): void {
  const busy = useNavigation().state !== 'idle';
  const { pathname } = useLocation();
  const atStart = useRef<{ focused: Element | null; pathname: string } | null>(null);
  useEffect(() => {
    if (busy) {
      atStart.current ??= { focused: document.activeElement === document.body ? null : document.activeElement, pathname };
      return;
    }
    const start = atStart.current;
    atStart.current = null;
    const before = start?.focused;
    if (!start || start.pathname === pathname || !before || stillThere(before)) return;
    const now = document.activeElement;
    if (now && now !== document.body && now !== before && stillThere(now)) return;
    const heading = document.querySelector<HTMLElement>('#main h1');
    if (!heading) return;
    if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
    heading.focus();
  }, [busy, pathname]);
}
