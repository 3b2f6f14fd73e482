import { randomUUID } from 'node:crypto';
import { BroadcastChannel } from 'node:worker_threads';
import { sql, type Kysely } from 'kysely';
import type pg from 'pg';
import type { Engine } from '../db/db.server.ts';
import type { Database } from '../db/schema.ts';
import type { Logger } from './logger.server.ts';
import { publicContentChangedElsewhere, setPublicChangeBroadcast } from './public-changes.server.ts';
import { SITE_CHANNEL, siteWorkerNumber } from '../../../server/web-concurrency.ts';

// Issue 15 (docs/decisions/017-every-core-and-invalidation.md): a change to what visitors see must
// empty the page cache of every process of the site, not only the one that made it.
// - PostgreSQL: NOTIFY on one channel, heard by every process (each worker of each instance) on a
//   connection of its own that only LISTENs. When that connection drops, it comes back with growing
//   pauses, and since notices sent meanwhile are lost, the process then empties its cache.
// - SQLite: one machine, so the worker threads of one `npm start` (decision 040): the message goes
//   to every other thread on the site's BroadcastChannel.
// - One thread on SQLite: nothing to tell.

/** What a worker thread posts on the site's channel for every other one. */
export const PUBLIC_CHANGE_MESSAGE = { topic: 'public-content-changed' } as const;
/** The PostgreSQL channel; the payload names the schema, so sites sharing a database ignore each other. */
export const PUBLIC_CHANGE_CHANNEL = 'tdg_public_changes';

/** Pauses before each new attempt to LISTEN again, the last one repeated. */
export const RECONNECT_DELAYS_MS = [250, 500, 1000, 2000, 5000, 10_000, 30_000];

export interface CacheBus {
  /** Stops listening and sending. */
  close(): Promise<void>;
}

export interface CacheBusOptions {
  engine: Engine;
  /** The database the site works in (PostgreSQL: the NOTIFY is sent through its pool). */
  db: Kysely<Database>;
  /** PostgreSQL: the same DATABASE_URL (with any `options=-c search_path=…`) for the LISTEN connection. */
  databaseUrl?: string | undefined;
  logger: Logger;
}

/** Connects this process's page cache to the others' (see above). */
export function startCacheBus(options: CacheBusOptions): CacheBus {
  if (options.engine === 'postgres' && options.databaseUrl) {
    const channel = createPostgresChannel({
      db: options.db,
      databaseUrl: options.databaseUrl,
      logger: options.logger,
      onChange: publicContentChangedElsewhere,
    });
    const stopSending = setPublicChangeBroadcast(() => channel.publish());
    return {
      async close() {
        stopSending();
        await channel.close();
      },
    };
  }
  if (siteWorkerNumber() !== undefined) return startThreadMessages();
  return { close: async () => undefined };
}

function startThreadMessages(): CacheBus {
  // A thread's own posts do not come back to it.
  const channel = new BroadcastChannel(SITE_CHANNEL);
  channel.unref();
  channel.onmessage = (event) => {
    if ((event.data as { topic?: unknown } | null)?.topic === PUBLIC_CHANGE_MESSAGE.topic) publicContentChangedElsewhere();
  };
  const stopSending = setPublicChangeBroadcast(() => channel.postMessage(PUBLIC_CHANGE_MESSAGE));
  return {
    async close() {
      stopSending();
      channel.close();
    },
  };
}

export interface PostgresChannelOptions {
  db: Kysely<Database>;
  databaseUrl: string;
  logger: Logger;
  /** Called for every change another process announces, and after the LISTEN connection came back. */
  onChange: () => void;
  /** Pauses between attempts to connect again (tests shorten them). */
  reconnectDelaysMs?: readonly number[];
}

export interface PostgresChannel {
  /** Announces a change to every other listener (not to this one). */
  publish(): void;
  /** Resolves once the LISTEN connection is up (again). */
  listening(): Promise<void>;
  /** The server process of the LISTEN connection, while it is up (tests end it on purpose). */
  backendPid(): number | undefined;
  close(): Promise<void>;
}

/** LISTEN on a dedicated connection, reconnecting with growing pauses; NOTIFY through the pool. */
export function createPostgresChannel(options: PostgresChannelOptions): PostgresChannel {
  const { db, databaseUrl, logger, onChange } = options;
  const delays = options.reconnectDelaysMs ?? RECONNECT_DELAYS_MS;
  // This process's own notices come back to it too; the change already reached its listeners.
  const origin = randomUUID();
  let client: pg.Client | undefined;
  let scope: string | undefined;
  let pid: number | undefined;
  let closed = false;
  let failures = 0;
  let timer: NodeJS.Timeout | undefined;
  let up: Promise<void>;
  let markUp: () => void = () => undefined;
  const resetUp = () => {
    up = new Promise<void>((resolve) => (markUp = resolve));
  };
  resetUp();

  const onNotification = (message: pg.Notification) => {
    if (message.channel !== PUBLIC_CHANGE_CHANNEL || !message.payload) return;
    const [from, ...rest] = message.payload.split(' ');
    if (from === origin || rest.join(' ') !== scope) return;
    onChange();
  };

  const connect = async () => {
    timer = undefined;
    if (closed) return;
    const { default: driver } = await import('pg');
    const next = new driver.Client({
      connectionString: databaseUrl,
      connectionTimeoutMillis: 5000,
      keepAlive: true,
      application_name: 'tdg-cache-bus',
    });
    // A lost connection is reported as an error and then an end: both lead to one new attempt.
    let lost = false;
    const onLost = (error?: Error) => {
      if (lost) return;
      lost = true;
      next.removeAllListeners('notification');
      void next.end().catch(() => undefined);
      if (client === next) {
        client = undefined;
        pid = undefined;
        resetUp();
      }
      if (closed) return;
      logger.warn({ err: error }, 'the page cache lost its PostgreSQL LISTEN connection; connecting again');
      schedule();
    };
    next.on('error', onLost);
    next.on('end', () => onLost());
    try {
      await next.connect();
      const row = await next.query<{ schema: string; pid: number }>('SELECT current_schema() AS schema, pg_backend_pid() AS pid');
      next.on('notification', onNotification);
      await next.query(`LISTEN ${PUBLIC_CHANGE_CHANNEL}`);
      if (lost) return;
      if (closed) {
        await next.end().catch(() => undefined);
        return;
      }
      scope = row.rows[0]!.schema;
      pid = row.rows[0]!.pid;
      client = next;
      const reconnected = failures > 0;
      failures = 0;
      markUp();
      // Changes announced while it was down were not heard: forget every page.
      if (reconnected) {
        logger.info('the page cache is listening to PostgreSQL again; emptied it, since changes may have been missed');
        onChange();
      }
    } catch (error) {
      if (!lost) {
        lost = true;
        void next.end().catch(() => undefined);
        if (closed) return;
        logger.warn({ err: error }, 'the page cache cannot LISTEN on PostgreSQL; trying again');
        schedule();
      }
    }
  };

  const schedule = () => {
    if (closed || timer) return;
    const delay = delays[Math.min(failures, delays.length - 1)]!;
    failures++;
    timer = setTimeout(() => void connect(), delay);
    timer.unref();
  };

  void connect();

  return {
    publish() {
      // current_schema() of the sending connection: the same schema the listeners compare with.
      sql`SELECT pg_notify(${PUBLIC_CHANGE_CHANNEL}, ${`${origin} `} || current_schema())`.execute(db).catch((error: unknown) => {
        // The other processes' copies then expire with their TTL (at most 5 minutes).
        logger.warn({ err: error }, 'could not tell the other processes that public pages changed');
      });
    },
    listening: () => up,
    backendPid: () => pid,
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      const current = client;
      client = undefined;
      pid = undefined;
      if (current) {
        current.removeAllListeners('notification');
        await current.end().catch(() => undefined);
      }
    },
  };
}
