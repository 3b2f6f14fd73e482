import type { RouteConfigEntry } from '@react-router/dev/routes';
import { matchRoutes, type RouteObject, type ServerBuild } from 'react-router';
import { describe, expect, it } from 'vitest';
import routes from '~/routes';
import { publicPartBuild, publicPartOf, type PublicPart } from './route-parts.ts';

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
const partOf = (part: PublicPart) =>
  publicPartBuild({ routes: whole, assets: { routes: whole } } as unknown as ServerBuild, part).routes;
const english = partOf('en');
const matched = (manifest: Manifest, path: string) => matchRoutes(treeOf(manifest), path)?.map((match) => match.route.id);
const isEnglishPublicPage = (method: string, path: string) => publicPartOf(method, path) === 'en';

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

  it('sends the dashboard, the other languages, data requests and the route manifest elsewhere', () => {
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

describe('the Luganda and Swahili parts of the route table', () => {
  it.each(['lg', 'sw'] as const)(
    '%s keeps its own pages and feeds, and nothing of English, the other language or the dashboard',
    (part) => {
      const ids = Object.keys(partOf(part));
      expect(ids).toEqual(expect.arrayContaining(['root', `${part}:routes/public/layout`, `${part}:routes/public/blog`]));
      expect(ids.filter((id) => id !== 'root' && !id.startsWith(`${part}:`) && !id.endsWith(`-${part}`))).toEqual([]);
    },
  );

  it.each(['lg', 'sw'] as const)('%s matches every address under its prefix to the same routes as the whole table', (part) => {
    const addresses = [
      ...addressesOf(whole),
      `/${part}`,
      `/${part}/`,
      `/${part.toUpperCase()}/BLOG`,
      `/${part}/nothing/here/at/all`,
      `/${part}/blog/some-id/easy-read/extra`,
      `/${part}/admin`,
    ];
    const own = partOf(part);
    let compared = 0;
    for (const address of addresses) {
      if (publicPartOf('GET', address) !== part) continue;
      compared += 1;
      expect(matched(own, address), address).toEqual(matched(whole, address));
    }
    expect(compared).toBeGreaterThan(30);
  });

  it('gives a page under /lg or /sw, in any case, to its language; writes and look-alikes elsewhere', () => {
    for (const path of ['/lg', '/lg/', '/lg/blog', '/LG/news/abc', '/lg/admin'])
      expect(publicPartOf('GET', path), path).toBe('lg');
    for (const path of ['/sw', '/Sw/blog/rss.xml', '/sw/events/x']) expect(publicPartOf('HEAD', path), path).toBe('sw');
    for (const path of ['/lgx', '/swahili', '/lg-blog']) expect(publicPartOf('GET', path), path).toBe('en');
    for (const path of ['/lg/blog.data', '/%6cg/blog', '/lg/../admin', '/lg/%2e%2e/admin', '//lg/blog'])
      expect(publicPartOf('GET', path), path).toBeUndefined();
    expect(publicPartOf('POST', '/lg/contact')).toBeUndefined();
  });
});
