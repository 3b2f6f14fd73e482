import express, { type Request, type RequestHandler, type Response } from 'express';
import {
  countClick,
  countVideo,
  countView,
  searchFoundNothing,
  skipReason,
  VIDEO_MILESTONES,
  type ClickSource,
  type CountingHeaders,
  type VideoMilestone,
} from '~/server/analytics/counting.server';
import { hasSessionCookie, isCacheablePath } from './page-cache.ts';

// Issue 28 (docs/decisions/029-privacy-first-visit-counts.md): counting at the edge. `countPageViews`
// sits in server/app.ts before the page cache's fast path, so a page sent from memory is counted
// exactly like one React Router rendered: when the answer is finished, a 200 or 304 HTML page of the
// public site is a view unless the request is a bot's, a prefetch, a page script's fetch, a staff
// member's (session cookie) or asks not to be tracked (DNT, Sec-GPC). Nothing is set on the answer.

const NOT_PAGES = /\.(?:xml|txt|json|js|css|data|ico|png|jpe?g|webp|svg|webmanifest)$/i;

function counted(req: Request): boolean {
  return (
    req.method === 'GET' &&
    isCacheablePath(req.path) &&
    !NOT_PAGES.test(req.path) &&
    !req.headers.authorization &&
    !hasSessionCookie(req.headers.cookie) &&
    skipReason(req.headers as CountingHeaders) === undefined
  );
}

function first(value: unknown): string | undefined {
  return typeof value === 'string' ? value : Array.isArray(value) && typeof value[0] === 'string' ? value[0] : undefined;
}

export function countPageViews(): RequestHandler {
  return (req, res, next) => {
    // Read now: the address loses the parameters no page reads (a campaign's utm_…) further on.
    if (counted(req)) {
      const query = req.query as Record<string, unknown>;
      res.once('finish', () => afterPage(req, res, query));
    }
    next();
  };
}

function afterPage(req: Request, res: Response, query: Record<string, unknown>): void {
  if (res.statusCode !== 200 && res.statusCode !== 304) return;
  if (!/^text\/html/i.test(String(res.getHeader('content-type') ?? ''))) return;
  const words = first(query.q);
  countView({
    path: req.path,
    host: req.headers.host ?? '',
    ip: req.ip ?? '',
    userAgent: req.headers['user-agent'] ?? '',
    referer: req.headers.referer,
    saveData: String(req.headers['save-data'] ?? '').toLowerCase() === 'on',
    utm: { source: first(query.utm_source), medium: first(query.utm_medium), campaign: first(query.utm_campaign) },
    emptySearch: words && words.length <= 200 && searchFoundNothing(req.path, words) ? words : undefined,
  });
}

/**
 * Beacons from the sign-language player's script (app/client/sign-language-video.ts): a play, or how
 * far it got. A body of at most 256 bytes, `{"p":"/news/x","m":25}`; at most 60 a minute from one
 * address (in this process); answered 204 whether counted or not, 400 when unreadable.
 */
export function videoBeacons(): RequestHandler[] {
  const perAddress = new Map<string, number>();
  let windowStarted = Date.now();
  return [
    express.text({ type: () => true, limit: 256 }),
    (req, res) => {
      res.set('Cache-Control', 'no-store');
      let beacon: { p?: unknown; m?: unknown };
      try {
        beacon = JSON.parse(typeof req.body === 'string' ? req.body : '') as typeof beacon;
      } catch {
        return void res.status(400).type('text/plain').send('Send {"p": path, "m": 0, 25, 50, 75 or 100}.');
      }
      const path = beacon?.p;
      const milestone = beacon?.m;
      if (
        typeof path !== 'string' ||
        !path.startsWith('/') ||
        path.startsWith('//') ||
        path.length > 300 ||
        !isCacheablePath(path) ||
        !VIDEO_MILESTONES.includes(milestone as VideoMilestone)
      )
        return void res.status(400).type('text/plain').send('Send {"p": path, "m": 0, 25, 50, 75 or 100}.');
      const now = Date.now();
      if (now - windowStarted > 60_000 || perAddress.size > 10_000) {
        perAddress.clear();
        windowStarted = now;
      }
      const key = req.ip ?? '';
      const used = (perAddress.get(key) ?? 0) + 1;
      perAddress.set(key, used);
      const skip =
        used > 60 ||
        hasSessionCookie(req.headers.cookie) ||
        skipReason({ ...(req.headers as CountingHeaders), 'sec-fetch-dest': undefined, 'sec-fetch-mode': undefined });
      if (!skip) countVideo(path, milestone as VideoMilestone);
      res.status(204).end();
    },
  ];
}

/**
 * A link in the feed or the newsletter: `/go/rss?to=/news/x` counts the click (how many, never who)
 * and sends the reader on to the page. Only paths of this site are followed (never another site).
 */
export const countingRedirect: RequestHandler = (req, res) => {
  const source = req.params.source as ClickSource;
  const to = first((req.query as Record<string, unknown>).to);
  res.set('Cache-Control', 'no-store');
  if (
    (source !== 'rss' && source !== 'newsletter') ||
    !to ||
    !to.startsWith('/') ||
    /^\/[/\\]/.test(to) ||
    to.length > 500 ||
    /[\\\s]/.test(to)
  )
    return void res.status(400).type('text/plain').send('This link is not one of ours. Please go to the home page: /');
  const path = to.split(/[?#]/, 1)[0]!;
  if (
    !hasSessionCookie(req.headers.cookie) &&
    !skipReason({ ...(req.headers as CountingHeaders), 'sec-fetch-dest': undefined, 'sec-fetch-mode': undefined })
  )
    countClick(source, path);
  res.redirect(302, to);
};
