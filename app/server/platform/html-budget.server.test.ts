import { beforeEach, describe, expect, it } from 'vitest';
import {
  HTML_BUDGET_BYTES,
  HTML_BUDGET_REFILL_PER_SECOND,
  HTML_PREVIEW_RESERVE,
  resetHtmlBudgets,
  takeHtmlBudget,
} from './html-budget.server';

// Decision 047: each account may have only so much HTML cleaned at a time, as cleaning holds the thread.

describe('the budget for cleaning HTML', () => {
  beforeEach(() => resetHtmlBudgets());
  const MB = 1_000_000;

  it('lets an account save two of the longest bodies at once, then one as the bucket refills', () => {
    expect(takeHtmlBudget('a@example.org', MB, 'save', 0)).toEqual({ ok: true });
    expect(takeHtmlBudget('a@example.org', MB, 'save', 0)).toEqual({ ok: true });
    expect(takeHtmlBudget('a@example.org', MB, 'save', 0)).toEqual({
      ok: false,
      retryAfterSeconds: MB / HTML_BUDGET_REFILL_PER_SECOND,
    });
    expect(takeHtmlBudget('a@example.org', MB, 'save', 4_000).ok).toBe(false);
    expect(takeHtmlBudget('a@example.org', MB, 'save', (MB / HTML_BUDGET_REFILL_PER_SECOND) * 1000)).toEqual({ ok: true });
  });

  it('keeps each account to its own bucket, whatever the case of its address', () => {
    expect(takeHtmlBudget('a@example.org', HTML_BUDGET_BYTES, 'save', 0).ok).toBe(true);
    expect(takeHtmlBudget('A@Example.org', 1, 'save', 0).ok).toBe(false);
    expect(takeHtmlBudget('b@example.org', HTML_BUDGET_BYTES, 'save', 0).ok).toBe(true);
  });

  it('never lets previews take what a save needs', () => {
    const half = HTML_BUDGET_BYTES - HTML_PREVIEW_RESERVE;
    expect(takeHtmlBudget('a@example.org', half, 'preview', 0).ok).toBe(true);
    expect(takeHtmlBudget('a@example.org', 1, 'preview', 0).ok).toBe(false);
    expect(takeHtmlBudget('a@example.org', HTML_PREVIEW_RESERVE, 'save', 0).ok).toBe(true);
  });

  it('lets ordinary stories through as fast as anyone types', () => {
    // A 50 KB story previewed as often as the editor asks (300 ms after each pause), and kept every 5 s.
    for (let ms = 0; ms < 60_000; ms += 300) {
      expect(takeHtmlBudget('a@example.org', 50_000, 'preview', ms).ok).toBe(true);
      if (ms % 4_800 === 0) expect(takeHtmlBudget('a@example.org', 50_000, 'save', ms).ok).toBe(true);
    }
  });

  it('refuses a body larger than the bucket with a wait that would not help, not a wait for ever', () => {
    const refused = takeHtmlBudget('a@example.org', HTML_BUDGET_BYTES + 1, 'save', 0);
    expect(refused).toEqual({ ok: false, retryAfterSeconds: 1 });
  });
});
