import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/databases';
import { createPostgresChannel, type PostgresChannel } from './cache-bus.server';
import { createLogger } from './logger.server';
import {
  onPublicContentChanged,
  publicContentChanged,
  publicContentChangedElsewhere,
  setPublicChangeBroadcast,
} from './public-changes.server';

// Issue 15: a change in one process empties the page cache of every process.

describe('telling this process and the others', () => {
  it('a change reaches the listeners here and the other processes; one heard from elsewhere is not sent on', () => {
    let heard = 0;
    let sent = 0;
    const stopListening = onPublicContentChanged(() => heard++);
    const stopSending = setPublicChangeBroadcast(() => sent++);
    try {
      publicContentChanged();
      expect({ heard, sent }).toEqual({ heard: 1, sent: 1 });
      publicContentChangedElsewhere();
      expect({ heard, sent }).toEqual({ heard: 2, sent: 1 });
    } finally {
      stopSending();
      stopListening();
    }
    publicContentChanged();
    expect({ heard, sent }).toEqual({ heard: 2, sent: 1 });
  });
});

const TEST_URL = process.env.TEST_DATABASE_URL;

/** DATABASE_URL as an operator (or the journeys) would set it for a site kept in `schema`. */
function urlFor(schema: string): string {
  const url = new URL(TEST_URL!);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
}

describe.skipIf(!TEST_URL)('two instances on one PostgreSQL database', () => {
  const logger = createLogger('silent');
  let database: TestDatabase;
  let schema: string;
  const channels: PostgresChannel[] = [];
  let admin: pg.Client;

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    schema = (await database.db.selectNoFrom((eb) => eb.fn<string>('current_schema').as('s')).executeTakeFirstOrThrow()).s;
    admin = new pg.Client({ connectionString: TEST_URL });
    await admin.connect();
  });
  afterEach(async () => {
    await Promise.all(channels.splice(0).map((channel) => channel.close()));
  });
  afterAll(async () => {
    await admin.end();
    await database.drop();
  });

  /** One instance's side of the bus, counting the purges it is asked for. */
  async function instance(inSchema = schema): Promise<{ channel: PostgresChannel; purges: () => number }> {
    let purges = 0;
    const channel = createPostgresChannel({
      db: database.db,
      databaseUrl: urlFor(inSchema),
      logger,
      onChange: () => purges++,
      reconnectDelaysMs: [50, 100, 200],
    });
    channels.push(channel);
    await channel.listening();
    return { channel, purges: () => purges };
  }

  it('a change announced by one is heard by the other within a second, not by itself', async () => {
    const a = await instance();
    const b = await instance();
    a.channel.publish();
    await expect.poll(b.purges, { timeout: 1000 }).toBe(1);
    b.channel.publish();
    await expect.poll(a.purges, { timeout: 1000 }).toBe(1);
    expect(b.purges()).toBe(1);
  });

  it('ignores a site kept in another schema of the same database', async () => {
    const other = `cache_bus_${randomBytes(4).toString('hex')}`;
    await admin.query(`CREATE SCHEMA ${other}`);
    try {
      const a = await instance();
      const b = await instance();
      const elsewhere = await instance(other);
      a.channel.publish();
      await expect.poll(b.purges, { timeout: 1000 }).toBe(1);
      // The notice reached both listeners at once; the other site's stayed silent.
      expect(elsewhere.purges()).toBe(0);
    } finally {
      await admin.query(`DROP SCHEMA ${other} CASCADE`);
    }
  });

  it('a dropped LISTEN connection comes back, purges everything it may have missed, and hears again', async () => {
    const a = await instance();
    const b = await instance();
    const pid = b.channel.backendPid()!;
    expect(pid).toBeGreaterThan(0);
    await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    // Back within a second, with a new connection, and its cache emptied.
    await expect.poll(b.purges, { timeout: 1000 }).toBe(1);
    expect(b.channel.backendPid()).not.toBe(pid);
    await b.channel.listening();
    a.channel.publish();
    await expect.poll(b.purges, { timeout: 1000 }).toBe(2);
  });
});
