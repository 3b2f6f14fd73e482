import { createContext } from 'react';

// Whether the page being rendered may carry React Router's scripts and hydration data at all. The
// server's entry says no for the answer to a form the browser posted itself (app/entry.server.tsx):
// no script of ours sent it, so the browser had none running, and every form works without them. In a
// browser it is always true.
export const FrameworkScriptsAllowed = createContext(true);
