// The site for tests/support/site-process.ts: loads the production build as server.ts does, listens
// on a free port of 127.0.0.1 and answers its parent's questions about its own event loop. Its
// settings come from the environment the parent gives it.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as SiteModule from '../../server/app.ts';

const buildDir = path.resolve(import.meta.dirname, '../..', process.env.BUILD_DIR ?? 'build');

/**
 * The longest the event loop was held since the last reset: a timer due every TICK_MS notes how late
 * each of its runs came. (perf_hooks' delay monitor forgets its last run when reset, so a block that
 * starts right after a reset would go unseen.)
 */
const TICK_MS = 5;
let lastTick = performance.now();
let longestMs = 0;
/** The main thread's processor time at the last reset (µs). */
let cpuAtReset = 0;
const threadCpu = () => {
  const { user, system } = process.threadCpuUsage();
  return user + system;
};
const ticker = setInterval(() => {
  const now = performance.now();
  longestMs = Math.max(longestMs, now - lastTick - TICK_MS);
  lastTick = now;
}, TICK_MS);
let site: SiteModule.Site | undefined;
let server: Server | undefined;

type Command = { id: number; command: 'start' | 'reset' | 'max' | 'stop' };

const reply = (id: number, fields: Record<string, unknown> = {}) => process.send!({ id, ...fields });

process.on('message', (message: Command) => {
  const { id, command } = message;
  if (command === 'start') {
    start().then(
      (port) => reply(id, { port }),
      (error: unknown) => reply(id, { error: String((error as Error)?.stack ?? error) }),
    );
  } else if (command === 'reset') {
    longestMs = 0;
    cpuAtReset = threadCpu();
    reply(id);
  } else if (command === 'max') {
    // Answered from a timer: the ticker, overdue after a block, runs first and notes it.
    setTimeout(() => reply(id, { maxMs: longestMs, cpuMs: (threadCpu() - cpuAtReset) / 1000 }), 0);
  } else if (command === 'stop') {
    stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  }
});

async function start(): Promise<number> {
  const module = (await import(pathToFileURL(path.join(buildDir, 'server', 'index.js')).href)) as typeof SiteModule;
  site = await module.createSite({ dev: false, clientDir: path.join(buildDir, 'client') });
  const app = site.app;
  server = await new Promise<Server>((resolve, reject) => {
    const listening = app.listen(0, '127.0.0.1', (error?: Error) => (error ? reject(error) : resolve(listening)));
  });
  return (server.address() as AddressInfo).port;
}

async function stop(): Promise<void> {
  clearInterval(ticker);
  if (server) {
    const closed = new Promise<void>((resolve) => server!.close(() => resolve()));
    server.closeAllConnections();
    await closed;
  }
  await site?.close();
}

process.on('disconnect', () => {
  stop().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
