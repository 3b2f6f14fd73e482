import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';

// The site from its production build in a process of its own (as server.ts starts it), whose event
// loop can be watched from a test: `blockedDuring` says the longest the site's event loop was held
// while a piece of the test ran (its requests, say). tests/support/site-child.ts is that process.
//
// A stall is seen as the longest gap between runs of a timer in the site's process; on a busy
// machine that gap also holds the time the process waited for a processor. So the figure given is
// the smaller of that gap and the processor time the site's main thread used meanwhile: both are at
// least as long as any real stall, and the second is not stretched by other programs.

const ROOT = path.resolve(import.meta.dirname, '../..');

export interface SiteProcess {
  origin: string;
  /** Runs `work` and says how long, at most, the site's event loop was held meanwhile (ms). */
  blockedDuring<T>(work: () => Promise<T>): Promise<{ result: T; blockedMs: number; longestGapMs: number; cpuMs: number }>;
  stop(): Promise<void>;
}

type Reply = { id: number; port?: number; maxMs?: number; cpuMs?: number; error?: string };

export async function startSiteProcess(env: Record<string, string>): Promise<SiteProcess> {
  const child: ChildProcess = fork(path.join(ROOT, 'tests/support/site-child.ts'), [], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      ...(process.env.BUILD_DIR ? { BUILD_DIR: process.env.BUILD_DIR } : {}),
      ...env,
    },
    stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const waiting = new Map<number, (reply: Reply) => void>();
  child.on('message', (reply: Reply) => {
    waiting.get(reply.id)?.(reply);
    waiting.delete(reply.id);
  });
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`The site stopped (exit code ${code}): ${stderr}`))),
  );
  exited.catch(() => undefined);
  let next = 0;
  const ask = (command: string) => {
    const id = ++next;
    const reply = new Promise<Reply>((resolve) => waiting.set(id, resolve));
    child.send({ id, command });
    return Promise.race([reply, exited]);
  };

  const started = await ask('start');
  if (started.error) throw new Error(started.error);
  return {
    origin: `http://127.0.0.1:${started.port}`,
    async blockedDuring(work) {
      await ask('reset');
      const result = await work();
      const { maxMs = 0, cpuMs = 0 } = await ask('max');
      return { result, blockedMs: Math.min(maxMs, cpuMs), longestGapMs: maxMs, cpuMs };
    },
    async stop() {
      if (child.exitCode !== null) return;
      const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      await ask('stop').catch(() => undefined);
      await gone;
    },
  };
}
