import { createContext, useContext, type ReactNode } from 'react';

// Issue 29 (docs/decisions/044-kept-layout-fragments.md): the public layout's header and footer are
// the same markup on page after page, and about a third of what React renders for an uncached page.
// The server's entry keeps each one's HTML, by a key naming everything it is rendered from, and puts
// it in place of a render the next time (app/server/http/kept-fragments.server.ts). Where no entry
// provides a keeper (the dashboard, a browser, a test rendering a component), the children render.

/** How a render asks for a kept fragment (one per page rendered). */
export interface FragmentKeeper {
  /**
   * The markers to render for the fragment `key`: one where the kept HTML goes (`kept`), or two to
   * put around its children so that their HTML is kept (`begin`, `end`).
   */
  mark(key: string): { kept: string } | { begin: string; end: string };
}

/**
 * A marker, as an element: a text would run into the text beside it, which React then splits with
 * a comment. The server takes out exactly this element's HTML (`keptMarkerHtml`).
 */
function Marker({ id }: { id: string }) {
  return <template data-kept={id} />;
}

/** The HTML React renders for the marker `id` (an id is letters and digits). */
export function keptMarkerHtml(id: string): string {
  return `<template data-kept="${id}"></template>`;
}

export const FragmentKeeperContext = createContext<FragmentKeeper | null>(null);

/**
 * `children`, rendered once per `fragmentKey` and kept. The key must name everything the children's
 * markup depends on (props, words, address); two renders with one key must give the same HTML. What
 * React would put in the head for them (a title, meta, links, a picture's preload) is not there when
 * they are kept: the page asks for it itself.
 */
export function KeptFragment({ fragmentKey, children }: { fragmentKey: string; children: ReactNode }) {
  const keeper = useContext(FragmentKeeperContext);
  if (!keeper) return children;
  const mark = keeper.mark(fragmentKey);
  if ('kept' in mark) return <Marker id={mark.kept} />;
  return (
    <>
      <Marker id={mark.begin} />
      {children}
      <Marker id={mark.end} />
    </>
  );
}
