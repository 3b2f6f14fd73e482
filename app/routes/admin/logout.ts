import { redirect } from 'react-router';
import { signOut } from '~/server/staff/auth.server';
import { getCurrentStaff } from '~/server/http/staff-context.server';
import { clientIp } from '~/server/http/request-info.server';
import type { Route } from './+types/logout';

export async function loader() {
  return redirect('/admin');
}

/** Ends the session (signed-in or not, the answer is the sign-in screen). */
export async function action({ request, context }: Route.ActionArgs) {
  const current = getCurrentStaff(context);
  const cookie = await signOut(request, current.status === 'signed-in' ? current.user : null, clientIp(context));
  return redirect('/admin', { headers: { 'Set-Cookie': cookie } });
}
