import type { RequestHandler } from 'express';

// Issue 22: a query holding a control character (a NUL above all, sent as `?q=%00`) is refused
// before anything reads it. No page, link or form of the site puts one in a query, and a NUL that
// reached PostgreSQL in a search or a filter failed the request (503 or 500, or a CSV export cut
// short). Checked here, once for every request, rather than in each loader: a loader added later
// is covered too, and so are the page cache and the exports. The path is left to the routes, which
// answer an id they do not know (NUL or not) with their own 404 page before any query runs.

export const QUERY_TEXT = {
  controlCharacter:
    'The address of this page contains a control character (such as %00) that no page on this site uses. Please check the link and try again.',
} as const;

/**
 * A control character (U+0000–U+001F, U+007F) in a query, percent-encoded or as is, but for the
 * tab, which a search box keeps when a visitor pastes one. The query is checked as sent, so `%2500`
 * (the text "%00") passes and nothing is decoded twice.
 */
const CONTROL_IN_QUERY = /%(?:0[0-8a-f]|1[\da-f]|7f)|[^\P{Cc}\t\x80-\x9F]/iu;

/** Whether the query of an address (what follows its first `?`) holds a control character. */
export function queryHasControlCharacter(url: string): boolean {
  const start = url.indexOf('?');
  return start !== -1 && CONTROL_IN_QUERY.test(url.slice(start + 1));
}

/** Answers 400, in plain words, to a query holding a control character; lets the rest through. */
export const refuseControlCharactersInQuery: RequestHandler = (req, res, next) => {
  if (!queryHasControlCharacter(req.originalUrl)) return next();
  res
    .status(400)
    .set({ 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', 'Content-Type': 'text/plain; charset=utf-8' })
    .send(QUERY_TEXT.controlCharacter);
};
