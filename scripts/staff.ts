// `npm run staff -- reset-2fa EMAIL`: removes every second sign-in step of one account (authenticator
// app, passkeys, recovery codes, remembered devices), for the super admin locked out of their own
// (nobody in the dashboard can reset theirs). Run on the server, with the site's settings (.env or the
// environment); audited, and the person is told by email. docs/operations.md#two-factor-sign-in
import { ConfigError, getConfig } from '../app/server/platform/config.server.ts';
import { openDatabase, setDatabase } from '../app/server/db/db.server.ts';
import { migrationNames } from '../app/server/db/migrations.server.ts';
import { resetTwoFactorFromCommand } from '../app/server/staff/two-factor.server.ts';

const USAGE = 'Usage: npm run staff -- reset-2fa EMAIL';

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

const [command, email, ...rest] = process.argv.slice(2);
if (command !== 'reset-2fa' || !email || rest.length > 0) fail(USAGE);
if (!/^[^\s@]+@[^\s@]+$/.test(email)) fail(`"${email}" is not an email address. ${USAGE}`);

let config;
try {
  config = getConfig();
} catch (error) {
  if (error instanceof ConfigError) fail(error.message);
  throw error;
}
const handle = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
try {
  const applied = await handle.db
    .selectFrom('kysely_migration' as never)
    .select('name' as never)
    .execute()
    .catch(() => []);
  if (!migrationNames(handle.engine).every((name) => applied.some((row) => (row as { name: string }).name === name)))
    fail('The database is not up to date: start the site once (it applies its migrations), then run this again.');
  setDatabase(handle);
  if (await resetTwoFactorFromCommand(email)) {
    process.stdout.write(
      `The second sign-in step of ${email.toLowerCase()} was reset. They can sign in with their password and set it up again.\n`,
    );
  } else {
    fail(`No account has the email ${email.toLowerCase()}.`);
  }
} finally {
  setDatabase(undefined);
  await handle.close();
}
