import type { RouteConfigEntry } from '@react-router/dev/routes';
import { matchRoutes, type RouteObject, type ServerBuild } from 'react-router';
import { describe, expect, it } from 'vitest';
import routes from '~/routes';
import { englishPublicBuild, isEnglishPublicPage } from './route-parts.ts';

type Manifest = ServerBuild['routes'];

/** The server manifest React Router's build makes of app/routes.ts: ids, parents, paths, index routes. */
function manifestOf(entries: RouteConfigEntry[], parentId = 'root', manifest: Manifest = {}): Manifest {
  if (!manifest.root) manifest.root = { id: 'root', path: '', module: {} } as Manifest[string];
  for (const entry of entries) {
    const id = entry.id ?? entry.file.replace(/\.tsx?$/, '');
    manifest[id] = { id, parentId, path: entry.path, index: entry.index, module: {} } as Manifest[string];
    if (entry.children) manifestOf(entry.children, id, manifest);
  }
  return manifest;
}

/** The manifest as React Router's route objects, to match with its own `matchRoutes`. */
function treeOf(manifest: Manifest, parentId?: string): RouteObject[] {
  return Object.values(manifest)
    .filter((route) => route!.parentId === parentId)
    .map((route) => {
      const children = treeOf(manifest, route!.id);
      return route!.index
        ? { id: route!.id, index: true }
        : { id: route!.id, path: route!.path, ...(children.length ? { children } : {}) };
    });
}

/** Every pattern of the table with its parameters filled in, as addresses. */
function addressesOf(manifest: Manifest): string[] {
  const pathOf = (id: string): string => {
    const route = manifest[id]!;
    const own = route.path ?? '';
    return route.parentId ? [pathOf(route.parentId), own].filter(Boolean).join('/') : own;
  };
  return Object.keys(manifest).map(
    (id) =>
      `/${pathOf(id)
        .replace(/:[\w-]+/g, 'some-id')
        .replace(/\*$/, 'any/thing')}`,
  );
}

const whole = manifestOf(routes);
const english = englishPublicBuild({ routes: whole, assets: { routes: whole } } as unknown as ServerBuild).routes;
const matched = (manifest: Manifest, path: string) => matchRoutes(treeOf(manifest), path)?.map((match) => match.route.id);

describe('the English public part of the route table', () => {
  it('leaves out the dashboard and the other languages, and keeps every English page and feed', () => {
    const ids = Object.keys(english);
    expect(ids.length).toBeLessThan(Object.keys(whole).length / 2);
    expect(ids).toEqual(
      expect.arrayContaining(['root', 'routes/public/layout', 'routes/public/blog', 'routes/public/not-found', 'rss-blogs']),
    );
    expect(
      ids.some((id) => id.startsWith('routes/admin/') || id.startsWith('lg:') || id.startsWith('sw:') || id.endsWith('-lg')),
    ).toBe(false);
    expect(ids).not.toContain('rss-blogs-sw');
  });

  it('matches every address it is given to the same routes as the whole table', () => {
    const addresses = [
      ...addressesOf(whole),
      '/',
      '/BLOG',
      '/blog/',
      '/lgx',
      '/administrator',
      '/admin-area/page',
      '/swahili',
      '/nothing/here/at/all',
      '/blog/some-id/easy-read/extra',
      '/sitemap.xml',
      '/robots.txt',
    ];
    let compared = 0;
    for (const address of addresses) {
      if (!isEnglishPublicPage('GET', address)) continue;
      compared += 1;
      expect(matched(english, address), address).toEqual(matched(whole, address));
    }
    expect(compared).toBeGreaterThan(30);
  });

  it('sends the dashboard, the other languages, data requests and the route manifest to the whole table', () => {
    for (const path of ['/admin', '/admin/users', '/ADMIN/users', '/lg', '/lg/blog', '/SW/news', '/sw/blog/rss.xml'])
      expect(isEnglishPublicPage('GET', path), path).toBe(false);
    for (const path of [
      '/blog.data',
      '/_root.data',
      '/__manifest',
      '/%61dmin',
      '//admin',
      '/%6cg/blog',
      '/blog/../admin',
      '/./lg/blog',
      '/blog/%2e%2e/admin',
      '/blog/%2E%2E/lg',
      '/blog\\..\\admin',
    ])
      expect(isEnglishPublicPage('GET', path), path).toBe(false);
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) expect(isEnglishPublicPage(method, '/contact')).toBe(false);
    for (const path of ['/', '/blog', '/blog/abc', '/news?q=x', '/lgx', '/administrator', '/events/x/calendar.ics'])
      expect(isEnglishPublicPage('GET', path), path).toBe(true);
    expect(isEnglishPublicPage('HEAD', '/about')).toBe(true);
  });
});
