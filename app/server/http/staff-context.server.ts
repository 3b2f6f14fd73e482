import { createContext, type RouterContextProvider } from 'react-router';
import type { CurrentUser, StaffUser } from '../staff/auth.server.ts';

/**
 * What the admin middleware (app/server/http/admin-access.server.ts) decided for this request, for the
 * admin loaders and actions to read instead of looking the session up again.
 */
export interface AdminAccess {
  /** The request's session: signed in (with the staff member) or signed out (with the reason). */
  current: CurrentUser;
}

/** Set by the admin middleware on every /admin request; no default, so reading it elsewhere fails loudly. */
export const adminAccessContext = createContext<AdminAccess>();

type Context = Readonly<RouterContextProvider>;

/** The signed-in staff member. Only for routes whose rule needs a session (anything but 'public'). */
export function getStaff(context: Context): StaffUser {
  const { current } = context.get(adminAccessContext);
  if (current.status !== 'signed-in') throw new Error('getStaff() on a route the access table lets signed-out visitors use');
  return current.user;
}

/** The session as the middleware found it, signed in or not (for the sign-in, logout and reset screens). */
export function getCurrentStaff(context: Context): CurrentUser {
  return context.get(adminAccessContext).current;
}
