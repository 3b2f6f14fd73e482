// Issue 29: React Router matches each request against every route of the build, most specific first,
// and does so twice (its request handler, then its static handler), building a match for each route
// a branch has in common with the address before the branch fails. The build holds the dashboard's
// routes and the public site three times over (English, /lg and /sw), about 180 branches, and an
// English page such as /blog ranks below nearly all of them: route matching was about 9 % of an
// uncached page's CPU. A public page can only ever match the routes of its own language (English at
// the root, Luganda under /lg, Swahili under /sw; decision 030), so it is handled by a request handler
// made over that part of the build alone; every other request (the dashboard, data requests, React
// Router's route manifest) by one over the whole build.
import type { ServerBuild } from 'react-router';

/** The parts of the public site: English at the root, and the languages under their prefixes. */
export const PUBLIC_PARTS = ['en', 'lg', 'sw'] as const;
export type PublicPart = (typeof PUBLIC_PARTS)[number];

/** First path segments whose routes an English public page never matches (app/routes.ts). */
const OTHER_PARTS = new Set(['admin', 'lg', 'sw']);

type Manifest = ServerBuild['routes'];

/** The first segment of a route's whole path (its own path joined to its parents'). */
function firstSegmentOf(routes: Manifest, id: string): string {
  const paths: string[] = [];
  for (let route = routes[id]; route; route = route.parentId ? routes[route.parentId] : undefined) {
    if (route.path) paths.unshift(route.path);
  }
  return (paths.join('/').replace(/^\/+/, '').split('/')[0] ?? '').toLowerCase();
}

/**
 * The build without the routes a page of `part` never matches: for English those under OTHER_PARTS,
 * for a language every route outside its prefix; and the layouts left with nothing to hold. Matching
 * it gives the same route as the whole build for any address `publicPartOf` gives to `part`.
 */
export function publicPartBuild(build: ServerBuild, part: PublicPart): ServerBuild {
  const routes = build.routes;
  const inPart = (segment: string) => (part === 'en' ? !OTHER_PARTS.has(segment) : segment === part);
  const kept = new Set(
    Object.keys(routes).filter((id) => routes[id]!.parentId === undefined || inPart(firstSegmentOf(routes, id))),
  );
  // A layout with no path of its own whose every child went (the dashboard's) goes too.
  const holdsSomething = (id: string): boolean => {
    const route = routes[id]!;
    if (route.path !== undefined || route.index) return true;
    return Object.values(routes).some((child) => child?.parentId === id && kept.has(child.id) && holdsSomething(child.id));
  };
  const manifest: Manifest = {};
  for (const id of kept) if (routes[id]!.parentId === undefined || holdsSomething(id)) manifest[id] = routes[id];
  // The browser's manifest names the same routes: React Router renders a page from the two together.
  const browserRoutes = Object.fromEntries(Object.entries(build.assets.routes).filter(([id]) => id in manifest));
  return { ...build, routes: manifest, assets: { ...build.assets, routes: browserRoutes } };
}

/**
 * Which part of the public site a request is a page of: a GET or HEAD, Luganda or Swahili by its
 * first path segment, English when that names no other part of the site; undefined for the rest
 * (the dashboard, writes). A data request (`….data`), React Router's route manifest (`/__manifest`),
 * an address beginning `//` or holding a dot segment or an escape go to the whole build too.
 */
export function publicPartOf(method: string, path: string): PublicPart | undefined {
  if (method !== 'GET' && method !== 'HEAD') return undefined;
  // The URL parser takes out dot segments (`/blog/../admin`, `/blog/%2e%2e/admin` and `/blog\..\admin`
  // are `/admin`) after this looks, and React Router decodes escapes (`/%61dmin` is `/admin`).
  if (path.endsWith('.data') || /^\/\/|\/\.|%|\\/.test(path)) return undefined;
  const end = path.indexOf('/', 1);
  const first = (end === -1 ? path.slice(1) : path.slice(1, end)).toLowerCase();
  if (first === 'lg' || first === 'sw') return first;
  return first.startsWith('__') || OTHER_PARTS.has(first) ? undefined : 'en';
}
