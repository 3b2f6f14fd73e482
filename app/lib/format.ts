const longDate = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
const shortDate = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });

/** spec §9: dates in US English, long or short month. UTC so server and browser agree. */
export function formatDate(iso: string, month: 'long' | 'short' = 'long'): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return (month === 'long' ? longDate : shortDate).format(date);
}
