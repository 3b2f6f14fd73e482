import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// What server.ts sets before anything loads, seen from a fresh process as `npm start` and
// `npm run dev` start it (tests/unit/production-start.test.ts starts the whole site).

const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'tdg-process-defaults-'));
afterAll(() => fs.rmSync(temp, { recursive: true, force: true }));

const MODULE = path.join(import.meta.dirname, 'process-defaults.ts');

/** Loads the module in a fresh process and reports NODE_ENV, the file mode mask and the start warnings. */
function load(args: string[], env: Record<string, string>, dataDir = temp) {
  const source = `
    const { startWarnings } = await import(${JSON.stringify(MODULE)});
    console.log(JSON.stringify({ nodeEnv: process.env.NODE_ENV, umask: process.umask().toString(8), warnings: startWarnings(${JSON.stringify(dataDir)}).map((w) => w.message) }));`;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', source, '--', ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
  });
  expect(result.stderr).toBe('');
  return JSON.parse(result.stdout) as { nodeEnv: string; umask: string; warnings: string[] };
}

describe('the process defaults', () => {
  it('run the site as production unless --dev, and keep a NODE_ENV the operator set (with a warning)', () => {
    fs.chmodSync(temp, 0o700);
    expect(load([], {})).toEqual({ nodeEnv: 'production', umask: '77', warnings: [] });
    expect(load([], { NODE_ENV: '' })).toMatchObject({ nodeEnv: 'production', warnings: [] });
    expect(load(['--dev'], {})).toMatchObject({ nodeEnv: 'development', warnings: [] });
    expect(load([], { NODE_ENV: 'development' })).toMatchObject({
      nodeEnv: 'development',
      warnings: ['NODE_ENV is not production: React renders every page with its slower development build; unset NODE_ENV'],
    });
  });

  it('warn when other users of the machine may open DATA_DIR, not for a group the operator chose', () => {
    const open = path.join(temp, 'open');
    fs.mkdirSync(open);
    fs.chmodSync(open, 0o755);
    expect(load([], {}, open).warnings).toEqual([`DATA_DIR can be read by other users of this machine: chmod 700 ${open}`]);
    fs.chmodSync(open, 0o750);
    expect(load([], {}, open).warnings).toEqual([]);
    expect(load([], {}, path.join(temp, 'missing')).warnings).toEqual([]);
  });

  it('remind the operator, once per start, that the generated first password is still on disk', () => {
    const dir = path.join(temp, 'with-password');
    fs.mkdirSync(dir, { mode: 0o700 });
    expect(load([], {}, dir).warnings).toEqual([]);
    fs.writeFileSync(path.join(dir, 'super-admin-password.txt'), 'secret', { mode: 0o600 });
    expect(load([], {}, dir).warnings).toEqual([
      'the generated super admin password is still on disk: delete the file once you have signed in',
    ]);
  });
});
