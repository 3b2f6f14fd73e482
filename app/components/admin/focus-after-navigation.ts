import { useEffect, useRef } from 'react';
import { useNavigation } from 'react-router';

/** Whether `element` is still on the page and shown (a link in a menu that closed is hidden, not gone). */
function stillThere(element: Element): boolean {
  return element.isConnected && (!(element instanceof HTMLElement) || element.checkVisibility());
}

/**
 * After a move in the dashboard (a link followed, a form that moved on or redrew its page), the
 * keyboard's place is kept: if the control that had the focus when the move began is gone with the
 * old page, or hidden, the new page's heading takes the focus, as a page just opened starts at its
 * top, so a screen reader says where they are and Tab goes on from there. A field the page focused
 * itself (the first one to fix) keeps it; a click that focused nothing (Safari) moves nothing.
 * Used by the admin layout, which stays when a page below it is refused or missing.
 */
export function useFocusAfterNavigation(): void {
  const busy = useNavigation().state !== 'idle';
  const focusedAtStart = useRef<Element | null>(null);
  useEffect(() => {
    if (busy) {
      focusedAtStart.current ??= document.activeElement === document.body ? null : document.activeElement;
      return;
    }
    const before = focusedAtStart.current;
    focusedAtStart.current = null;
    if (!before || stillThere(before)) return;
    const now = document.activeElement;
    if (now && now !== document.body && now !== before && stillThere(now)) return;
    const heading = document.querySelector<HTMLElement>('#main h1');
    if (!heading) return;
    if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
    heading.focus();
  }, [busy]);
}
