import { getConfig } from '../platform/config.server.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** What a refused cross-site write is answered (403), by the HTTP server and by the root middleware alike. */
export const CROSS_ORIGIN_REFUSAL = 'This request came from another site and was refused.';

/** The parts of a request that say where a write came from. */
export interface WriteSource {
  method: string;
  /** The Origin header, if any. */
  origin: string | null | undefined;
  /** The Sec-Fetch-Site header, if any. */
  secFetchSite: string | null | undefined;
  /** The host (and port) the request was sent to, as a URL's `host` gives it. */
  host: string;
}

/**
 * Refuses writes that a page on another site made the browser send (cross-site request forgery):
 * the Origin header, or failing that Sec-Fetch-Site, must point at this site. Hosts are compared,
 * not schemes, so a TLS-terminating proxy does not break same-site forms.
 */
export function isCrossOriginWriteFrom({ method, origin, secFetchSite, host }: WriteSource): boolean {
  if (SAFE_METHODS.has(method.toUpperCase())) return false;
  if (origin && origin !== 'null') {
    let from: string;
    try {
      from = new URL(origin).host;
    } catch {
      return true;
    }
    const allowed = new Set([host, new URL(getConfig().publicUrl).host]);
    return !allowed.has(from);
  }
  if (origin === 'null') return true;
  return secFetchSite === 'cross-site';
}

/** `isCrossOriginWriteFrom` for a Fetch request (React Router's middleware, app/root.tsx). */
export function isCrossOriginWrite(request: Request): boolean {
  return isCrossOriginWriteFrom({
    method: request.method,
    origin: request.headers.get('origin'),
    secFetchSite: request.headers.get('sec-fetch-site'),
    host: new URL(request.url).host,
  });
}
