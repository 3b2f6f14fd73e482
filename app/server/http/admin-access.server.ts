import { data, redirect, type MiddlewareFunction, type Params } from 'react-router';
import { FORBIDDEN_MESSAGE, getCurrentUser, type CurrentUser } from '../staff/auth.server.ts';
import { clearSessionCookie } from '../staff/sessions.server.ts';
import { adminAccessContext } from './staff-context.server.ts';
import { requestContext } from './request-context.server.ts';
import { getLogger } from '../platform/logger.server.ts';
import { accessRestrictedText, can, canUseSection, type Permission, type Section } from '../../lib/permissions.ts';
import { dashboardFrame } from './dashboard-frame.server.ts';
import { hasSecondFactor, twoFactorRequiredFor } from '../staff/two-factor.server.ts';
import { TWO_FACTOR_MESSAGES } from '../../lib/two-factor.ts';

/** Issue 25: where a person whose role must use a second step, and who has none, may still go. */
const SET_UP_ROUTES = new Set(['/admin/security', '/admin/security/passkeys']);

// spec §6, enforced in one place: the middleware of the admin layout route (app/routes/admin/layout.tsx)
// looks up what the matched route declares in the access table (app/routes/admin/access.ts) and
// refuses before any loader or action runs. A route or method that declares nothing is refused.

/** What one handler (a route's loader or its action) needs. */
export type Rule =
  /** Anyone, signed in or not: the sign-in, forgot-password, reset-password and logout screens. */
  | 'public'
  /** Any signed-in staff member; finer rules (editing only one's own card …) are the services'. */
  | 'signed-in'
  /** A signed-in staff member whose role has this permission; otherwise 403 before the handler runs. */
  | Permission
  /** As a bare permission, refused with these words (spec §8's own) instead of the generic ones. */
  | { permission: Permission; refusal: string }
  /**
   * A dashboard section (spec §2): a role that lacks this gets the section's address answered with
   * "Access Restricted" (403) in the dashboard's frame, and the handler never runs. `refusal` replaces
   * the generic text where the spec has its own.
   */
  | { restricted: Permission | Section | ((params: Params) => Section); refusal?: string };

/** A route's rules, by the handler they govern. A route without an action leaves `action` out. */
export interface RouteAccess {
  loader: Rule;
  action?: Rule;
  /** The action writes only what visitors never see (an autosave slot): public pages stay cached. */
  privateWrites?: true;
}

/** Every /admin route pattern of app/routes.ts (leading slash, as `route()` paths join) and its rules. */
export type AccessTable = Readonly<Record<string, RouteAccess>>;

/** A refusal for a route or method that declares nothing (fail closed). */
export class UndeclaredAccessError extends Error {}

function allows(role: Parameters<typeof can>[0], need: Permission | Section): boolean {
  return need.includes(':') ? can(role, need as Permission) : canUseSection(role, need as Section);
}

/** A route pattern as React Router reports it ("admin/users/:id/edit") in the table's form ("/admin/users/:id/edit"). */
export function normalisePattern(pattern: string): string {
  return `/${pattern.replace(/^\/+/, '')}`;
}

/**
 * The admin layout's middleware. Without a rule for the matched pattern and method it refuses: in
 * development with a 500 naming what is missing, otherwise with a 403 and the gap logged.
 */
export function adminAccessMiddleware(table: AccessTable, options: { development?: boolean } = {}): MiddlewareFunction<Response> {
  const development = options.development ?? process.env.NODE_ENV === 'development';
  return async ({ request, pattern, params, context }, next) => {
    const route = normalisePattern(pattern);
    const handler = isMutation(request) ? 'action' : 'loader';
    const access = table[route];
    const rule = access?.[handler];
    if (!rule) {
      const problem = `${request.method} ${route}: no ${handler} rule in app/routes/admin/access.ts, so it is refused`;
      if (development) throw new UndeclaredAccessError(problem);
      getLogger().error({ route, method: request.method }, problem);
      throw data({ error: FORBIDDEN_MESSAGE }, { status: 403 });
    }
    const current = await getCurrentUser(request);
    if (rule !== 'public' && current.status !== 'signed-in') throw signedOutRefusal(request, current, route);
    if (current.status === 'signed-in' && rule !== 'public' && rule !== 'signed-in') {
      const { role } = current.user;
      if (typeof rule === 'string') {
        if (!can(role, rule)) throw data({ error: FORBIDDEN_MESSAGE }, { status: 403 });
      } else if ('permission' in rule) {
        if (!can(role, rule.permission)) throw data({ error: rule.refusal }, { status: 403 });
      } else if (!allows(role, typeof rule.restricted === 'function' ? rule.restricted(params) : rule.restricted)) {
        throw data(
          { error: rule.refusal ?? accessRestrictedText(role), frame: await dashboardFrame(current.user) },
          { status: 403, headers: { 'Cache-Control': 'no-store' } },
        );
      }
    }
    // Issue 25: a role that must use a second step, without one, sets it up before anything else.
    if (current.status === 'signed-in' && rule !== 'public' && !SET_UP_ROUTES.has(route)) {
      const { role, id } = current.user;
      if ((await twoFactorRequiredFor(role)) && !(await hasSecondFactor(id))) {
        if (isMutation(request)) throw data({ error: TWO_FACTOR_MESSAGES.setupRequired }, { status: 403 });
        throw redirect('/admin/security?setup=required');
      }
    }
    context.set(adminAccessContext, { current });
    const response = await next();
    // The one place public pages are forgotten: after any staff write that succeeded (content,
    // accounts and pictures all show on public pages), before the answer leaves.
    if (isMutation(request) && rule !== 'public' && !access?.privateWrites && response.status < 400)
      context.get(requestContext).publicPagesChanged();
    return response;
  };
}

export function isMutation(request: Request): boolean {
  return !['GET', 'HEAD', 'OPTIONS'].includes(request.method.toUpperCase());
}

/**
 * What a request that needs a session gets without one (thrown by the admin middleware,
 * app/server/http/admin-access.server.ts): for page loads a redirect to the sign-in screen (telling why
 * when the session was ended for them, and coming back afterwards); for writes a 403 and nothing done.
 * An address the dashboard does not have (`/admin/*`, such as a typed `/admin/sign-in`) is not come
 * back to: after signing in it would be a missing page, so staff land on their home screen instead.
 */
export function signedOutRefusal(request: Request, current: Extract<CurrentUser, { status: 'signed-out' }>, route = '') {
  if (isMutation(request)) {
    return data({ error: 'Please log in first.' }, { status: 403, headers: { 'Set-Cookie': clearSessionCookie() } });
  }
  const url = new URL(request.url);
  const params = new URLSearchParams();
  if (current.reason) params.set('signedOut', current.reason);
  const path = url.pathname.replace(/\.data$/, '');
  if (path !== '/admin' && route !== '/admin/*') params.set('redirectTo', path + url.search);
  const query = params.toString();
  return redirect(`/admin${query ? `?${query}` : ''}`, { headers: { 'Set-Cookie': clearSessionCookie() } });
}
