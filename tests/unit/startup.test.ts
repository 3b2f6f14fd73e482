import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// Start-up problems an operator can fix end the process with one clear line and exit code 1.
const root = path.resolve(import.meta.dirname, '../..');
const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'tdg-startup-'));
afterAll(() => fs.rmSync(temp, { recursive: true, force: true }));

function start(env: Record<string, string>): Promise<{ code: number | null; stderr: string; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['server.ts'], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'silent', DATA_DIR: path.join(temp, 'data'), PORT: '3999', ...env },
    });
    let stderr = '';
    let stdout = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, stdout });
    });
  });
}

describe('start-up failures', () => {
  it('a bad PORT', async () => {
    const result = await start({ PORT: 'eighty' });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('Cannot start: PORT must be a whole number from 1 to 65535\n');
  });

  it('a METRICS_TOKEN too short to guard the figures', async () => {
    const result = await start({ METRICS_TOKEN: 'secret' });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'Cannot start: METRICS_TOKEN must be at least 24 characters (for example: openssl rand -hex 24)\n',
    );
  });

  it('a DATA_DIR that cannot be written', async () => {
    const file = path.join(temp, 'a-file');
    fs.writeFileSync(file, 'not a folder');
    const result = await start({ DATA_DIR: path.join(file, 'data') });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^Cannot start: DATA_DIR .*a-file\/data cannot be created or written \(\w+\)\n$/);
  });

  it('a damaged database file', async () => {
    const dir = path.join(temp, 'corrupt');
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'tdg.sqlite'), 'this is not a database '.repeat(200));
    const result = await start({ DATA_DIR: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `Cannot start: The database file ${path.join(dir, 'tdg.sqlite')} is damaged or is not a SQLite database\n`,
    );
  });

  it('an unreachable DATABASE_URL', async () => {
    const result = await start({ DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^Cannot start: DATABASE_URL 127\.0\.0\.1:1\/none cannot be reached \(.+\)\n$/);
  });
});
