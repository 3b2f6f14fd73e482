import { describe, expect, it } from 'vitest';
import type { RouteConfigEntry } from '@react-router/dev/routes';
import routes from '~/routes';
import { ADMIN_ACCESS } from '~/routes/admin/access';
import type { AccessTable } from '~/server/http/admin-access.server';

// Issue 10: authorisation that cannot be forgotten. This walks the route table itself (app/routes.ts),
// not the source text: every /admin route must sit inside the admin layout, whose middleware
// enforces routes/admin/access.ts; the table and the routes must name the same patterns; and each
// route's rules must match the handlers its module exports.

const ADMIN_LAYOUT = 'routes/admin/layout.tsx';
const DASHBOARD_LAYOUT = 'routes/admin/dashboard.tsx';

interface FlatRoute {
  pattern: string;
  file: string;
  /** The files of the layouts and routes above it, outermost first. */
  ancestors: string[];
}

/** Every route that can be matched (leaves and index routes), with its full pattern. */
function flatten(entries: RouteConfigEntry[], parentPath = '', ancestors: string[] = []): FlatRoute[] {
  return entries.flatMap((entry) => {
    const path = [parentPath, entry.path ?? ''].filter(Boolean).join('/');
    if (entry.children?.length) return flatten(entry.children, path, [...ancestors, entry.file]);
    return [{ pattern: `/${path}`, file: entry.file, ancestors }];
  });
}

const isAdminPattern = (pattern: string) => pattern === '/admin' || pattern.startsWith('/admin/');

/** What is wrong between a route list and an access table (empty when they agree). */
function mismatches(flat: FlatRoute[], table: AccessTable): string[] {
  const problems: string[] = [];
  const admin = flat.filter((r) => isAdminPattern(r.pattern) || r.file.startsWith('routes/admin/'));
  for (const route of admin) {
    if (!route.ancestors.includes(ADMIN_LAYOUT)) problems.push(`${route.pattern} is outside ${ADMIN_LAYOUT}`);
    if (!isAdminPattern(route.pattern)) problems.push(`${route.pattern} (${route.file}) is an admin module outside /admin`);
    if (!Object.hasOwn(table, route.pattern)) problems.push(`${route.pattern} has no entry in the access table`);
  }
  const patterns = new Set(flat.map((r) => r.pattern));
  for (const pattern of Object.keys(table)) {
    if (!patterns.has(pattern)) problems.push(`the access table names ${pattern}, which app/routes.ts does not have`);
  }
  return problems;
}

const flat = flatten(routes);
const adminRoutes = flat.filter((r) => r.ancestors.includes(ADMIN_LAYOUT));

describe('the admin route table and the access table', () => {
  it('finds the admin routes through the route table', () => {
    expect(adminRoutes.length).toBeGreaterThan(15);
    expect(adminRoutes.map((r) => r.pattern)).toEqual(expect.arrayContaining(['/admin', '/admin/users/:id/edit', '/admin/*']));
  });

  it('declares every /admin route, names no other, and keeps every /admin route inside the admin layout', () => {
    expect(mismatches(flat, ADMIN_ACCESS)).toEqual([]);
  });

  it('lets signed-out visitors use only the sign-in (and its second step), logout, forgot-password and reset-password screens', () => {
    const open = Object.entries(ADMIN_ACCESS)
      .flatMap(([pattern, rules]) => (['loader', 'action'] as const).map((h) => [pattern, h, rules[h]] as const))
      .filter(([, , rule]) => rule === 'public')
      .map(([pattern, handler]) => `${handler} ${pattern}`);
    expect(open.sort()).toEqual(
      [
        'loader /admin',
        'action /admin',
        'loader /admin/logout',
        'action /admin/logout',
        'loader /admin/forgot-password',
        'action /admin/forgot-password',
        'loader /admin/reset-password/:token',
        'action /admin/reset-password/:token',
        // Issue 25: the second step, which answers only the pending step its cookie names.
        'loader /admin/verify',
        'action /admin/verify',
        'loader /admin/passkey',
        'action /admin/passkey',
      ].sort(),
    );
  });

  it('never opens a dashboard page to signed-out visitors (the dashboard layout reads the staff member)', () => {
    for (const route of adminRoutes.filter((r) => r.ancestors.includes(DASHBOARD_LAYOUT))) {
      expect(ADMIN_ACCESS[route.pattern]?.loader, route.pattern).not.toBe('public');
      expect(ADMIN_ACCESS[route.pattern]?.action, route.pattern).not.toBe('public');
    }
  });

  it.each(adminRoutes.map((r) => [r.pattern, r.file] as const))(
    '%s declares an action rule exactly when %s has an action',
    async (pattern, file) => {
      const module = (await import(`../../app/${file}`)) as { action?: unknown };
      expect(ADMIN_ACCESS[pattern]?.loader, 'every route needs a rule for GET').toBeDefined();
      expect(Boolean(ADMIN_ACCESS[pattern]?.action), `${file} ${module.action ? 'has' : 'has no'} action`).toBe(
        typeof module.action === 'function',
      );
    },
  );

  it('puts the access middleware on the admin layout', async () => {
    const layout = (await import(`../../app/${ADMIN_LAYOUT}`)) as { middleware?: unknown[] };
    expect(layout.middleware).toHaveLength(1);
    const outer = flat.find((r) => r.pattern === '/admin')!.ancestors;
    expect(outer.indexOf(ADMIN_LAYOUT)).toBeGreaterThanOrEqual(0);
  });
});

describe('the check itself', () => {
  const table: AccessTable = { '/admin': { loader: 'public' }, '/admin/users': { loader: 'users:manage' } };
  const route = (path: string, file: string, children?: RouteConfigEntry[]): RouteConfigEntry => ({
    path,
    file,
    ...(children ? { children } : {}),
  });
  const layout = (file: string, children: RouteConfigEntry[]): RouteConfigEntry => ({ file, children });

  it('agrees when every route is declared inside the layout', () => {
    const config = [layout(ADMIN_LAYOUT, [route('admin', 'routes/admin/a.tsx'), route('admin/users', 'routes/admin/b.tsx')])];
    expect(mismatches(flatten(config), table)).toEqual([]);
  });

  it('catches a route missing from the table, an entry without a route, and a route outside the layout', () => {
    const config = [
      layout(ADMIN_LAYOUT, [route('admin', 'routes/admin/a.tsx'), route('admin/audit', 'routes/admin/c.tsx')]),
      route('admin/export', 'routes/admin/d.tsx'),
    ];
    expect(mismatches(flatten(config), table)).toEqual([
      '/admin/audit has no entry in the access table',
      `/admin/export is outside ${ADMIN_LAYOUT}`,
      '/admin/export has no entry in the access table',
      'the access table names /admin/users, which app/routes.ts does not have',
    ]);
  });

  it('joins nested paths and index routes into full patterns', () => {
    const config = [
      layout('root-layout.tsx', [route('admin', 'x.tsx', [{ index: true, file: 'i.tsx' }, route('users/:id', 'u.tsx')])]),
    ];
    expect(flatten(config).map((r) => r.pattern)).toEqual(['/admin', '/admin/users/:id']);
  });
});
