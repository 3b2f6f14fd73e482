import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';

/**
 * spec §2: a bar at the top showing how far the page is scrolled. Decorative (aria-hidden): a
 * progressbar that changes on every scroll would make some screen readers beep or speak without end,
 * and they have their own ways to tell the reading position (docs/decisions/203-article-page-ui.md).
 * It is updated outside React, once per frame, so scrolling stays smooth on slow phones.
 */
export function ReadingProgress() {
  const bar = useRef<HTMLDivElement>(null);
  const { pathname } = useLocation();

  useEffect(() => {
    let frame = 0;
    const update = () => {
      frame = 0;
      const el = bar.current;
      if (!el) return;
      const max = document.documentElement.scrollHeight - window.innerHeight;
      const ratio = max > 0 ? Math.min(1, Math.max(0, window.scrollY / max)) : 1;
      el.style.transform = `scaleX(${ratio})`;
      el.dataset.progress = String(Math.round(ratio * 100));
    };
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(update);
    };
    update();
    window.addEventListener('scroll', schedule, { passive: true });
    window.addEventListener('resize', schedule);
    return () => {
      window.removeEventListener('scroll', schedule);
      window.removeEventListener('resize', schedule);
      if (frame) cancelAnimationFrame(frame);
    };
  }, [pathname]);

  return (
    <div aria-hidden="true" className="pointer-events-none fixed inset-x-0 top-0 z-50 h-1">
      <div
        ref={bar}
        data-reading-progress=""
        data-progress="0"
        className="h-full origin-left bg-amber-400"
        style={{ transform: 'scaleX(0)' }}
      />
    </div>
  );
}
