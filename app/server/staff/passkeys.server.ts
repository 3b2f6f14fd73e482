import type {
  AuthenticationResponseJSON,
  AuthenticatorTransport,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { getDb } from '../db/db.server.ts';
import { getConfig } from '../platform/config.server.ts';
import { nowIso } from '../platform/ids.server.ts';
import { recordAudit } from '../platform/audit.server.ts';
import { getLogger } from '../platform/logger.server.ts';
import type { Role } from '../../lib/permissions.ts';
import { PASSKEY_MESSAGES, TWO_FACTOR_MESSAGES } from '../../lib/two-factor.ts';
import {
  createChallenge,
  factorMail,
  forgetAllDevices,
  readChallenge,
  twoFactorRequiredFor,
  twoFactorStatus,
  TwoFactorRuleError,
  type FactorOwner,
} from './two-factor.server.ts';

/** The passkey library (about 5 MB of heap) is loaded when a passkey is first used, not by every worker at start. */
const webauthn = () => import('@simplewebauthn/server');

// Issue 25: passkeys (WebAuthn, through SimpleWebAuthn). Added, named and removed on My sign-in; used
// to sign in without a password (discoverable credentials) and as the second step after one. Each
// ceremony's challenge is kept server-side in sign_in_challenges, used once, for five minutes.

export const PASSKEY_NAME_MAX = 60;

/** The relying party: this site, as its public address names it. */
function relyingParty(): { rpID: string; rpName: string; origin: string } {
  const { publicUrl, organisation } = getConfig();
  const url = new URL(publicUrl);
  return { rpID: url.hostname, rpName: organisation.name, origin: url.origin };
}

const toBase64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const fromBase64url = (text: string) => new Uint8Array(Buffer.from(text, 'base64url'));

export interface PasskeyInfo {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

export async function listPasskeys(userId: string): Promise<PasskeyInfo[]> {
  const rows = await getDb()
    .selectFrom('passkeys')
    .select(['id', 'name', 'created_at', 'last_used_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute();
  return rows.map((r) => ({ id: r.id, name: r.name, createdAt: r.created_at, lastUsedAt: r.last_used_at }));
}

async function transportsOf(userId: string) {
  const rows = await getDb().selectFrom('passkeys').select(['id', 'transports']).where('user_id', '=', userId).execute();
  return rows.map((r) => ({ id: r.id, transports: parseTransports(r.transports) }));
}

function parseTransports(json: string): AuthenticatorTransport[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? (value.filter((t) => typeof t === 'string') as AuthenticatorTransport[]) : [];
  } catch {
    return [];
  }
}

// ---------------------------------------------------------------------------------------------
// Adding one

export async function passkeyRegistrationOptions(
  owner: FactorOwner,
): Promise<{ token: string; options: PublicKeyCredentialCreationOptionsJSON }> {
  const { rpID, rpName } = relyingParty();
  const options = await (
    await webauthn()
  ).generateRegistrationOptions({
    rpName,
    rpID,
    userName: owner.email,
    userDisplayName: owner.name ?? owner.email,
    userID: new TextEncoder().encode(owner.id),
    attestationType: 'none',
    excludeCredentials: await transportsOf(owner.id),
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
  });
  const token = await createChallenge({ kind: 'passkey-add', userId: owner.id, webauthnChallenge: options.challenge });
  return { token, options };
}

export async function finishPasskeyRegistration(
  owner: FactorOwner,
  input: { token: string | undefined; response: unknown; name: string },
  ip: string,
): Promise<PasskeyInfo> {
  const name = input.name.trim().slice(0, PASSKEY_NAME_MAX) || 'Passkey';
  const challenge = await readChallenge(input.token, 'passkey-add');
  if (!challenge || challenge.userId !== owner.id || !challenge.webauthnChallenge)
    throw new TwoFactorRuleError(PASSKEY_MESSAGES.expired, 410);
  await getDb().updateTable('sign_in_challenges').set({ used_at: nowIso() }).where('id', '=', challenge.id).execute();
  const { rpID, origin } = relyingParty();
  let verified;
  try {
    verified = await (
      await webauthn()
    ).verifyRegistrationResponse({
      response: input.response as RegistrationResponseJSON,
      expectedChallenge: challenge.webauthnChallenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: false,
    });
  } catch (error) {
    getLogger().warn({ err: error }, 'a passkey could not be added');
    throw new TwoFactorRuleError(PASSKEY_MESSAGES.notAdded, 400);
  }
  if (!verified.verified) throw new TwoFactorRuleError(PASSKEY_MESSAGES.notAdded, 400);
  const { credential } = verified.registrationInfo;
  const at = nowIso();
  await getDb()
    .insertInto('passkeys')
    .values({
      id: credential.id,
      user_id: owner.id,
      name,
      public_key: toBase64url(credential.publicKey),
      counter: credential.counter,
      transports: JSON.stringify(credential.transports ?? []),
      created_at: at,
      last_used_at: null,
    })
    .execute();
  await forgetAllDevices(owner.id);
  await recordAudit({ actor: owner.email, action: 'two_factor.passkey_added', target: owner.email, ip, detail: { name } });
  await factorMail(owner, 'added', `A passkey ("${name}")`);
  return { id: credential.id, name, createdAt: at, lastUsedAt: null };
}

export async function renamePasskey(owner: FactorOwner, id: string, name: string, ip: string): Promise<void> {
  const trimmed = name.trim();
  if (!trimmed || trimmed.length > PASSKEY_NAME_MAX) throw new TwoFactorRuleError(PASSKEY_MESSAGES.nameLength, 400, 'name');
  const done = await getDb()
    .updateTable('passkeys')
    .set({ name: trimmed })
    .where('id', '=', id)
    .where('user_id', '=', owner.id)
    .executeTakeFirst();
  if (Number(done.numUpdatedRows) !== 1) throw new TwoFactorRuleError(PASSKEY_MESSAGES.noSuchPasskey, 404);
  await recordAudit({
    actor: owner.email,
    action: 'two_factor.passkey_renamed',
    target: owner.email,
    ip,
    detail: { name: trimmed },
  });
}

export async function removePasskey(owner: FactorOwner & { role: Role }, id: string, ip: string): Promise<void> {
  const row = await getDb()
    .selectFrom('passkeys')
    .select('name')
    .where('id', '=', id)
    .where('user_id', '=', owner.id)
    .executeTakeFirst();
  if (!row) throw new TwoFactorRuleError(PASSKEY_MESSAGES.noSuchPasskey, 404);
  const status = await twoFactorStatus(owner.id);
  if (!status.totp && status.passkeys === 1 && (await twoFactorRequiredFor(owner.role)))
    throw new TwoFactorRuleError(TWO_FACTOR_MESSAGES.lastFactorRequired, 409);
  await getDb().deleteFrom('passkeys').where('id', '=', id).where('user_id', '=', owner.id).execute();
  if (!status.totp && status.passkeys === 1)
    await getDb().deleteFrom('two_factor_recovery_codes').where('user_id', '=', owner.id).execute();
  await forgetAllDevices(owner.id);
  await recordAudit({
    actor: owner.email,
    action: 'two_factor.passkey_removed',
    target: owner.email,
    ip,
    detail: { name: row.name },
  });
  await factorMail(owner, 'removed', `The passkey "${row.name}"`);
}

// ---------------------------------------------------------------------------------------------
// Using one

/** Options for a sign-in with a passkey: none named (the authenticator offers its own), or the account's. */
export async function passkeyAuthenticationOptions(userId: string | null): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const { rpID } = relyingParty();
  return (await webauthn()).generateAuthenticationOptions({
    rpID,
    userVerification: 'preferred',
    allowCredentials: userId ? await transportsOf(userId) : [],
  });
}

/**
 * Checks a passkey's answer to `expectedChallenge` and moves its counter on. Answers the account it
 * belongs to, or undefined (an unknown passkey, another account's when `userId` is given, a wrong
 * signature, a counter that went back).
 */
export async function verifyPasskey(
  response: unknown,
  expectedChallenge: string,
  userId?: string,
): Promise<{ userId: string; passkeyId: string } | undefined> {
  const answer = response as AuthenticationResponseJSON;
  if (!answer || typeof answer !== 'object' || typeof answer.id !== 'string') return undefined;
  const db = getDb();
  const row = await db.selectFrom('passkeys').selectAll().where('id', '=', answer.id).executeTakeFirst();
  if (!row || (userId && row.user_id !== userId)) return undefined;
  const { rpID, origin } = relyingParty();
  try {
    const result = await (
      await webauthn()
    ).verifyAuthenticationResponse({
      response: answer,
      expectedChallenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: false,
      credential: {
        id: row.id,
        publicKey: fromBase64url(row.public_key),
        counter: Number(row.counter),
        transports: parseTransports(row.transports),
      },
    });
    if (!result.verified) return undefined;
    await db
      .updateTable('passkeys')
      .set({ counter: result.authenticationInfo.newCounter, last_used_at: nowIso() })
      .where('id', '=', row.id)
      .execute();
    return { userId: row.user_id, passkeyId: row.id };
  } catch (error) {
    getLogger().warn({ err: error }, 'a passkey answer was refused');
    return undefined;
  }
}
