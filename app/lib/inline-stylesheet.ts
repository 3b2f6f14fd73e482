import { createContext, useContext } from 'react';

// Issue 29: the public stylesheet's text, for the first page of a visit that carries it inside
// (lib/first-visit.ts). The server's entry provides it around the page it renders, so the 49 KB of CSS
// is not loader data, which React Router serialises on every request for hydration that a public page
// never does. In a browser it is empty: public pages are rendered on the server only (decision 025).
export const InlineStylesheet = createContext('');

/** The public stylesheet as text, where the server provides it. */
export function useInlineStylesheet(): string {
  return useContext(InlineStylesheet);
}
