import { z } from 'zod';
import { STAFF_LANGUAGE_NAMES } from './languages.ts';

// Issue 28: the Analytics screen's ranges, limits and words, shared by the screen and the services
// (docs/decisions/029-privacy-first-visit-counts.md).

export const ANALYTICS_RANGES = ['7d', '30d', '12m', 'custom'] as const;
export type AnalyticsRange = (typeof ANALYTICS_RANGES)[number];
export const RANGE_LABELS: Record<AnalyticsRange, string> = {
  '7d': 'Last 7 days',
  '30d': 'Last 30 days',
  '12m': 'Last 12 months',
  custom: 'Custom',
};

/** The longest custom range (a little over two years of days). */
export const MAX_RANGE_DAYS = 800;

export const ANALYTICS_RETENTION = { minMonths: 1, maxMonths: 120, defaultMonths: 25 } as const;

export const ANALYTICS_TEXT = {
  badDate: 'Please enter dates as YYYY-MM-DD, the first no later than the second.',
  rangeTooLong: `Please choose at most ${MAX_RANGE_DAYS} days.`,
  retentionInvalid: `Please enter a whole number of months from ${ANALYTICS_RETENTION.minMonths} to ${ANALYTICS_RETENTION.maxMonths}.`,
  retentionSaved: (months: number) => `Daily visit counts are now kept for ${months === 1 ? '1 month' : `${months} months`}.`,
  onlyAdmins: 'Only an Admin or the Super Admin can change how long visit counts are kept.',
} as const;

export interface DayRange {
  range: AnalyticsRange;
  /** YYYY-MM-DD, inclusive, UTC. */
  from: string;
  to: string;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar day as YYYY-MM-DD, or undefined. */
export function parseDay(text: string | null | undefined): string | undefined {
  const match = DAY.exec(text?.trim() ?? '');
  if (!match) return undefined;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toISOString().slice(0, 10) === match[0] ? match[0] : undefined;
}

export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** The range a query string asks for; `error` says what was wrong (the last 30 days are shown then). */
export function rangeOf(params: URLSearchParams, now = Date.now()): DayRange & { error?: string } {
  const today = new Date(now).toISOString().slice(0, 10);
  const asked = params.get('range') ?? '30d';
  const range = (ANALYTICS_RANGES as readonly string[]).includes(asked) ? (asked as AnalyticsRange) : '30d';
  if (range === '7d') return { range, from: addDays(today, -6), to: today };
  if (range === '12m') return { range, from: addDays(today, -364), to: today };
  if (range === 'custom') {
    const from = parseDay(params.get('from'));
    const to = parseDay(params.get('to'));
    if (!from || !to || from > to) return { range: '30d', from: addDays(today, -29), to: today, error: ANALYTICS_TEXT.badDate };
    if (daysBetween(from, to) + 1 > MAX_RANGE_DAYS)
      return { range: '30d', from: addDays(today, -29), to: today, error: ANALYTICS_TEXT.rangeTooLong };
    return { range, from, to };
  }
  return { range: '30d', from: addDays(today, -29), to: today };
}

export const DEVICE_LABELS: Record<string, string> = { phone: 'Phone', tablet: 'Tablet', desktop: 'Desktop' };
export const LANGUAGE_LABELS: Readonly<Record<string, string>> = STAFF_LANGUAGE_NAMES;

function buildRetentionSchema() {
  return z.object({
    intent: z.literal('retention'),
    months: z
      .string()
      .trim()
      .regex(/^\d{1,3}$/, ANALYTICS_TEXT.retentionInvalid)
      .transform(Number)
      .pipe(
        z
          .number()
          .int()
          .min(ANALYTICS_RETENTION.minMonths, ANALYTICS_TEXT.retentionInvalid)
          .max(ANALYTICS_RETENTION.maxMonths, ANALYTICS_TEXT.retentionInvalid),
      ),
  });
}
export const analyticsRetentionSchema = /* @__PURE__ */ buildRetentionSchema();

/** One row of a "top" table. */
export interface TopRow {
  label: string;
  /** A link to the item's edit screen or the page, when there is one. */
  href?: string | undefined;
  views: number;
  visits: number;
}

export interface SeriesPoint {
  /** YYYY-MM-DD, or YYYY-MM for a monthly series. */
  period: string;
  views: number;
  visits: number;
  visitors: number;
}

export interface AnalyticsReport {
  range: DayRange;
  /** Everything (ADMIN and above) or the signed-in editor's own items. */
  scope: 'site' | 'own';
  byMonth: boolean;
  series: SeriesPoint[];
  totals: { views: number; visits: number; visitors: number };
  topItems: TopRow[];
  referrers: TopRow[];
  languages: TopRow[];
  devices: TopRow[];
  campaigns: TopRow[];
  saveData: { on: number; off: number };
  video: {
    label: string;
    href?: string | undefined;
    plays: number;
    quarter: number;
    half: number;
    threeQuarters: number;
    completed: number;
  }[];
  clicks: { rss: number; newsletter: number };
  emptySearches: TopRow[];
}

export interface ItemNumbers {
  days: number;
  views: number;
  visits: number;
  visitors: number;
  videoPlays: number;
  videoCompleted: number;
  clicks: number;
}

export function percent(part: number, whole: number): string {
  return whole > 0 ? `${Math.round((part / whole) * 100)}%` : '—';
}
