import { createContext } from 'react-router';

/** Per-request values the HTTP server (server/app.ts) hands to React Router. */
export interface RequestValues {
  /** The CSP nonce of this response's inline scripts. */
  nonce: string;
  clientIp: string;
  /** Forgets the stored public pages: called once, after a staff member's write succeeded (app/root.tsx). */
  publicPagesChanged: () => void;
  /** Notes the route pattern React Router matched, for the request metrics (issue 29; app/root.tsx). */
  routeMatched?: (pattern: string) => void;
}

export const requestContext = createContext<RequestValues>({ nonce: '', clientIp: '', publicPagesChanged: () => undefined });
