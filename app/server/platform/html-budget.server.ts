// Cleaning a story's body (sanitize.server.ts) is synchronous: while it runs, this thread serves
// nothing else, public pages from the page cache included. A body may be 1 MB, and 1 MB of markup
// costs 0.2 s to clean when it is ordinary and up to 1.6 s when it is one tag-like character after
// another. So each account may have only so much HTML cleaned at a time: a bucket of bytes that
// refills at a steady rate (docs/decisions/047-html-cleaning-budget.md). The bucket is this thread's
// own, as the time it protects is this thread's own.

/** What one account may have cleaned at once: two of the longest bodies. */
export const HTML_BUDGET_BYTES = 2_000_000;
/** How fast the bucket refills: a long story (100 KB) twice a second, without end. */
export const HTML_BUDGET_REFILL_PER_SECOND = 200_000;
/** A preview leaves this much in the bucket, so that previews never use up what a save needs. */
export const HTML_PREVIEW_RESERVE = 1_000_000;

export const HTML_BUDGET_MESSAGE =
  'You are sending long texts faster than the site can check them. Please wait a few seconds and try again.';

interface Bucket {
  bytes: number;
  at: number;
}

const buckets = new Map<string, Bucket>();

export type HtmlBudgetDecision = { ok: true } | { ok: false; retryAfterSeconds: number };

/**
 * Takes `bytes` from `account`'s bucket for a save, or for a preview (which must leave the reserve).
 * Refused, nothing is taken. Synchronous, so requests that arrive together are counted one by one.
 */
export function takeHtmlBudget(
  account: string,
  bytes: number,
  purpose: 'save' | 'preview',
  now = Date.now(),
): HtmlBudgetDecision {
  const key = account.toLowerCase();
  const last = buckets.get(key);
  const available = last
    ? Math.min(HTML_BUDGET_BYTES, last.bytes + ((now - last.at) / 1000) * HTML_BUDGET_REFILL_PER_SECOND)
    : HTML_BUDGET_BYTES;
  const needed = bytes + (purpose === 'preview' ? HTML_PREVIEW_RESERVE : 0);
  if (needed > available) {
    const missing = Math.min(needed, HTML_BUDGET_BYTES) - available;
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(missing / HTML_BUDGET_REFILL_PER_SECOND)) };
  }
  const left = available - bytes;
  // A full bucket is the same as none: the map holds only accounts that wrote lately.
  if (left >= HTML_BUDGET_BYTES) buckets.delete(key);
  else buckets.set(key, { bytes: left, at: now });
  if (buckets.size > 1000) forgetFull(now);
  return { ok: true };
}

/** Drops the buckets that have refilled. */
function forgetFull(now: number): void {
  for (const [key, bucket] of buckets)
    if (bucket.bytes + ((now - bucket.at) / 1000) * HTML_BUDGET_REFILL_PER_SECOND >= HTML_BUDGET_BYTES) buckets.delete(key);
}

/** Tests only: every bucket full again. */
export function resetHtmlBudgets(): void {
  buckets.clear();
}
