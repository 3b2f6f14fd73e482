// A worker thread for server/primary.test.ts, told by FAIL what to do: `before` (each thread ends
// with code 3 before it listens), `second` (worker 2 throws once it listens) or nothing. It says it
// listens, answers a scrape's collect with its number, and stops when asked, as the site's threads do.
import fs from 'node:fs';
import { parentPort } from 'node:worker_threads';
import type { FromWorker, ToWorker } from '../../../server/primary.ts';
import { siteWorkerNumber } from '../../../server/web-concurrency.ts';

const number = siteWorkerNumber()!;
const port = parentPort!;
const fail = process.env.FAIL;
// Straight to the process's standard output, in order with the main thread's lines.
const say = (fields: Record<string, unknown>) => fs.writeSync(1, `${JSON.stringify(fields)}\n`);
if (fail === 'before') process.exit(3);
port.on('message', (message: ToWorker) => {
  if (message.type === 'stop') setTimeout(() => process.exit(0), 50);
  else if (message.type === 'metrics:collect')
    port.postMessage({ type: 'metrics:collected', id: message.id, part: number } satisfies FromWorker);
  else if (message.type === 'metrics:answer') say({ msg: 'gathered', worker: number, parts: message.parts });
});
say({ msg: 'listening', worker: number });
port.postMessage({ type: 'listening' } satisfies FromWorker);
if (fail === 'second' && number === 2)
  setTimeout(() => {
    throw new Error('worker 2 breaks');
  }, 100);
if (number === 3 || (fail !== 'second' && number === 2))
  port.postMessage({ type: 'metrics:ask', id: `ask-${number}` } satisfies FromWorker);
