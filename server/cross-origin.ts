import type { RequestHandler } from 'express';
import { CROSS_ORIGIN_REFUSAL, isCrossOriginWriteFrom } from '~/server/http/origin-guard.server';
import type { Logger } from '~/server/platform/logger.server';

/**
 * Refuses a write that a page on another site made a browser send, before its body is read or any
 * route runs: 403 in the same plain words as the routes' own check (app/root.tsx, kept behind this
 * one), and a warn line without a stack, since it is a visitor's doing and not a fault of the site.
 */
export function refuseCrossOriginWrites(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const origin = req.get('origin');
    const source = {
      method: req.method,
      origin,
      secFetchSite: req.get('sec-fetch-site'),
      host: requestHost(req.protocol, req.host),
    };
    if (!isCrossOriginWriteFrom(source)) return next();
    // The path is cut as every logged path is (logger.server.ts); the origin is the other site's, shortened.
    logger.warn(
      { method: req.method, path: req.path, origin: origin?.slice(0, 200) ?? null },
      'a write from another site was refused',
    );
    res.status(403).set({ 'Cache-Control': 'no-store', Connection: 'close' }).type('text/plain').send(CROSS_ORIGIN_REFUSAL);
  };
}

/** The Host header (or the trusted proxy's X-Forwarded-Host) as a URL's `host` gives it: lower case, no default port. */
function requestHost(protocol: string, host: string | undefined): string {
  if (!host || /[/\\?#@]/.test(host)) return '';
  try {
    return new URL(`${protocol}://${host}`).host;
  } catch {
    return '';
  }
}
