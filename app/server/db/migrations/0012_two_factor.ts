import type { Migration } from 'kysely/migration';
import { inTransaction, text } from './frozen.ts';

// Migration 0012_two_factor. A migration means the same thing forever: it uses only what this file and
// ./frozen.ts hold, never the live code or schema of today.

export default function migration(): Migration {
  return {
    // Issue 25: a second step at sign-in (docs/decisions/026-two-factor-sign-in.md).
    up: (db) =>
      inTransaction(db, async (trx) => {
        // One authenticator app per account. `confirmed_at` is null while it is being set up (until
        // its first code); `last_step` is the last 30-second step a code was accepted for, so no code
        // is ever accepted twice.
        await trx.schema
          .createTable('two_factor_totp')
          .addColumn('user_id', text, (c) => c.primaryKey())
          .addColumn('secret', text, (c) => c.notNull())
          .addColumn('confirmed_at', text)
          .addColumn('last_step', 'bigint')
          .addColumn('created_at', text, (c) => c.notNull())
          .execute();
        // Ten single-use recovery codes per account; only their SHA-256 is kept.
        await trx.schema
          .createTable('two_factor_recovery_codes')
          .addColumn('code_hash', text, (c) => c.primaryKey())
          .addColumn('user_id', text, (c) => c.notNull())
          .addColumn('used_at', text)
          .addColumn('created_at', text, (c) => c.notNull())
          .execute();
        await trx.schema
          .createIndex('two_factor_recovery_codes_user')
          .on('two_factor_recovery_codes')
          .column('user_id')
          .execute();
        // Passkeys (WebAuthn credentials): the credential id, its public key and signature counter.
        await trx.schema
          .createTable('passkeys')
          .addColumn('id', text, (c) => c.primaryKey())
          .addColumn('user_id', text, (c) => c.notNull())
          .addColumn('name', text, (c) => c.notNull())
          .addColumn('public_key', text, (c) => c.notNull())
          .addColumn('counter', 'bigint', (c) => c.notNull().defaultTo(0))
          .addColumn('transports', text, (c) => c.notNull().defaultTo('[]'))
          .addColumn('created_at', text, (c) => c.notNull())
          .addColumn('last_used_at', text)
          .execute();
        await trx.schema.createIndex('passkeys_user').on('passkeys').column('user_id').execute();
        // The step between a right password and a session: its token's SHA-256, whose account, and
        // until when. `used_at` is set once, by the one request that opens the session.
        await trx.schema
          .createTable('sign_in_challenges')
          .addColumn('id', text, (c) => c.primaryKey())
          .addColumn('user_id', text)
          .addColumn('kind', text, (c) => c.notNull())
          .addColumn('remember', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('webauthn_challenge', text)
          .addColumn('created_at', text, (c) => c.notNull())
          .addColumn('expires_at', text, (c) => c.notNull())
          .addColumn('used_at', text)
          .execute();
        await trx.schema.createIndex('sign_in_challenges_expires').on('sign_in_challenges').column('expires_at').execute();
        // "Remember this device": the SHA-256 of the token in the device's cookie, and whose it is.
        await trx.schema
          .createTable('remembered_devices')
          .addColumn('id', text, (c) => c.primaryKey())
          .addColumn('user_id', text, (c) => c.notNull())
          .addColumn('created_at', text, (c) => c.notNull())
          .addColumn('expires_at', text, (c) => c.notNull())
          .addColumn('last_used_at', text, (c) => c.notNull())
          .addColumn('ip', text)
          .addColumn('user_agent', text)
          .execute();
        await trx.schema.createIndex('remembered_devices_user').on('remembered_devices').column('user_id').execute();
      }),
  };
}
