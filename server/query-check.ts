import type { RequestHandler } from 'express';
import { isCacheablePath } from './page-cache.ts';

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

/**
 * Issue 29: the query parameters a public page reads (the lists' search, category, page and filters,
 * past events, the contact form's subject) and React Router's own (`_routes` of a data request,
 * `index` of an index route). query-check.test.ts checks the public routes read no other.
 */
export const PAGE_PARAMETERS: ReadonlySet<string> = new Set([
  'q',
  'category',
  'page',
  'sign',
  'easy',
  'past',
  'subject',
  // An event's calendar file in a page's language (decision 051).
  'language',
  '_routes',
  'index',
]);

function parameterName(piece: string): string {
  const end = piece.indexOf('=');
  const raw = (end === -1 ? piece : piece.slice(0, end)).replaceAll('+', ' ');
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/**
 * The query of a public page's address without the parameters no page reads (`fbclid`, `utm_source`,
 * a cache-buster), each kept one as sent; undefined when nothing is left out. One pass over the query.
 */
export function pageQuery(query: string): string | undefined {
  const pieces = query.split('&');
  const kept = pieces.filter((piece) => piece !== '' && PAGE_PARAMETERS.has(parameterName(piece)));
  return kept.length === pieces.length ? undefined : kept.join('&');
}

/**
 * Issue 29: a public page asked for with parameters it does not read is the page without them. A
 * story shared on Facebook comes back with a different `fbclid` on every visit, and a campaign link
 * with `utm_…`: each was a page rendered afresh (about 10 ms of CPU) and never reused, and a query
 * string made up for each request rendered every page it asked for. The address is rewritten before
 * the page cache and the routes read it, so such a visit is the page already kept. The page view is
 * counted with the campaign it came from (server/analytics.ts reads the query first).
 */
export const dropUnreadParameters: RequestHandler = (req, _res, next) => {
  if (req.method !== 'GET' && req.method !== 'HEAD') return next();
  const url = req.originalUrl;
  const start = url.indexOf('?');
  if (start === -1 || !isCacheablePath(req.path)) return next();
  const kept = pageQuery(url.slice(start + 1));
  if (kept !== undefined) {
    req.originalUrl = req.url = kept ? `${url.slice(0, start)}?${kept}` : url.slice(0, start);
  }
  next();
};
