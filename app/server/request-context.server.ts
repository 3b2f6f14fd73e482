import { createContext } from 'react-router';

// Per-request values the HTTP server hands to React Router. The context key is kept on globalThis
// because server.ts and the React Router bundle each load their own copy of this module.
const KEY = Symbol.for('tdg.request-context');
type Global = typeof globalThis & { [KEY]?: ReturnType<typeof create> };

function create() {
  return createContext<{ nonce: string; clientIp: string }>({ nonce: '', clientIp: '' });
}

export const requestContext = ((globalThis as Global)[KEY] ??= create());
