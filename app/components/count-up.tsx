import { useEffect, useRef, useState } from 'react';
import { COUNTER_DURATION_MS, COUNTER_STEP_MS, COUNTER_VISIBLE_THRESHOLD, counterSteps, formatStat } from '~/lib/stats';

// Counters that have already run in this visit: spec §4 says they do not run again, also when a
// visitor comes back to the page without reloading it.
const played = new Set<string>();

/**
 * 'final': the server-rendered final value (no JavaScript, reduced motion, already seen, or already
 * on screen when the page became interactive). 'waiting': reset to 0 below the fold until 30% of it
 * is visible. 'running': counting up. 'done': finished.
 */
type CounterState = 'final' | 'waiting' | 'running' | 'done';

export interface CountUpProps {
  target: number;
  suffix: string;
  /** Remembers that this counter has run; unique on the site. */
  id: string;
  className?: string;
}

/**
 * spec §4, §9: counts from 0 to the target over 2000 ms in 16 ms steps, once, when 30% of it is
 * visible. The HTML holds the final value, so crawlers and visitors without JavaScript see it;
 * screen readers read only the final value, never the ticking numbers (docs/decisions/302).
 */
export function CountUp({ target, suffix, id, className = '' }: CountUpProps) {
  const [state, setState] = useState<CounterState>('final');
  const [value, setValue] = useState(target);
  const ref = useRef<HTMLSpanElement>(null);

  useEffect(() => {
    const el = ref.current;
    if (!el || played.has(id)) return;
    if (typeof IntersectionObserver === 'undefined' || window.matchMedia('(prefers-reduced-motion: reduce)').matches) {
      played.add(id);
      return;
    }
    let timer: ReturnType<typeof setInterval> | undefined;
    let first = true;
    const visible = (entry: IntersectionObserverEntry) =>
      entry.isIntersecting && entry.intersectionRatio >= COUNTER_VISIBLE_THRESHOLD - 0.01;

    const observer = new IntersectionObserver(
      ([entry]) => {
        if (!entry) return;
        if (first) {
          first = false;
          // Already on screen: the visitor has seen the number, so do not take it away again.
          if (visible(entry)) {
            played.add(id);
            observer.disconnect();
          } else {
            setValue(0);
            setState('waiting');
          }
          return;
        }
        if (!visible(entry)) return;
        observer.disconnect();
        played.add(id);
        const steps = counterSteps(target);
        const start = performance.now();
        setState('running');
        // The step follows the clock, so a busy phone that misses ticks still finishes on time.
        timer = setInterval(() => {
          const index = Math.min(steps.length, Math.floor((performance.now() - start) / COUNTER_STEP_MS));
          if (index > 0) setValue(steps[index - 1] ?? target);
          if (index >= steps.length) {
            clearInterval(timer);
            setState('done');
          }
        }, COUNTER_STEP_MS);
      },
      { threshold: COUNTER_VISIBLE_THRESHOLD },
    );
    observer.observe(el);
    return () => {
      observer.disconnect();
      if (timer) clearInterval(timer);
    };
  }, [id, target]);

  const final = formatStat(target, suffix);
  return (
    <span
      ref={ref}
      className={`inline-grid tabular-nums ${className}`}
      data-counter={state}
      data-counter-id={id}
      data-target={target}
      data-suffix={suffix}
      data-duration-ms={COUNTER_DURATION_MS}
      data-step-ms={COUNTER_STEP_MS}
      data-threshold={COUNTER_VISIBLE_THRESHOLD}
    >
      {/* The final value reserves the width, so the layout does not move while counting. */}
      <span aria-hidden="true" className="invisible col-start-1 row-start-1">
        {final}
      </span>
      <span aria-hidden="true" className="col-start-1 row-start-1">
        {formatStat(value, suffix)}
      </span>
      <span className="sr-only">{final}</span>
    </span>
  );
}
