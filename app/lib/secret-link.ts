import type { HeadersFunction } from 'react-router';

/**
 * Headers of a page opened from a link that carries a secret (a password reset, a newsletter
 * confirmation or unsubscribe link): never cached (the page cache skips no-store), never sent to
 * another site as a referrer. Not no-referrer: a browser then sends the page's own form post with
 * Origin "null", which the write guard refuses. A refused body left partly unread closes the
 * connection (request-info.server.ts), so the action's Connection header is kept.
 */
export const secretLinkHeaders: HeadersFunction = ({ actionHeaders }) => {
  const headers = new Headers({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'same-origin' });
  const connection = actionHeaders.get('Connection');
  if (connection) headers.set('Connection', connection);
  return headers;
};
