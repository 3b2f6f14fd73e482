import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ENGINES, useTestDatabase } from '../../../tests/support/databases';
import {
  claimJob,
  enqueueJob,
  INTERRUPTED,
  JOB_LEASE_MS,
  recurringJobId,
  registerJobHandler,
  registerRecurringJob,
  requeueStaleJobs,
  scheduleRecurringJobs,
  runNextJob,
  startJobWorker,
  type JobHandler,
  type JobRegistration,
} from './jobs.server';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

describe.each(ENGINES)('background jobs on %s', (engine) => {
  const database = useTestDatabase(engine);
  const undo: (() => void)[] = [];
  const stops: (() => Promise<void>)[] = [];

  function handle(kind: string, handler: JobHandler, options?: JobRegistration) {
    undo.push(registerJobHandler(kind, handler, options));
  }
  function worker(options: Parameters<typeof startJobWorker>[0]) {
    const stop = startJobWorker(options);
    stops.push(stop);
    return stop;
  }
  const job = (id: string) => database().db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  beforeEach(async () => {
    await database().db.deleteFrom('jobs').execute();
  });
  afterEach(async () => {
    await Promise.all(stops.splice(0).map((stop) => stop()));
    for (const u of undo.splice(0)) u();
  });

  it('gives a job to one of several workers claiming it at the same moment', async () => {
    const id = await enqueueJob('test.once', { n: 1 });
    const claims = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((w) => claimJob(w, ['test.once'])));
    const winners = claims.filter((c) => c !== undefined);
    expect(winners).toHaveLength(1);
    expect(winners[0]).toMatchObject({ id, status: 'running', attempts: 1 });
    expect(await job(id)).toMatchObject({ status: 'running', locked_by: winners[0]!.locked_by });
  });

  it('hands each of 20 jobs to exactly one of 60 claims made at the same moment', async () => {
    const ids = await Promise.all(Array.from({ length: 20 }, (_, n) => enqueueJob('test.many', { n })));
    const claims = await Promise.all(Array.from({ length: 60 }, (_, n) => claimJob(`worker-${n % 6}`, ['test.many'])));
    const claimed = claims.flatMap((c) => (c ? [c.id] : []));
    expect(claimed.toSorted()).toEqual(ids.toSorted());
    const rows = await database().db.selectFrom('jobs').select(['status', 'attempts']).where('kind', '=', 'test.many').execute();
    expect(rows.every((row) => row.status === 'running' && Number(row.attempts) === 1)).toBe(true);
  });

  it('runs every job exactly once with two worker loops on one database', async () => {
    const runs: string[] = [];
    const ranBy = new Set<string>();
    handle('test.count', async (payload, info) => {
      runs.push((payload as { n: string }).n);
      ranBy.add(info.id);
      // A pause, so the other loop is looking for work while this job is in hand.
      await new Promise((resolve) => setTimeout(resolve, 5));
    });
    const ids = await Promise.all(Array.from({ length: 30 }, (_, n) => enqueueJob('test.count', { n: String(n) })));
    worker({ pollMs: 20, workerId: 'one' });
    worker({ pollMs: 20, workerId: 'two' });
    await vi.waitFor(
      async () => {
        const done = await database().db.selectFrom('jobs').select('id').where('status', '=', 'done').execute();
        expect(done).toHaveLength(30);
      },
      { timeout: 20_000, interval: 50 },
    );
    expect(runs.toSorted()).toEqual(Array.from({ length: 30 }, (_, n) => String(n)).toSorted());
    expect([...ranBy].toSorted()).toEqual(ids.toSorted());
    const attempts = await database().db.selectFrom('jobs').select('attempts').execute();
    expect(attempts.every((row) => Number(row.attempts) === 1)).toBe(true);
  });

  it('tries a failing job again later, each wait longer than the last, keeping the error', async () => {
    let calls = 0;
    handle('test.flaky', async () => {
      calls += 1;
      if (calls < 3) throw new Error(`mail server said no (${calls})`);
    });
    const id = await enqueueJob('test.flaky', {});
    const t = Date.now();
    expect(await runNextJob({ workerId: 'w', now: t })).toMatchObject({ id, status: 'retry' });
    expect(await job(id)).toMatchObject({
      status: 'queued',
      attempts: 1,
      last_error: 'mail server said no (1)',
      locked_by: null,
    });

    // Not before its wait (30 s) is over.
    expect(await runNextJob({ workerId: 'w', now: t + 29_000 })).toBeUndefined();
    expect(await runNextJob({ workerId: 'w', now: t + 31_000 })).toMatchObject({ id, status: 'retry' });
    expect(await job(id)).toMatchObject({ attempts: 2, last_error: 'mail server said no (2)' });

    // The second wait is longer (2 min).
    expect(await runNextJob({ workerId: 'w', now: t + 31_000 + MINUTE })).toBeUndefined();
    expect(await runNextJob({ workerId: 'w', now: t + 31_000 + 2 * MINUTE + 1_000 })).toMatchObject({ id, status: 'done' });
    expect(await job(id)).toMatchObject({ status: 'done', attempts: 3 });
    expect((await job(id)).finished_at).not.toBeNull();
    expect(calls).toBe(3);
  });

  it('marks a job failed after its last attempt, with the last error, and never runs it again', async () => {
    let calls = 0;
    handle('test.broken', async () => {
      calls += 1;
      throw new Error(`refused ${calls}`);
    });
    const id = await enqueueJob('test.broken', {}, { maxAttempts: 2 });
    let t = Date.now();
    expect(await runNextJob({ workerId: 'w', now: t })).toMatchObject({ status: 'retry' });
    t += 10 * MINUTE;
    expect(await runNextJob({ workerId: 'w', now: t })).toMatchObject({ status: 'failed' });
    const row = await job(id);
    expect(row).toMatchObject({ status: 'failed', attempts: 2, max_attempts: 2, last_error: 'refused 2', locked_by: null });
    expect(row.finished_at).not.toBeNull();
    expect(await runNextJob({ workerId: 'w', now: t + 24 * 60 * MINUTE })).toBeUndefined();
    expect(calls).toBe(2);
  });

  it('takes back a job left running by a process that stopped, once its lease is over', async () => {
    let ran = 0;
    handle('test.orphan', async () => {
      ran += 1;
    });
    const id = await enqueueJob('test.orphan', {});
    const t = Date.now();
    // A worker takes it and then dies without finishing it.
    expect(await claimJob('dead-worker', ['test.orphan'], t)).toMatchObject({ id });
    expect(await runNextJob({ workerId: 'w', now: t + MINUTE })).toBeUndefined();

    expect(await requeueStaleJobs(t + MINUTE)).toBe(0);
    expect(await job(id)).toMatchObject({ status: 'running', locked_by: 'dead-worker' });
    expect(await requeueStaleJobs(t + JOB_LEASE_MS + MINUTE)).toBe(1);
    expect(await job(id)).toMatchObject({ status: 'queued', locked_by: null, attempts: 1 });

    expect(await runNextJob({ workerId: 'w', now: t + JOB_LEASE_MS + MINUTE })).toMatchObject({ id, status: 'done' });
    expect(await job(id)).toMatchObject({ status: 'done', attempts: 2 });
    expect(ran).toBe(1);

    // One whose attempts are used up is failed instead of tried again.
    const last = await enqueueJob('test.orphan', {}, { maxAttempts: 1 });
    const later = Date.now();
    expect(await claimJob('dead-worker', ['test.orphan'], later)).toMatchObject({ id: last });
    expect(await requeueStaleJobs(later + JOB_LEASE_MS + MINUTE)).toBe(1);
    expect(await job(last)).toMatchObject({ status: 'failed', attempts: 1 });
    expect((await job(last)).last_error).toMatch(/stopped before it finished/);
  });

  it('leaves jobs of kinds it has no handler for to a process that has one', async () => {
    handle('test.known', async () => undefined);
    const other = await enqueueJob('test.elsewhere', {});
    const mine = await enqueueJob('test.known', {});
    expect(await runNextJob({ workerId: 'w' })).toMatchObject({ id: mine, status: 'done' });
    expect(await runNextJob({ workerId: 'w' })).toBeUndefined();
    expect(await job(other)).toMatchObject({ status: 'queued', attempts: 0 });
  });

  it('starts at once when this process enqueues, without waiting for its poll', async () => {
    const ran: string[] = [];
    handle('test.wake', async (_payload, info) => {
      ran.push(info.id);
    });
    // A poll far longer than the test: only the wake-up can start the job.
    worker({ pollMs: 10 * MINUTE, workerId: 'sleepy' });
    const id = await enqueueJob('test.wake', {});
    await vi.waitFor(() => expect(ran).toEqual([id]), { timeout: 5_000 });
  });

  it('goes on running other jobs while a slow one runs in its own lane, one at a time in that lane', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const transcodes: string[] = [];
    const mails: string[] = [];
    // A transcode that lasts until the test lets it finish.
    handle(
      'test.transcode',
      async (_payload, info) => {
        transcodes.push(info.id);
        await gate;
      },
      { lane: 'video' },
    );
    handle('test.mail', async (_payload, info) => {
      mails.push(info.id);
    });

    const slow = await enqueueJob('test.transcode', {});
    // A short lease, so the transcode must renew its lock not to be taken back meanwhile.
    worker({ pollMs: 20, workerId: 'one-process', leaseMs: 600, housekeepingMs: 50 });
    await vi.waitFor(() => expect(transcodes).toEqual([slow]));

    const second = await enqueueJob('test.transcode', {});
    const mail = await enqueueJob('test.mail', {});
    await vi.waitFor(async () => expect(await job(mail)).toMatchObject({ status: 'done', locked_by: null }), { timeout: 5_000 });
    // Mail queued later is sent too, the transcode still running past its lease.
    await new Promise((resolve) => setTimeout(resolve, 800));
    const later = await enqueueJob('test.mail', {});
    await vi.waitFor(async () => expect(await job(later)).toMatchObject({ status: 'done' }), { timeout: 5_000 });
    expect(mails).toEqual([mail, later]);
    expect(await job(slow)).toMatchObject({ status: 'running', locked_by: 'one-process', attempts: 1 });
    // The next transcode waits for this one: one at a time in a lane.
    expect(await job(second)).toMatchObject({ status: 'queued', attempts: 0 });
    expect(transcodes).toEqual([slow]);

    release();
    await vi.waitFor(async () => expect(await job(second)).toMatchObject({ status: 'done', attempts: 1 }), { timeout: 5_000 });
    expect(await job(slow)).toMatchObject({ status: 'done', attempts: 1 });
    expect(transcodes).toEqual([slow, second]);
  });

  it('runs one job of a one-per-site kind at a time with two workers on one database, and other kinds beside it', async () => {
    let running = 0;
    let most = 0;
    const transcoded: string[] = [];
    handle(
      'test.transcode',
      async (_payload, info) => {
        running += 1;
        most = Math.max(most, running);
        // Long enough for the other worker to look for work several times meanwhile.
        await new Promise((resolve) => setTimeout(resolve, 150));
        transcoded.push(info.id);
        running -= 1;
      },
      { lane: 'video', onePerSite: true },
    );
    const mails: string[] = [];
    handle('test.mail', async (_payload, info) => void mails.push(info.id));
    const ids = await Promise.all(Array.from({ length: 4 }, () => enqueueJob('test.transcode', {})));
    // Two workers, as two processes or two instances would run them (each with its own lanes).
    worker({ pollMs: 10, workerId: 'one' });
    worker({ pollMs: 10, workerId: 'two' });
    await vi.waitFor(() => expect(running).toBe(1));
    // While a transcode runs, the other worker still takes everything else.
    const mail = await enqueueJob('test.mail', {});
    await vi.waitFor(async () => expect(await job(mail)).toMatchObject({ status: 'done' }), { timeout: 5_000 });
    const rows = () =>
      database().db.selectFrom('jobs').select(['status', 'attempts']).where('kind', '=', 'test.transcode').execute();
    await vi.waitFor(async () => expect((await rows()).every((row) => row.status === 'done')).toBe(true), { timeout: 10_000 });
    expect(transcoded.toSorted()).toEqual(ids.toSorted());
    expect(most).toBe(1);
    expect((await rows()).map((row) => Number(row.attempts))).toEqual([1, 1, 1, 1]);
  });

  it('gives one job of a one-per-site kind to 30 claims made at the same moment, with five due', async () => {
    handle('test.transcode', async () => undefined, { lane: 'video', onePerSite: true });
    await Promise.all(Array.from({ length: 5 }, () => enqueueJob('test.transcode', {})));
    const claims = await Promise.all(Array.from({ length: 30 }, (_, n) => claimJob(`worker-${n}`, ['test.transcode'])));
    expect(claims.filter((c) => c !== undefined)).toHaveLength(1);
    const running = await database().db.selectFrom('jobs').select('id').where('status', '=', 'running').execute();
    expect(running).toHaveLength(1);
  });

  it('lets the next one-per-site job start once the lease of one whose process stopped is taken back', async () => {
    const ran: string[] = [];
    handle('test.transcode', async (_payload, info) => void ran.push(info.id), { lane: 'video', onePerSite: true });
    const lost = await enqueueJob('test.transcode', {}, { runAt: new Date(Date.now() - 20 * MINUTE) });
    const next = await enqueueJob('test.transcode', {});
    // A process claimed one and stopped without a word: its lease holds the site's turn.
    expect(await claimJob('stopped-process', ['test.transcode'], Date.now() - 10 * MINUTE)).toMatchObject({ id: lost });
    expect(await runNextJob({ workerId: 'w' })).toBeUndefined();
    expect(await job(next)).toMatchObject({ status: 'queued', attempts: 0 });
    // Once its lease is over it is queued again, and the two run one after the other.
    expect(await requeueStaleJobs()).toBe(1);
    expect(await runNextJob({ workerId: 'w' })).toMatchObject({ status: 'done' });
    expect(await runNextJob({ workerId: 'w' })).toMatchObject({ status: 'done' });
    expect(ran.toSorted()).toEqual([lost, next].toSorted());
  });

  it('stops after the job in hand has finished, and leaves the others queued', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let started = false;
    let finished = false;
    handle('test.slow', async () => {
      started = true;
      await gate;
      finished = true;
    });
    const first = await enqueueJob('test.slow', {});
    const stop = worker({ pollMs: 20, workerId: 'stopping' });
    await vi.waitFor(() => expect(started).toBe(true));
    const second = await enqueueJob('test.slow', {});
    const stopped = stop().then(() => finished);
    release();
    expect(await stopped).toBe(true);
    expect(await job(first)).toMatchObject({ status: 'done' });
    expect(await job(second)).toMatchObject({ status: 'queued', attempts: 0 });
  });

  it('tells a long job in hand that its process is stopping, and hands it back due at once, the run not counted', async () => {
    let started = false;
    let sawStop = false;
    handle(
      'test.transcode',
      async (_payload, info) => {
        started = true;
        // Like ffmpeg: works until asked to stop.
        await new Promise<void>((resolve) => info.signal?.addEventListener('abort', () => resolve(), { once: true }));
        sawStop = true;
        info.signal?.throwIfAborted();
      },
      { lane: 'video' },
    );
    const id = await enqueueJob('test.transcode', {}, { maxAttempts: 1 });
    const stop = worker({ pollMs: 20, workerId: 'stopping' });
    await vi.waitFor(() => expect(started).toBe(true));
    const before = Date.now();
    await stop();
    expect(sawStop).toBe(true);
    // Not failed, though it had one attempt only: the next process runs it from the start.
    const row = await job(id);
    expect(row).toMatchObject({ status: 'queued', attempts: 0, last_error: INTERRUPTED, locked_by: null });
    expect(Date.parse(row.run_at)).toBeLessThanOrEqual(Date.now());
    expect(Date.parse(row.run_at)).toBeGreaterThanOrEqual(before - 1_000);

    // The next start runs it; a job that ignores the signal and ends well is done as usual.
    let runs = 0;
    undo.push(registerJobHandler('test.transcode', async () => void runs++, { lane: 'video' }));
    worker({ pollMs: 20, workerId: 'next-start' });
    await vi.waitFor(async () => expect(await job(id)).toMatchObject({ status: 'done', attempts: 1 }), { timeout: 5_000 });
    expect(runs).toBe(1);
  });

  it('counts a failure as usual when the process is not stopping', async () => {
    const controller = new AbortController();
    handle('test.broken', async () => {
      throw new Error('the store is down');
    });
    const id = await enqueueJob('test.broken', {});
    expect(await runNextJob({ workerId: 'w', signal: controller.signal })).toMatchObject({ id, status: 'retry' });
    expect(await job(id)).toMatchObject({ status: 'queued', attempts: 1, last_error: 'the store is down' });
    // Once stopping, a worker takes nothing more.
    controller.abort();
    await database()
      .db.updateTable('jobs')
      .set({ run_at: new Date(0).toISOString() })
      .where('id', '=', id)
      .execute();
    expect(await runNextJob({ workerId: 'w', signal: controller.signal })).toBeUndefined();
    expect(await job(id)).toMatchObject({ status: 'queued', attempts: 1 });
  });

  describe('recurring jobs', () => {
    const recurringRow = (kind: string) => job(recurringJobId(kind));
    function every(kind: string, handler: JobHandler, ms: number) {
      undo.push(registerRecurringJob(kind, handler, ms));
    }

    it('keeps one row per kind however many processes schedule it at once', async () => {
      every('test.daily', async () => undefined, DAY);
      const t = Date.now();
      const added = await Promise.all(Array.from({ length: 5 }, () => scheduleRecurringJobs(t)));
      expect(added.flat()).toEqual(['test.daily']);
      const rows = await database().db.selectFrom('jobs').selectAll().where('kind', '=', 'test.daily').execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ id: recurringJobId('test.daily'), status: 'queued', attempts: 0 });
      // Scheduling again later changes nothing, not even its time.
      expect(await scheduleRecurringJobs(t + MINUTE)).toEqual([]);
      expect((await recurringRow('test.daily')).run_at).toBe(new Date(t).toISOString());
    });

    it('runs once per period, each run queuing the next instead of finishing', async () => {
      const runs: number[] = [];
      every(
        'test.daily',
        async () => {
          runs.push(runs.length);
        },
        DAY,
      );
      const t = Date.now();
      await scheduleRecurringJobs(t);
      const claims = await Promise.all(['a', 'b', 'c'].map((w) => runNextJob({ workerId: w, now: t })));
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect(runs).toEqual([0]);
      const after = await recurringRow('test.daily');
      expect(after).toMatchObject({ status: 'queued', attempts: 0, locked_by: null, last_error: null });
      expect(Date.parse(after.run_at)).toBeGreaterThanOrEqual(t + DAY);
      expect(after.finished_at).not.toBeNull();

      expect(await runNextJob({ workerId: 'w', now: t + DAY - MINUTE })).toBeUndefined();
      expect(await runNextJob({ workerId: 'w', now: Date.parse(after.run_at) })).toMatchObject({ status: 'done' });
      expect(runs).toEqual([0, 1]);
      // Its runs leave no finished rows behind: one row, queued again.
      expect(await database().db.selectFrom('jobs').select('id').execute()).toEqual([{ id: recurringJobId('test.daily') }]);
    });

    it('retries a failing run with the usual waits, then waits for its next time; it is never failed', async () => {
      let calls = 0;
      every(
        'test.nightly',
        async () => {
          calls += 1;
          throw new Error(`clean-up failed ${calls}`);
        },
        DAY,
      );
      let now = Date.now();
      await scheduleRecurringJobs(now);
      for (let attempt = 1; attempt < 5; attempt++) {
        expect(await runNextJob({ workerId: 'w', now })).toMatchObject({ status: 'retry' });
        now += 7 * 60 * MINUTE;
      }
      expect(await runNextJob({ workerId: 'w', now })).toMatchObject({ status: 'failed' });
      const row = await recurringRow('test.nightly');
      expect(row).toMatchObject({ status: 'queued', attempts: 0, last_error: 'clean-up failed 5' });
      expect(Date.parse(row.run_at)).toBe(now + DAY);
      expect(calls).toBe(5);
    });

    it('takes back a run whose process stopped, even with its attempts used up', async () => {
      every('test.orphan-daily', async () => undefined, DAY);
      const t = Date.now();
      await scheduleRecurringJobs(t);
      await database()
        .db.updateTable('jobs')
        .set({ max_attempts: 1 })
        .where('id', '=', recurringJobId('test.orphan-daily'))
        .execute();
      expect(await claimJob('dead-worker', ['test.orphan-daily'], t)).toMatchObject({ id: recurringJobId('test.orphan-daily') });
      expect(await requeueStaleJobs(t + JOB_LEASE_MS + MINUTE)).toBe(1);
      expect(await recurringRow('test.orphan-daily')).toMatchObject({ status: 'queued', locked_by: null });
      expect(await runNextJob({ workerId: 'w', now: t + JOB_LEASE_MS + MINUTE })).toMatchObject({ status: 'done' });
      expect(await recurringRow('test.orphan-daily')).toMatchObject({ status: 'queued', attempts: 0 });
    });

    it('is scheduled by the worker when it starts, and run by it', async () => {
      const ran: string[] = [];
      every(
        'test.at-start',
        async (_payload, info) => {
          ran.push(info.id);
        },
        DAY,
      );
      worker({ pollMs: 20, workerId: 'starter' });
      await vi.waitFor(() => expect(ran).toEqual([recurringJobId('test.at-start')]), { timeout: 5_000 });
      await vi.waitFor(async () => expect(await recurringRow('test.at-start')).toMatchObject({ status: 'queued', attempts: 0 }));
    });

    it('refuses an interval that is not positive, and schedules nothing for no kinds', async () => {
      expect(() => registerRecurringJob('test.never', async () => undefined, 0)).toThrow(/positive interval/);
      expect(await scheduleRecurringJobs(Date.now(), [])).toEqual([]);
    });
  });
});
