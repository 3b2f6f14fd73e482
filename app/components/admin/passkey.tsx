import { useState } from 'react';
import { useHydrated } from '~/lib/use-hydrated';
import { PASSKEY_MESSAGES } from '~/lib/two-factor';

// Issue 25: the buttons that need the browser's WebAuthn (passkeys). They show only once the page's
// scripts run and the browser can use passkeys; everything else on these screens works without.

async function postJson(url: string, body: unknown): Promise<{ ok: boolean; json: Record<string, unknown> }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    credentials: 'same-origin',
    body: JSON.stringify(body),
  });
  const json = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  return { ok: response.ok, json };
}

function failure(error: unknown): string {
  if (error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError'))
    return PASSKEY_MESSAGES.cancelled;
  return PASSKEY_MESSAGES.refused;
}

const buttonClass =
  'w-full rounded-lg border-2 border-indigo-800 px-4 py-3 text-lg font-semibold text-indigo-800 hover:bg-indigo-50 disabled:cursor-not-allowed disabled:border-slate-400 disabled:text-slate-700';

/** "Sign in with a passkey" (no password), or, with `step`, a passkey as the second step. */
export function PasskeySignInButton({
  step = false,
  redirectTo = '',
  rememberDevice,
}: {
  step?: boolean;
  redirectTo?: string;
  rememberDevice?: () => boolean;
}) {
  const hydrated = useHydrated();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!hydrated || typeof window.PublicKeyCredential === 'undefined') return null;

  async function run() {
    setBusy(true);
    setError(null);
    try {
      const { startAuthentication } = await import('@simplewebauthn/browser');
      const start = await postJson('/admin/passkey', { intent: step ? 'step-options' : 'options' });
      if (!start.ok) throw new Error(String(start.json.error ?? PASSKEY_MESSAGES.refused));
      let response;
      try {
        response = await startAuthentication({ optionsJSON: start.json.options as never });
      } catch (error) {
        setError(failure(error));
        return;
      }
      const done = await postJson('/admin/passkey', {
        intent: step ? 'step' : 'sign-in',
        response,
        redirectTo,
        rememberDevice: rememberDevice?.() ?? false,
      });
      if (!done.ok) throw new Error(String(done.json.error ?? PASSKEY_MESSAGES.refused));
      window.location.assign(String(done.json.redirect));
    } catch (error) {
      setError(error instanceof Error ? error.message : PASSKEY_MESSAGES.refused);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="space-y-2">
      <button type="button" onClick={() => void run()} disabled={busy} className={buttonClass}>
        {busy ? 'Waiting for your passkey...' : step ? 'Use a passkey' : 'Sign in with a passkey'}
      </button>
      <p role="alert" className="text-sm font-medium text-red-800">
        {error}
      </p>
    </div>
  );
}

/** My sign-in: adds a passkey under the name typed. */
export function AddPasskey() {
  const hydrated = useHydrated();
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!hydrated || typeof window.PublicKeyCredential === 'undefined')
    return (
      <p className="mt-2 text-slate-800">{PASSKEY_MESSAGES.unsupported.replace(' Sign in with your email and password.', '')}</p>
    );

  async function add() {
    setBusy(true);
    setError(null);
    try {
      const { startRegistration } = await import('@simplewebauthn/browser');
      const start = await postJson('/admin/security/passkeys', { intent: 'options' });
      if (!start.ok) throw new Error(String(start.json.error ?? PASSKEY_MESSAGES.notAdded));
      let response;
      try {
        response = await startRegistration({ optionsJSON: start.json.options as never });
      } catch (error) {
        setError(failure(error) === PASSKEY_MESSAGES.cancelled ? PASSKEY_MESSAGES.cancelled : PASSKEY_MESSAGES.notAdded);
        return;
      }
      const done = await postJson('/admin/security/passkeys', { intent: 'finish', response, name });
      if (!done.ok) throw new Error(String(done.json.error ?? PASSKEY_MESSAGES.notAdded));
      window.location.assign('/admin/security');
    } catch (error) {
      setError(error instanceof Error ? error.message : PASSKEY_MESSAGES.notAdded);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="mt-4 max-w-sm space-y-3">
      <label htmlFor="passkey-name" className="block font-medium text-slate-900">
        Name for the new passkey
      </label>
      <input
        id="passkey-name"
        type="text"
        maxLength={60}
        value={name}
        placeholder="Work laptop"
        onChange={(e) => setName(e.target.value)}
        className="block w-full rounded-lg border border-slate-400 px-3 py-2"
      />
      <button
        type="button"
        onClick={() => void add()}
        disabled={busy}
        className="rounded-lg bg-indigo-800 px-4 py-2 font-semibold text-white hover:bg-indigo-900 disabled:bg-slate-400 disabled:text-slate-900"
      >
        {busy ? 'Waiting for your device...' : 'Add a passkey'}
      </button>
      <p role="alert" className="text-sm font-medium text-red-800">
        {error}
      </p>
    </div>
  );
}
