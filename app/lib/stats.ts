// spec §3 Stat item and §9 business constants: the organisation's own figures on the home page. Staff
// change them in Site settings (app/lib/site-settings.ts); these are the figures until they do.

export interface Stat {
  number: number;
  suffix: string;
  label: string;
}

/** spec §9: the stats strip, in this order; the first one is also the mission section's counter (§2 item 2). */
export const STATS: readonly Stat[] = [
  { number: 500, suffix: '+', label: 'Lives Impacted' },
  { number: 50, suffix: '+', label: 'Workshops Conducted' },
  { number: 25, suffix: '+', label: 'Partner Organizations' },
  { number: 100, suffix: '%', label: 'Commitment to Change' },
];

/** spec §9: counters run for 2000 ms in 16 ms steps once 30% of them is visible. */
export const COUNTER_DURATION_MS = 2000;
export const COUNTER_STEP_MS = 16;
export const COUNTER_VISIBLE_THRESHOLD = 0.3;

/**
 * The values a counter shows, one per step: 2000 / 16 = 125 steps rising evenly from 0 and
 * ending exactly at the target.
 */
export function counterSteps(target: number, durationMs = COUNTER_DURATION_MS, stepMs = COUNTER_STEP_MS): number[] {
  const steps = Math.max(1, Math.ceil(durationMs / stepMs));
  return Array.from({ length: steps }, (_, i) => Math.round((target * (i + 1)) / steps));
}

/** A figure as shown: thousands separated (1,000,000+), then its suffix. */
export function formatStat(value: number, suffix: string): string {
  return `${value.toLocaleString('en-US')}${suffix}`;
}
