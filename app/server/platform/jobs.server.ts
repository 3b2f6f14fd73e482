import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { sql, type Kysely, type Selectable } from 'kysely';
import { getDatabase, getDb } from '../db/db.server.ts';
import type { Database, JobTable } from '../db/schema.ts';
import { newId } from './ids.server.ts';
import { getLogger } from './logger.server.ts';

// Work that must not hold up a request (mail first), kept as rows in `jobs` so that it survives a
// restart and runs once however many processes or instances serve the site
// (docs/decisions/010-background-jobs-and-mail-queue.md).
// Handlers are registered and the worker started at start-up (bootstrap.server.ts).

export interface JobInfo {
  id: string;
  kind: string;
  /** This run included. */
  attempts: number;
  maxAttempts: number;
  /**
   * Aborted when this process stops. A long job may end early on it (throwing); it is then handed
   * back, due at once and without the run counting as an attempt, for the next process to run.
   */
  signal?: AbortSignal;
}

/** Does the work; throwing asks for another attempt later (until max_attempts). */
export type JobHandler = (payload: unknown, job: JobInfo) => Promise<void>;

type JobRow = Selectable<JobTable>;

/** Waits after the 1st, 2nd, 3rd… failed attempt; the last one repeats. */
export const RETRY_DELAYS_MS = [30_000, 2 * 60_000, 10 * 60_000, 60 * 60_000, 6 * 60 * 60_000];
/** A running job whose worker has not renewed its lock for this long is taken to have died with its process. */
export const JOB_LEASE_MS = 5 * 60_000;
const DONE_KEPT_MS = 24 * 60 * 60_000;
const FAILED_KEPT_MS = 30 * 24 * 60 * 60_000;
const ERROR_MAX_CHARS = 1_000;
/** last_error of a job handed back when its process stopped. */
export const INTERRUPTED = 'Stopped with its process before it finished; it runs again';

const handlers = new Map<string, { handler: JobHandler; lane: string; onePerSite: boolean }>();

// Lanes: the worker runs one job at a time in each lane, and the lanes side by side, so a slow kind
// (a 15-minute transcode) given a lane of its own never holds up mail or scheduled publishing in its
// process. Every kind is in the default lane unless registered in another.
export const DEFAULT_JOB_LANE = 'default';

export interface JobRegistration {
  /** The lane its jobs wait in (one at a time per lane and process); DEFAULT_JOB_LANE when not given. */
  lane?: string;
  /**
   * At most one job of this kind runs on the whole site at a time, however many processes and
   * instances run workers: the next is claimed only once no job of its kind is running (a running
   * job's row is its lease, renewed while it runs and taken back JOB_LEASE_MS after its process died).
   * For work that takes a machine's memory or cores (a transcode); other kinds run side by side.
   */
  onePerSite?: boolean;
}

/** Lets this process's worker run jobs of `kind`; returns a function that takes it back. */
export function registerJobHandler(kind: string, handler: JobHandler, options: JobRegistration = {}): () => void {
  const entry = { handler, lane: options.lane ?? DEFAULT_JOB_LANE, onePerSite: options.onePerSite ?? false };
  handlers.set(kind, entry);
  return () => {
    if (handlers.get(kind) === entry) handlers.delete(kind);
  };
}

/** The kinds this process runs: all of them, or those of one lane. */
function kindsToRun(lane?: string): string[] {
  return [...handlers].filter(([, entry]) => lane === undefined || entry.lane === lane).map(([kind]) => kind);
}

// Recurring jobs (a daily clean-up): one row per kind with a fixed id, so however many processes
// schedule it there is at most one, claimed like any other job. Once run it is queued again for its
// next time instead of being finished; one that fails on every attempt waits for its next time too.
const RECURRING_PREFIX = 'recurring:';
const recurring = new Map<string, number>();

/** The fixed id of the one row of a recurring kind. */
export function recurringJobId(kind: string): string {
  return `${RECURRING_PREFIX}${kind}`;
}

/**
 * Lets this process run `kind` every `everyMs` (measured from the end of the last run). The worker
 * puts its row in the jobs table when it starts, unless another process already has; returns a
 * function that takes the registration back.
 */
export function registerRecurringJob(
  kind: string,
  handler: JobHandler,
  everyMs: number,
  options: JobRegistration = {},
): () => void {
  if (!(everyMs > 0)) throw new Error('A recurring job needs a positive interval');
  const unregister = registerJobHandler(kind, handler, options);
  recurring.set(kind, everyMs);
  return () => {
    unregister();
    if (recurring.get(kind) === everyMs) recurring.delete(kind);
  };
}

/**
 * Makes sure every recurring kind this process runs has its row, due at once when new. Idempotent
 * and safe from many processes at once: the fixed id and "on conflict do nothing" keep one row.
 * Returns the kinds it added.
 */
export async function scheduleRecurringJobs(now = Date.now(), kinds: string[] = [...recurring.keys()]): Promise<string[]> {
  if (kinds.length === 0) return [];
  const db = getDatabase().db;
  // A read first, so the usual case (already there) never asks for SQLite's write lock.
  const present = new Set(
    (await db.selectFrom('jobs').select('id').where('id', 'in', kinds.map(recurringJobId)).execute()).map((row) => row.id),
  );
  const added: string[] = [];
  for (const kind of kinds) {
    if (present.has(recurringJobId(kind))) continue;
    const at = new Date(now).toISOString();
    const result = await db
      .insertInto('jobs')
      .values({ id: recurringJobId(kind), kind, payload: '{}', status: 'queued', run_at: at, created_at: at })
      .onConflict((oc) => oc.column('id').doNothing())
      .executeTakeFirst();
    if (Number(result.numInsertedOrUpdatedRows ?? 0) > 0) added.push(kind);
  }
  if (added.length) wakeJobWorkers();
  return added;
}

/** The interval of a claimed job when it is the row of a recurring kind this process runs. */
function recurrenceOf(job: Pick<JobRow, 'id' | 'kind'>): number | undefined {
  return job.id === recurringJobId(job.kind) ? recurring.get(job.kind) : undefined;
}

const wakeHooks = new Set<() => void>();

/** Tells this process's workers to look for work now instead of at their next poll. */
export function wakeJobWorkers(): void {
  for (const wake of wakeHooks) wake();
}

/**
 * Queues a job. Pass `db` to enqueue inside a transaction (then call wakeJobWorkers after it commits,
 * or let the next poll find it).
 */
export async function enqueueJob(
  kind: string,
  payload: unknown,
  options: { runAt?: Date; maxAttempts?: number; db?: Kysely<Database> } = {},
): Promise<string> {
  const id = newId();
  const now = new Date();
  const db = options.db ?? getDatabase().db;
  await db
    .insertInto('jobs')
    .values({
      id,
      kind,
      payload: JSON.stringify(payload ?? null),
      status: 'queued',
      run_at: (options.runAt ?? now).toISOString(),
      created_at: now.toISOString(),
      ...(options.maxAttempts ? { max_attempts: options.maxAttempts } : {}),
    })
    .execute();
  if (!db.isTransaction) wakeJobWorkers();
  return id;
}

/**
 * Takes the next due job of one of `kinds` for `workerId`, or nothing. One statement, so two workers
 * never take the same job: SQLite runs it under its single write lock; PostgreSQL's SKIP LOCKED lets
 * a second worker pass over the row the first is taking instead of waiting and taking it too.
 * A job of a kind registered `onePerSite` is taken only while none of its kind is running. SQLite's
 * write lock makes that check and the claim one step already; on PostgreSQL two claims could each
 * see none running, so such claims take a transaction-scoped advisory lock first, one at a time.
 */
export async function claimJob(workerId: string, kinds: string[], now = Date.now()): Promise<JobRow | undefined> {
  if (kinds.length === 0) return undefined;
  const { db, engine } = getDatabase();
  const at = new Date(now).toISOString();
  const onePerSite = kinds.filter((kind) => handlers.get(kind)?.onePerSite);
  const dueJobs = (from: Kysely<Database>) => {
    let due = from
      .selectFrom('jobs as next')
      .select('next.id')
      .where('next.status', '=', 'queued')
      .where('next.run_at', '<=', at)
      .where('next.kind', 'in', kinds);
    if (onePerSite.length > 0)
      due = due.where((eb) =>
        eb.or([
          eb('next.kind', 'not in', onePerSite),
          eb.not(
            eb.exists(
              eb
                .selectFrom('jobs as held')
                .select('held.id')
                .whereRef('held.kind', '=', 'next.kind')
                .where('held.status', '=', 'running'),
            ),
          ),
        ]),
      );
    return due;
  };
  // A read first, so an idle poll (or one waiting for another transcode) never asks for a write lock.
  if (!(await dueJobs(db).limit(1).executeTakeFirst())) return undefined;
  const claim = (into: Kysely<Database>) =>
    into
      .updateTable('jobs')
      .set({ status: 'running', locked_at: at, locked_by: workerId, attempts: sql<number>`attempts + 1` })
      .where('id', '=', () => {
        const next = dueJobs(into).orderBy('next.run_at').limit(1);
        return engine === 'postgres' ? next.forUpdate().skipLocked() : next;
      })
      .where('status', '=', 'queued')
      .returningAll()
      .executeTakeFirst();
  if (onePerSite.length === 0 || engine !== 'postgres') return claim(db);
  return db.transaction().execute(async (trx) => {
    // Held until this claim commits, so the next one's statement sees it running. Named after the
    // schema, like the start-up lock: sites (and tests) sharing a server do not wait for each other.
    await sql`SELECT pg_advisory_xact_lock(hashtext('tdg:jobs:one-per-site:' || current_schema()))`.execute(trx);
    return claim(trx);
  });
}

/**
 * Puts back jobs left running by a process that stopped (its lock not renewed for `leaseMs`): queued
 * again while attempts remain, failed otherwise. The lost run counts as an attempt, so a job that
 * kills its process every time does not loop for ever.
 */
export async function requeueStaleJobs(now = Date.now(), leaseMs = JOB_LEASE_MS): Promise<number> {
  const db = getDatabase().db;
  const at = new Date(now).toISOString();
  const staleBefore = new Date(now - leaseMs).toISOString();
  const reason = 'The process running it stopped before it finished';
  const failed = await db
    .updateTable('jobs')
    .set({ status: 'failed', finished_at: at, locked_at: null, locked_by: null, last_error: reason })
    .where('status', '=', 'running')
    .where('locked_at', '<', staleBefore)
    .where((eb) => eb('attempts', '>=', eb.ref('max_attempts')))
    // A recurring job is never given up: it is queued again below, and its next run starts its count afresh.
    .where('id', 'not like', `${RECURRING_PREFIX}%`)
    .executeTakeFirst();
  const requeued = await db
    .updateTable('jobs')
    .set({ status: 'queued', run_at: at, locked_at: null, locked_by: null, last_error: reason })
    .where('status', '=', 'running')
    .where('locked_at', '<', staleBefore)
    .executeTakeFirst();
  const total = Number(failed.numUpdatedRows) + Number(requeued.numUpdatedRows);
  if (total > 0)
    getLogger().warn(
      { requeued: Number(requeued.numUpdatedRows), failed: Number(failed.numUpdatedRows) },
      'jobs left running by a stopped process were taken back',
    );
  return total;
}

/** Removes finished jobs once nobody needs them (their payloads may name people). */
export async function pruneFinishedJobs(now = Date.now()): Promise<void> {
  const db = getDatabase().db;
  await db
    .deleteFrom('jobs')
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', 'done'), eb('finished_at', '<', new Date(now - DONE_KEPT_MS).toISOString())]),
        eb.and([eb('status', '=', 'failed'), eb('finished_at', '<', new Date(now - FAILED_KEPT_MS).toISOString())]),
      ]),
    )
    .execute();
}

export function retryDelayMs(attempts: number): number {
  return RETRY_DELAYS_MS[Math.min(Math.max(attempts, 1), RETRY_DELAYS_MS.length) - 1]!;
}

/** An error's message followed by its causes' ("…: connect ECONNREFUSED"), for last_error. */
function describeError(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error; e !== undefined && parts.length < 5; e = e instanceof Error ? e.cause : undefined)
    parts.push(e instanceof Error ? e.message || e.name : String(e));
  return parts.join(': ');
}

// Never before the claim, even when a test has moved the worker's clock ahead.
function finishedAt(claimedAt: number): string {
  return new Date(Math.max(claimedAt, Date.now())).toISOString();
}

export type JobOutcome = { id: string; kind: string; status: 'done' | 'retry' | 'failed' | 'handed back' };

/**
 * Claims and runs one due job (of `lane` only, when given); undefined when there was none. `now` is
 * the worker's clock (tests move it). `signal` is the process stopping: a job that throws once it is
 * aborted is handed back rather than counted as failed.
 */
export async function runNextJob(options: {
  workerId: string;
  now?: number;
  leaseMs?: number;
  lane?: string;
  signal?: AbortSignal;
}): Promise<JobOutcome | undefined> {
  const { workerId, now = Date.now(), leaseMs = JOB_LEASE_MS, lane, signal } = options;
  if (signal?.aborted) return undefined;
  const job = await claimJob(workerId, kindsToRun(lane), now);
  if (!job) return undefined;
  const db = getDatabase().db;
  const mine = db.updateTable('jobs').where('id', '=', job.id).where('locked_by', '=', workerId).where('status', '=', 'running');
  // A long job renews its lock, so it is never mistaken for one whose process died.
  const renew = setInterval(() => {
    mine
      .set({ locked_at: new Date().toISOString() })
      .execute()
      .catch(() => undefined);
  }, leaseMs / 3);
  renew.unref();
  const info: JobInfo = {
    id: job.id,
    kind: job.kind,
    attempts: Number(job.attempts),
    maxAttempts: Number(job.max_attempts),
    ...(signal ? { signal } : {}),
  };
  const log = getLogger();
  try {
    const handler = handlers.get(job.kind)?.handler;
    if (!handler) throw new Error(`No handler for jobs of kind ${job.kind}`);
    await handler(JSON.parse(job.payload) as unknown, info);
    const every = recurrenceOf(job);
    if (every) {
      const finished = finishedAt(now);
      const next = new Date(Date.parse(finished) + every).toISOString();
      await mine
        .set({
          status: 'queued',
          run_at: next,
          attempts: 0,
          finished_at: finished,
          last_error: null,
          locked_at: null,
          locked_by: null,
        })
        .execute();
    } else await mine.set({ status: 'done', finished_at: finishedAt(now), locked_at: null, locked_by: null }).execute();
    return { id: job.id, kind: job.kind, status: 'done' };
  } catch (error) {
    if (signal?.aborted) {
      // Stopped with its process (a transcode cut short): due again at once, this run not counted.
      await mine
        .set({
          status: 'queued',
          run_at: finishedAt(now),
          attempts: sql<number>`attempts - 1`,
          last_error: INTERRUPTED,
          locked_at: null,
          locked_by: null,
        })
        .execute();
      log.info({ jobId: job.id, kind: job.kind }, 'job stopped with its process; it runs again at the next start');
      return { id: job.id, kind: job.kind, status: 'handed back' };
    }
    const reason = describeError(error).slice(0, ERROR_MAX_CHARS);
    const every = recurrenceOf(job);
    if (every && info.attempts >= info.maxAttempts) {
      const finished = finishedAt(now);
      const next = new Date(Date.parse(finished) + every).toISOString();
      await mine
        .set({
          status: 'queued',
          run_at: next,
          attempts: 0,
          finished_at: finished,
          last_error: reason,
          locked_at: null,
          locked_by: null,
        })
        .execute();
      log.error(
        { err: error, jobId: job.id, kind: job.kind, attempts: info.attempts, nextRunAt: next },
        'recurring job failed after its last attempt; it runs again at its next time',
      );
      return { id: job.id, kind: job.kind, status: 'failed' };
    }
    if (info.attempts >= info.maxAttempts) {
      await mine
        .set({ status: 'failed', finished_at: finishedAt(now), last_error: reason, locked_at: null, locked_by: null })
        .execute();
      log.error({ err: error, jobId: job.id, kind: job.kind, attempts: info.attempts }, 'job failed after its last attempt');
      return { id: job.id, kind: job.kind, status: 'failed' };
    }
    const runAt = new Date(now + retryDelayMs(info.attempts)).toISOString();
    await mine.set({ status: 'queued', run_at: runAt, last_error: reason, locked_at: null, locked_by: null }).execute();
    log.warn(
      { err: error, jobId: job.id, kind: job.kind, attempts: info.attempts, retryAt: runAt },
      'job failed; it will be tried again',
    );
    return { id: job.id, kind: job.kind, status: 'retry' };
  } finally {
    clearInterval(renew);
  }
}

export interface JobWorkerOptions {
  /** How often to look for due jobs when nobody wakes the worker. */
  pollMs?: number;
  workerId?: string;
  leaseMs?: number;
  /** How often to take back jobs of stopped processes, remove old finished ones and check the recurring ones' rows. */
  housekeepingMs?: number;
}

/**
 * Runs due jobs until stopped: at each poll, and at once when this process enqueues one; one job at
 * a time in each lane, the lanes side by side. Returns a stop function that tells the jobs in hand
 * (JobInfo.signal) and waits for them to finish or hand themselves back.
 */
export function startJobWorker(options: JobWorkerOptions = {}): () => Promise<void> {
  const {
    pollMs = 1_000,
    workerId = `${os.hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`,
    leaseMs = JOB_LEASE_MS,
    housekeepingMs = 60_000,
  } = options;
  const log = getLogger();
  let stopped = false;
  /** Aborted by stop(): the jobs in hand may end early and are handed back. */
  const stopping = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  /** The look for work under way: housekeeping, then starting the lanes that are idle. */
  let looking: Promise<void> | undefined;
  let lookAgain = false;
  /** The lanes running a job, and those woken meanwhile (a job queued after their last claim). */
  const busy = new Map<string, Promise<void>>();
  const wokenWhileBusy = new Set<string>();
  let lastHousekeeping = 0;

  const schedule = (delayMs: number) => {
    clearTimeout(timer);
    timer = setTimeout(tick, delayMs);
    timer.unref();
  };

  const keepHouse = async () => {
    try {
      if (Date.now() - lastHousekeeping < housekeepingMs) return;
      lastHousekeeping = Date.now();
      await requeueStaleJobs(Date.now(), leaseMs);
      await pruneFinishedJobs();
      // At start, and again should a row have been removed by hand.
      await scheduleRecurringJobs();
    } catch (error) {
      // The database may be briefly unreachable: log it and try again at the next poll.
      log.error({ err: error }, 'the job worker could not run');
    }
  };

  const startLane = (lane: string) => {
    wokenWhileBusy.delete(lane);
    const run = (async () => {
      try {
        while (!stopped && (await runNextJob({ workerId, leaseMs, lane, signal: stopping.signal }))) {
          // one job after another until none of this lane is due
        }
      } catch (error) {
        log.error({ err: error, lane }, 'the job worker could not run');
      }
    })().finally(() => {
      busy.delete(lane);
      if (!stopped && wokenWhileBusy.delete(lane)) schedule(0);
    });
    busy.set(lane, run);
  };

  function tick() {
    timer = undefined;
    if (stopped) return;
    if (looking) {
      lookAgain = true;
      return;
    }
    looking = (async () => {
      await keepHouse();
      if (stopped) return;
      const lanes = new Set([...handlers.values()].map((entry) => entry.lane));
      for (const lane of lanes) if (!busy.has(lane)) startLane(lane);
    })().finally(() => {
      looking = undefined;
      // Busy lanes do not stop the polls: the idle ones keep looking for work.
      if (!stopped) schedule(lookAgain ? 0 : pollMs);
      lookAgain = false;
    });
  }

  const wake = () => {
    if (stopped) return;
    for (const lane of busy.keys()) wokenWhileBusy.add(lane);
    schedule(0);
  };

  wakeHooks.add(wake);
  schedule(0);

  return async () => {
    stopped = true;
    stopping.abort();
    wakeHooks.delete(wake);
    clearTimeout(timer);
    await looking;
    await Promise.all(busy.values());
  };
}

/** One lane's jobs as an operator sees them (issue 29: /metrics and /healthz?detail). */
export interface LaneBacklog {
  lane: string;
  /** Due and not yet taken. */
  waiting: number;
  running: number;
  /** Given up after their last try, over the last day. */
  failed: number;
  /** How long the oldest due job has waited, in seconds (0 when none waits). */
  oldestWaitingSeconds: number;
}

/**
 * The jobs of every lane this process knows (a kind no process registered is counted in the default
 * lane): one grouped query over the `jobs` table, so every process reports the same figures.
 */
export async function jobBacklog(now = Date.now(), db: Kysely<Database> = getDb()): Promise<LaneBacklog[]> {
  const nowIso = new Date(now).toISOString();
  const dayAgo = new Date(now - 24 * 60 * 60_000).toISOString();
  const rows = await db
    .selectFrom('jobs')
    .select(['kind', 'status'])
    .select((eb) => [eb.fn.countAll<number | string>().as('count'), eb.fn.min('run_at').as('oldest')])
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', 'queued'), eb('run_at', '<=', nowIso)]),
        eb('status', '=', 'running'),
        eb.and([eb('status', '=', 'failed'), eb('finished_at', '>=', dayAgo)]),
      ]),
    )
    .groupBy(['kind', 'status'])
    .execute();
  const lanes = new Map<string, LaneBacklog>();
  const laneOf = (kind: string) => handlers.get(kind)?.lane ?? DEFAULT_JOB_LANE;
  for (const entry of [DEFAULT_JOB_LANE, ...[...handlers.values()].map((h) => h.lane)])
    if (!lanes.has(entry)) lanes.set(entry, { lane: entry, waiting: 0, running: 0, failed: 0, oldestWaitingSeconds: 0 });
  for (const row of rows) {
    const lane = lanes.get(laneOf(row.kind))!;
    const count = Number(row.count);
    if (row.status === 'queued') {
      lane.waiting += count;
      const waited = Math.max(0, Math.round((now - Date.parse(String(row.oldest))) / 1000));
      lane.oldestWaitingSeconds = Math.max(lane.oldestWaitingSeconds, waited);
    } else if (row.status === 'running') lane.running += count;
    else if (row.status === 'failed') lane.failed += count;
  }
  return [...lanes.values()];
}
