import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// TRUST_PROXY=true used to start a server that believed any client's X-Forwarded-For (issue point 3):
// now start-up stops at once and says what to set instead.
const root = path.resolve(import.meta.dirname, '../..');
const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'tdg-trust-proxy-'));
afterAll(() => fs.rmSync(temp, { recursive: true, force: true }));

function start(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['server.ts'], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'silent', DATA_DIR: path.join(temp, 'data'), PORT: '3998', ...env },
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

describe('TRUST_PROXY at start-up', () => {
  it('refuses true with one line that says why and what to set instead', async () => {
    const result = await start({ TRUST_PROXY: 'true' });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      "Cannot start: TRUST_PROXY=true would trust any client's X-Forwarded-For; set the number of proxies in front (usually 1) or their addresses\n",
    );
    // Nothing was started: no data folder was made.
    expect(fs.existsSync(path.join(temp, 'data'))).toBe(false);
  });

  it('refuses an entry that is no address, subnet or range name', async () => {
    const result = await start({ TRUST_PROXY: 'loopback,proxy.internal' });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^Cannot start: TRUST_PROXY must be false, .*; "proxy\.internal" is none of these\n$/);
  });
});
