import { getConfig } from './config.server.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses writes that a page on another site made the browser send (cross-site request forgery):
 * the Origin header, or failing that Sec-Fetch-Site, must point at this site. Hosts are compared,
 * not schemes, so a TLS-terminating proxy does not break same-site forms.
 */
export function isCrossOriginWrite(request: Request): boolean {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return false;
  const origin = request.headers.get('origin');
  if (origin && origin !== 'null') {
    let host: string;
    try {
      host = new URL(origin).host;
    } catch {
      return true;
    }
    const allowed = new Set([new URL(request.url).host, new URL(getConfig().publicUrl).host]);
    return !allowed.has(host);
  }
  if (origin === 'null') return true;
  return request.headers.get('sec-fetch-site') === 'cross-site';
}
