import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, useTestDatabase } from '../../../tests/support/databases';
import { openDatabase } from '../db/db.server';
import { migrateToLatest } from '../db/migrations.server';
import { DISK_FAIL, DISK_WARN, healthDetail, judgeDisk, type HealthParts } from './health.server';
import { newId } from './ids.server';

// Issue 29: /healthz?detail's checks against real parts: a real database (and one closed under it),
// a real folder and a real file system filled to the brim (a 4 MB tmpfs).

const fine = { checkMediaStore: async () => undefined, checkMail: undefined, checkVideoTools: async () => ({ available: true }) };

describe('the disk check', () => {
  const gb = 1024 ** 3;
  it('is ok with room, warns when low and fails when full, by bytes or by share', () => {
    expect(judgeDisk(50 * gb, 100 * gb).status).toBe('ok');
    expect(judgeDisk(DISK_WARN.bytes - 1, 5 * gb).status).toBe('warn'); // 20 % left, under 1 GB
    expect(judgeDisk(5 * gb, 100 * gb).status).toBe('warn'); // 5 % left
    expect(judgeDisk(DISK_FAIL.bytes - 1, 5 * gb).status).toBe('fail'); // 4 % left, under 200 MB
    expect(judgeDisk(1.5 * gb, 100 * gb).status).toBe('fail'); // 1.5 % left
    expect(judgeDisk(0, 0).status).toBe('fail');
    expect(judgeDisk(50 * gb, 100 * gb).reason).toBe('51200 MB free of 102400 MB (50.0 %)');
  });
});

describe.each(ENGINES)('the detailed health on %s', (engine) => {
  const handle = useTestDatabase(engine);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tdg-health-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const parts = (): HealthParts => ({ db: handle().db, dataDir, ...fine });

  it('says ok for each part, and warns that mail stays in the outbox without SMTP_URL', async () => {
    const detail = await healthDetail(parts());
    expect(detail.checks.database).toEqual({ status: 'ok', reason: 'answers' });
    expect(detail.checks.mediaStore.status).toBe('ok');
    expect(detail.checks.mail.status).toBe('warn');
    expect(detail.checks.mail.reason).toMatch(/SMTP_URL is not set/);
    expect(detail.checks.jobs.status).toBe('ok');
    expect(detail.checks.disk.freeBytes).toBeGreaterThan(0);
    expect(detail.status).toBe('warn');
  });

  it('names a media store, mail server or ffmpeg that fails, with its reason', async () => {
    const detail = await healthDetail({
      ...parts(),
      checkMediaStore: async () => {
        throw new Error('The bucket tdg-media cannot be reached');
      },
      checkMail: async () => {
        throw new Error('Connection refused');
      },
      checkVideoTools: async () => ({ available: false, reason: 'ffmpeg is not installed' }),
    });
    expect(detail.checks.mediaStore).toEqual({ status: 'fail', reason: 'The bucket tdg-media cannot be reached' });
    expect(detail.checks.mail).toEqual({ status: 'fail', reason: 'Connection refused' });
    expect(detail.checks.videoTools.status).toBe('warn');
    expect(detail.status).toBe('fail');
  });

  it('warns of a job waiting five minutes and fails at an hour, per lane', async () => {
    const now = Date.now();
    const at = (ms: number) => new Date(now - ms).toISOString();
    await handle()
      .db.insertInto('jobs')
      .values({ id: newId(), kind: 'health.test-never-run', run_at: at(6 * 60_000), created_at: at(6 * 60_000) })
      .execute();
    let detail = await healthDetail({ ...parts(), now });
    expect(detail.checks.jobs.status).toBe('warn');
    expect(detail.checks.jobs.lanes.find((lane) => lane.lane === 'default')).toMatchObject({
      waiting: 1,
      oldestWaitingSeconds: 360,
    });
    await handle()
      .db.insertInto('jobs')
      .values({ id: newId(), kind: 'health.test-never-run', run_at: at(2 * 60 * 60_000), created_at: at(2 * 60 * 60_000) })
      .execute();
    detail = await healthDetail({ ...parts(), now });
    expect(detail.checks.jobs.status).toBe('fail');
    expect(detail.checks.jobs.reason).toBe('2 waiting (the oldest 7200 s), 0 failed in the last day: no worker is taking jobs');
    // A job due later is not waiting yet.
    await handle().db.deleteFrom('jobs').where('kind', '=', 'health.test-never-run').execute();
    await handle()
      .db.insertInto('jobs')
      .values({ id: newId(), kind: 'health.test-never-run', run_at: at(-60_000), created_at: at(0) })
      .execute();
    detail = await healthDetail({ ...parts(), now });
    expect(detail.checks.jobs.lanes.find((lane) => lane.lane === 'default')?.waiting).toBe(0);
    await handle().db.deleteFrom('jobs').where('kind', '=', 'health.test-never-run').execute();
  });
});

describe('a stopped database', () => {
  it('fails the database check with the reason, and the whole', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tdg-health-stopped-'));
    try {
      const handle = await openDatabase({ dataDir: dir });
      await migrateToLatest(handle.db, handle.engine);
      await handle.close();
      const detail = await healthDetail({ db: handle.db, dataDir: dir, ...fine });
      expect(detail.checks.database.status).toBe('fail');
      expect(detail.checks.database.reason).not.toBe('');
      expect(detail.checks.jobs.status).toBe('fail');
      expect(detail.status).toBe('fail');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a full disk', () => {
  const mount = fs.mkdtempSync(path.join(os.tmpdir(), 'tdg-health-full-'));
  beforeAll(() => {
    // A real file system of 4 MB, filled: what DATA_DIR looks like when uploads have eaten the disk.
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', mount]);
    fs.writeFileSync(path.join(mount, 'filler'), Buffer.alloc(3 * 1024 * 1024));
  });
  afterAll(() => {
    execFileSync('umount', [mount]);
    fs.rmSync(mount, { recursive: true, force: true });
  });

  it('fails the disk check, saying how much is free', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tdg-health-db-'));
    try {
      const handle = await openDatabase({ dataDir: dir });
      try {
        const detail = await healthDetail({ db: handle.db, dataDir: mount, ...fine });
        expect(detail.checks.disk.status).toBe('fail');
        expect(detail.checks.disk.reason).toMatch(/^[01] MB free of 4 MB \(\d+\.\d %\): the disk is full or nearly$/);
        expect(detail.checks.disk.totalBytes).toBe(4 * 1024 * 1024);
        expect(detail.status).toBe('fail');
      } finally {
        await handle.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
