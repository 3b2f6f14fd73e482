import { z } from 'zod';
import { data, Form, Link, redirect, useNavigation, useSearchParams } from 'react-router';
import { getStaff } from '~/server/http/staff-context.server';
import { clientIp } from '~/server/http/request-info.server';
import { parseForm } from '~/server/http/forms.server';
import { flashCookie } from '~/server/http/flash.server';
import { ruleResponse } from '~/server/http/rules.server';
import { RuleError } from '~/server/platform/rule-error.server';
import { recordAudit } from '~/server/platform/audit.server';
import { endOwnSession, listSessions, SIGN_IN_PLACES_LISTED } from '~/server/staff/sessions.server';
import {
  confirmTotpEnrolment,
  forgetDevice,
  listRememberedDevices,
  pendingTotpEnrolment,
  regenerateRecoveryCodes,
  removeTotp,
  requiredRoles,
  setRequiredRoles,
  startTotpEnrolment,
  twoFactorStatus,
} from '~/server/staff/two-factor.server';
import { listPasskeys, removePasskey, renamePasskey } from '~/server/staff/passkeys.server';
import { firstError } from '~/lib/forms';
import { AddPasskey } from '~/components/admin/passkey';
import { ROLE_INFO, ROLES } from '~/lib/permissions';
import { PASSKEY_MESSAGES, RECOMMENDED_ROLES, TWO_FACTOR_MESSAGES, totpCodeField } from '~/lib/two-factor';
import { Banner } from '~/components/admin/banner';
import { Field, inputClass } from '~/components/admin/form';
import type { Route } from './+types/security';
import { dashboardMeta } from '~/lib/seo';

// Issue 25: My sign-in. One's own second step (an authenticator app, recovery codes), open sessions and
// remembered devices; for the super admin, which roles must use a second step. Every form is a plain
// POST with an `intent`, so all of it works without JavaScript.

export const meta: Route.MetaFunction = () => dashboardMeta('My sign-in');
export const headers = () => ({ 'Cache-Control': 'no-store' });

export async function loader({ context }: Route.LoaderArgs) {
  const me = getStaff(context);
  const [passkeys, status, pending, sessions, devices, roles] = await Promise.all([
    listPasskeys(me.id),
    twoFactorStatus(me.id),
    pendingTotpEnrolment(me),
    // One more than is shown, to say that older ones are not listed.
    listSessions(me.id, SIGN_IN_PLACES_LISTED + 1),
    listRememberedDevices(me.id, SIGN_IN_PLACES_LISTED + 1),
    requiredRoles(),
  ]);
  return {
    passkeys,
    status,
    pending: pending ?? null,
    sessions: sessions.slice(0, SIGN_IN_PLACES_LISTED).map((s) => ({ ...s, current: s.id === me.sessionId })),
    listed: SIGN_IN_PLACES_LISTED,
    moreSessions: sessions.length > SIGN_IN_PLACES_LISTED,
    moreDevices: devices.length > SIGN_IN_PLACES_LISTED,
    devices: devices.slice(0, SIGN_IN_PLACES_LISTED),
    requiredRoles: roles,
    mustSetUp: roles.includes(me.role) && !status.enabled,
    isSuperAdmin: me.role === 'SUPER_ADMIN',
  };
}

const schema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('start-totp') }),
  z.object({
    intent: z.literal('confirm-totp'),
    code: totpCodeField,
  }),
  z.object({ intent: z.literal('remove-totp') }),
  z.object({ intent: z.literal('recovery-codes') }),
  z.object({ intent: z.literal('remove-passkey'), id: z.string().min(1).max(1_400) }),
  z.object({
    intent: z.literal('rename-passkey'),
    id: z.string().min(1).max(1_400),
    name: z.string().trim().min(1, PASSKEY_MESSAGES.nameLength).max(60, PASSKEY_MESSAGES.nameLength),
  }),
  z.object({ intent: z.literal('end-session'), id: z.string().regex(/^[0-9a-f]{64}$/, TWO_FACTOR_MESSAGES.noSuchSession) }),
  z.object({ intent: z.literal('forget-device'), id: z.string().regex(/^[0-9a-f]{64}$/, TWO_FACTOR_MESSAGES.noSuchDevice) }),
  z.object({
    intent: z.literal('required-roles'),
    ...Object.fromEntries(ROLES.map((role) => [`role_${role}`, z.literal('on').optional()])),
  }),
]);

type Answer = { intent: string; error: string | null; recoveryCodes: string[] | null };

function back(message: string) {
  return redirect('/admin/security', { headers: { 'Set-Cookie': flashCookie({ type: 'success', message }) } });
}

export async function action({ request, context }: Route.ActionArgs) {
  const me = getStaff(context);
  const ip = clientIp(context);
  const form = await parseForm(request, schema, { maxBytes: 4_096 });
  const intent = typeof form.values.intent === 'string' ? form.values.intent : '';
  if (!form.ok)
    return data<Answer>(
      { intent, error: firstError(form) ?? TWO_FACTOR_MESSAGES.noEnrolment, recoveryCodes: null },
      { status: form.status, headers: form.headers },
    );
  const values = form.values;
  try {
    switch (values.intent) {
      case 'start-totp':
        await startTotpEnrolment(me);
        return redirect('/admin/security#authenticator');
      case 'confirm-totp': {
        const codes = await confirmTotpEnrolment(me, values.code, ip);
        return data<Answer>({ intent: values.intent, error: null, recoveryCodes: codes });
      }
      case 'remove-totp':
        await removeTotp(me, ip);
        return back('The authenticator app was removed.');
      case 'recovery-codes':
        return data<Answer>({ intent: values.intent, error: null, recoveryCodes: await regenerateRecoveryCodes(me, ip) });
      case 'remove-passkey':
        await removePasskey(me, values.id, ip);
        return back('The passkey was removed.');
      case 'rename-passkey':
        await renamePasskey(me, values.id, values.name, ip);
        return back('The passkey was renamed.');
      case 'end-session': {
        if (!(await endOwnSession(me.id, values.id))) throw new RuleError(TWO_FACTOR_MESSAGES.noSuchSession, 404);
        await recordAudit({ actor: me.email, action: 'auth.session_ended', target: me.email, ip });
        if (values.id === me.sessionId) return redirect('/admin');
        return back('That session was ended.');
      }
      case 'forget-device':
        await forgetDevice(me, values.id, ip);
        return back('That device will be asked for the second step again.');
      case 'required-roles': {
        const chosen = ROLES.filter((role) => (values as Record<string, unknown>)[`role_${role}`] === 'on');
        await setRequiredRoles(me, chosen, ip);
        return back('The two-factor requirement was saved.');
      }
    }
  } catch (error) {
    if (error instanceof RuleError) return ruleResponse(error);
    throw error;
  }
}

const button =
  'rounded-lg bg-indigo-800 px-4 py-2 font-semibold text-white hover:bg-indigo-900 disabled:cursor-not-allowed disabled:bg-slate-400 disabled:text-slate-900';
const quietButton = 'rounded-lg border border-slate-400 px-4 py-2 font-semibold text-slate-900 hover:bg-slate-100';
const dangerButton = 'rounded-lg border border-red-700 px-4 py-2 font-semibold text-red-800 hover:bg-red-50';
const section = 'rounded-xl border border-slate-200 bg-white p-5 sm:p-6';

function when(iso: string): string {
  return (
    new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short', hourCycle: 'h23', timeZone: 'UTC' }) + ' UTC'
  );
}

function RecoveryCodes({ codes }: { codes: string[] }) {
  return (
    <div className="mt-4 rounded-lg border-2 border-amber-600 bg-amber-50 p-4" role="region" aria-labelledby="codes-title">
      <h3 id="codes-title" className="font-bold text-slate-900">
        Your recovery codes
      </h3>
      <p className="mt-1 text-slate-800">
        Save these ten codes somewhere safe now (print them or keep them in a password manager): this is the only time they are
        shown. Each works once, if you lose your phone.
      </p>
      <ul className="mt-3 grid grid-cols-1 gap-1 font-mono text-lg sm:grid-cols-2" data-testid="recovery-codes">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
    </div>
  );
}

export default function Security({ loaderData, actionData }: Route.ComponentProps) {
  const { passkeys, status, pending, sessions, devices, listed, moreSessions, moreDevices, mustSetUp, isSuperAdmin } = loaderData;
  const [params] = useSearchParams();
  const busy = useNavigation().state === 'submitting';
  const answer = actionData && 'intent' in actionData ? actionData : null;
  const failure = actionData && 'message' in actionData ? actionData.message : (answer?.error ?? null);
  const codes = answer?.recoveryCodes ?? null;
  return (
    <>
      <h1 className="mb-2 text-2xl font-bold text-slate-900">My sign-in</h1>
      <p className="mb-6 text-slate-700">
        A second step at sign-in means a stolen password alone does not open your account.{' '}
        <Link to="/admin/profile" className="font-medium text-indigo-800 underline underline-offset-4">
          Back to My profile
        </Link>
      </p>
      <div className="space-y-3">
        {(mustSetUp || params.get('setup') === 'required') && mustSetUp && (
          <Banner type="warning" message={TWO_FACTOR_MESSAGES.setupRequired} autoClose={false} />
        )}
        {failure && <Banner type="error" message={failure} autoClose={false} />}
        {answer?.intent === 'confirm-totp' && !failure && (
          <Banner
            type="success"
            message="Your authenticator app is set up. You will be asked for a code at each sign-in."
            autoClose={false}
          />
        )}
      </div>

      <div className="mt-6 space-y-6">
        <section className={section} aria-labelledby="authenticator">
          <h2 id="authenticator" className="text-xl font-bold text-slate-900">
            Authenticator app
          </h2>
          {status.totp ? (
            <>
              <p className="mt-2 text-slate-800">Set up. Each sign-in asks for the 6-digit code your app shows.</p>
              <Form method="post" className="mt-4">
                <input type="hidden" name="intent" value="remove-totp" />
                <button type="submit" className={dangerButton} disabled={busy}>
                  Remove the authenticator app
                </button>
              </Form>
            </>
          ) : pending ? (
            <>
              <ol className="mt-2 list-decimal space-y-2 pl-6 text-slate-800">
                <li>
                  Open an authenticator app on your phone (for example Google Authenticator, Microsoft Authenticator or Aegis).
                </li>
                <li>Scan this QR code with it, or type the key below into it.</li>
                <li>Enter the 6-digit code the app then shows.</li>
              </ol>
              <div className="mt-4 flex flex-col gap-4 sm:flex-row sm:items-start">
                <div
                  className="h-48 w-48 shrink-0 rounded-lg border border-slate-300 bg-white p-1"
                  role="img"
                  aria-label="QR code to scan with your authenticator app"
                  dangerouslySetInnerHTML={{ __html: pending.qrSvg }}
                />
                <div>
                  <p className="font-medium text-slate-900">Key, to type in instead of scanning</p>
                  <p className="mt-1 font-mono text-lg break-all text-slate-900" data-testid="totp-key">
                    {pending.key}
                  </p>
                  <p className="mt-1 text-sm text-slate-700">Time based, 6 digits, every 30 seconds.</p>
                </div>
              </div>
              <Form method="post" className="mt-4 max-w-sm space-y-4">
                <input type="hidden" name="intent" value="confirm-totp" />
                <Field
                  id="enrol-code"
                  label="Code from the app"
                  error={answer?.intent === 'confirm-totp' ? (failure ?? undefined) : undefined}
                >
                  {(control) => (
                    <input
                      {...control}
                      name="code"
                      type="text"
                      inputMode="numeric"
                      autoComplete="one-time-code"
                      pattern="[0-9 ]*"
                      maxLength={7}
                      required
                      className={inputClass(Boolean(failure && answer?.intent === 'confirm-totp'))}
                    />
                  )}
                </Field>
                <button type="submit" className={button} disabled={busy}>
                  Confirm and turn on
                </button>
              </Form>
            </>
          ) : (
            <>
              <p className="mt-2 text-slate-800">Not set up. Use an app on your phone to make a new code every 30 seconds.</p>
              <Form method="post" className="mt-4">
                <input type="hidden" name="intent" value="start-totp" />
                <button type="submit" className={button} disabled={busy}>
                  Set up an authenticator app
                </button>
              </Form>
            </>
          )}
          {codes && <RecoveryCodes codes={codes} />}
        </section>

        <section className={section} aria-labelledby="passkeys">
          <h2 id="passkeys" className="text-xl font-bold text-slate-900">
            Passkeys
          </h2>
          <p className="mt-2 text-slate-800">
            A passkey lets this device (its fingerprint, face or screen lock) sign you in without a password, or be the second
            step after one.
          </p>
          {passkeys.length > 0 && (
            <ul className="mt-3 divide-y divide-slate-200" data-testid="passkey-list">
              {passkeys.map((p, index) => (
                <li key={p.id} className="flex flex-wrap items-end justify-between gap-3 py-3">
                  <Form method="post" className="flex flex-wrap items-end gap-2">
                    <input type="hidden" name="intent" value="rename-passkey" />
                    <input type="hidden" name="id" value={p.id} />
                    <div>
                      <label htmlFor={`passkey-${index}`} className="block text-sm font-medium text-slate-900">
                        Passkey name (added {when(p.createdAt)})
                      </label>
                      <input
                        id={`passkey-${index}`}
                        name="name"
                        defaultValue={p.name}
                        maxLength={60}
                        required
                        className={inputClass(false)}
                      />
                    </div>
                    <button type="submit" className={quietButton} disabled={busy}>
                      Rename
                    </button>
                  </Form>
                  <Form method="post">
                    <input type="hidden" name="intent" value="remove-passkey" />
                    <input type="hidden" name="id" value={p.id} />
                    <button type="submit" className={dangerButton} disabled={busy} aria-label={`Remove the passkey ${p.name}`}>
                      Remove
                    </button>
                  </Form>
                </li>
              ))}
            </ul>
          )}
          <AddPasskey />
        </section>

        <section className={section} aria-labelledby="recovery">
          <h2 id="recovery" className="text-xl font-bold text-slate-900">
            Recovery codes
          </h2>
          {status.enabled ? (
            <>
              <p className="mt-2 text-slate-800" data-testid="recovery-left">
                {status.recoveryCodesLeft} of 10 recovery codes left. Making new ones stops the old ones working.
              </p>
              <Form method="post" className="mt-4">
                <input type="hidden" name="intent" value="recovery-codes" />
                <button type="submit" className={quietButton} disabled={busy}>
                  Make new recovery codes
                </button>
              </Form>
            </>
          ) : (
            <p className="mt-2 text-slate-800">You get ten when you set up a second step.</p>
          )}
        </section>

        <section className={section} aria-labelledby="sessions">
          <h2 id="sessions" className="text-xl font-bold text-slate-900">
            Where you are signed in
          </h2>
          <ul className="mt-3 divide-y divide-slate-200">
            {sessions.map((s) => (
              <li key={s.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                {/* min-w-0: a browser's long name breaks rather than widening the page. */}
                <div className="min-w-0">
                  <p className="font-medium text-slate-900">
                    {s.userAgent ?? 'Unknown browser'} {s.current && <strong>(this browser)</strong>}
                  </p>
                  <p className="text-sm text-slate-700">
                    Signed in {when(s.createdAt)}; last used {when(s.lastSeenAt)}
                    {s.ip ? `; from ${s.ip}` : ''}
                  </p>
                </div>
                <Form method="post">
                  <input type="hidden" name="intent" value="end-session" />
                  <input type="hidden" name="id" value={s.id} />
                  <button type="submit" className={quietButton} disabled={busy}>
                    {s.current ? 'Sign out here' : 'End this session'}
                  </button>
                </Form>
              </li>
            ))}
          </ul>
          {moreSessions && (
            <p className="mt-2 text-sm text-slate-700">
              The {listed} most recently used are listed; older ones end by themselves.
            </p>
          )}
        </section>

        <section className={section} aria-labelledby="devices">
          <h2 id="devices" className="text-xl font-bold text-slate-900">
            Remembered devices
          </h2>
          {devices.length === 0 ? (
            <p className="mt-2 text-slate-800">None. Every sign-in asks for the second step.</p>
          ) : (
            <ul className="mt-3 divide-y divide-slate-200">
              {devices.map((d) => (
                <li key={d.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                  <div className="min-w-0">
                    <p className="font-medium text-slate-900">{d.userAgent ?? 'Unknown browser'}</p>
                    <p className="text-sm text-slate-700">
                      Remembered {when(d.createdAt)}; last used {when(d.lastUsedAt)}
                    </p>
                  </div>
                  <Form method="post">
                    <input type="hidden" name="intent" value="forget-device" />
                    <input type="hidden" name="id" value={d.id} />
                    <button type="submit" className={quietButton} disabled={busy}>
                      Forget this device
                    </button>
                  </Form>
                </li>
              ))}
            </ul>
          )}
          {moreDevices && (
            <p className="mt-2 text-sm text-slate-700">
              The {listed} most recently used are listed; older ones are forgotten after 30 days.
            </p>
          )}
        </section>

        {isSuperAdmin && (
          <section className={section} aria-labelledby="required">
            <h2 id="required" className="text-xl font-bold text-slate-900">
              Who must use a second step
            </h2>
            <p className="mt-2 text-slate-800">
              People with a chosen role who have no second step are taken to set one up before anything else in the dashboard.
              Recommended for {RECOMMENDED_ROLES.map((role) => ROLE_INFO[role].label).join(' and ')}.
            </p>
            <Form method="post" className="mt-4 space-y-4">
              <input type="hidden" name="intent" value="required-roles" />
              <fieldset>
                <legend className="font-medium text-slate-900">Roles</legend>
                <div className="mt-2 flex flex-wrap gap-x-6 gap-y-2">
                  {ROLES.map((role) => (
                    <label key={role} className="inline-flex items-center gap-2 text-slate-800">
                      <input
                        type="checkbox"
                        name={`role_${role}`}
                        defaultChecked={loaderData.requiredRoles.includes(role)}
                        className="h-5 w-5 rounded border-slate-400 accent-indigo-800"
                      />
                      {ROLE_INFO[role].label}
                    </label>
                  ))}
                </div>
              </fieldset>
              <button type="submit" className={button} disabled={busy}>
                Save the requirement
              </button>
            </Form>
          </section>
        )}
      </div>
    </>
  );
}
