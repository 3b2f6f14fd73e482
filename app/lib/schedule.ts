// Issue 13, scheduled publishing: a date and time are entered and shown in the organisation's time
// zone (a Site setting, Africa/Kampala until changed) and stored as ISO-8601 UTC (decision 002).
// Intl alone does the arithmetic; shared by the form (browser) and the service (server).

export const DEFAULT_TIME_ZONE = 'Africa/Kampala';
/** Long enough for any IANA name (America/Argentina/ComodRivadavia is 32). */
export const TIME_ZONE_MAX = 64;

/** True for a time zone Intl knows by its IANA name (Africa/Kampala, Europe/London, UTC). */
export function isTimeZone(value: string): boolean {
  if (!value || value.length > TIME_ZONE_MAX || !/^[A-Za-z0-9_+\-/]+$/.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** The zone to use: `value` when it is one, else the default (a stored setting is never trusted blindly). */
export function timeZoneOr(value: unknown): string {
  return typeof value === 'string' && isTimeZone(value) ? value : DEFAULT_TIME_ZONE;
}

interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

const partsCache = new Map<string, Intl.DateTimeFormat>();

function wallTimeOf(ms: number, timeZone: string): WallTime {
  let format = partsCache.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
    partsCache.set(timeZone, format);
  }
  const parts: Record<string, number> = {};
  for (const part of format.formatToParts(new Date(ms))) if (part.type !== 'literal') parts[part.type] = Number(part.value);
  return { year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour!, minute: parts.minute! };
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{2}):(\d{2})(?::\d{2})?$/;

/**
 * The UTC instant (ISO-8601) of a wall-clock date ('2026-12-05') and time ('09:00') in `timeZone`;
 * undefined when either is not a real date or time. A time that a daylight-saving change skips is
 * read as the hour after it.
 */
export function zonedToUtc(date: string, time: string, timeZone: string): string | undefined {
  const d = DATE.exec(date);
  const t = TIME.exec(time);
  if (!d || !t) return undefined;
  const wall: WallTime = { year: +d[1]!, month: +d[2]!, day: +d[3]!, hour: +t[1]!, minute: +t[2]! };
  if (wall.month < 1 || wall.month > 12 || wall.day < 1 || wall.hour > 23 || wall.minute > 59) return undefined;
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute);
  if (new Date(asUtc).getUTCDate() !== wall.day || wall.year < 2000 || wall.year > 9999) return undefined;
  // The zone's offset at a guess, then again at the corrected instant (they differ only across a change).
  const offsetAt = (ms: number) => {
    const w = wallTimeOf(ms, timeZone);
    return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute) - Math.floor(ms / 60_000) * 60_000;
  };
  let ms = asUtc - offsetAt(asUtc);
  ms = asUtc - offsetAt(ms);
  return new Date(ms).toISOString();
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The date and time inputs' values ('2026-12-05', '09:00') for a UTC instant, in `timeZone`. */
export function utcToZoned(iso: string, timeZone: string): { date: string; time: string } {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return { date: '', time: '' };
  const w = wallTimeOf(ms, timeZone);
  return { date: `${w.year}-${pad(w.month)}-${pad(w.day)}`, time: `${pad(w.hour)}:${pad(w.minute)}` };
}

/** "December 5, 2026 at 9:00 AM (Africa/Kampala)": how a scheduled time is shown to staff. */
export function formatInTimeZone(iso: string, timeZone: string): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return '';
  const text = new Intl.DateTimeFormat('en-US', {
    timeZone,
    dateStyle: 'long',
    timeStyle: 'short',
  }).format(new Date(ms));
  return `${text} (${timeZone})`;
}
