// Issue 29: React Router matches each request against every route of the build, most specific first,
// and does so twice (its request handler, then its static handler), building a match for each route
// a branch has in common with the address before the branch fails. The build holds the dashboard's
// routes and the public site three times over (English, /lg and /sw), about 180 branches, and an
// English page such as /blog ranks below nearly all of them: route matching was about 9 % of an
// uncached page's CPU. An English public page can only ever match the English routes, so it is
// handled by a request handler made over that part of the build alone; every other request (the
// dashboard, /lg and /sw, data requests, React Router's route manifest) by one over the whole build.
import type { ServerBuild } from 'react-router';

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
 * The build without the routes an English public page never matches: those under OTHER_PARTS, and
 * the layouts left with nothing to hold. Matching it gives the same route as the whole build for
 * any address `isEnglishPublicPage` accepts.
 */
export function englishPublicBuild(build: ServerBuild): ServerBuild {
  const routes = build.routes;
  const kept = new Set(Object.keys(routes).filter((id) => !OTHER_PARTS.has(firstSegmentOf(routes, id))));
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
 * Whether a request is for an English public page: a GET or HEAD whose first path segment names no
 * other part of the site. A data request (`….data`), React Router's route manifest (`/__manifest`),
 * an address beginning `//` or holding a dot segment or an escape go to the whole build.
 */
export function isEnglishPublicPage(method: string, path: string): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  // The URL parser takes out dot segments (`/blog/../admin`, `/blog/%2e%2e/admin` and `/blog\..\admin`
  // are `/admin`) after this looks, and React Router decodes escapes (`/%61dmin` is `/admin`).
  if (path.endsWith('.data') || /^\/\/|\/\.|%|\\/.test(path)) return false;
  const end = path.indexOf('/', 1);
  const first = (end === -1 ? path.slice(1) : path.slice(1, end)).toLowerCase();
  return !first.startsWith('__') && !OTHER_PARTS.has(first);
}
