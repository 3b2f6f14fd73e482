// A worker thread for server/primary.test.ts, told by FAIL what to do: `before` (each thread ends
// with code 3 before it listens), `second` (worker 2 throws once it listens), `slow` (it takes a
// second to listen) or nothing. It says it listens, answers a scrape's collect with its number, and
// stops when asked, as the site's threads do: at once, or once it listens when asked before.
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
let listening = false;
let stopAsked = false;
const stop = () => setTimeout(() => process.exit(0), 50);
port.on('message', (message: ToWorker) => {
  if (message.type === 'stop') {
    if (listening) stop();
    else stopAsked = true;
  } else if (message.type === 'metrics:collect')
    port.postMessage({ type: 'metrics:collected', id: message.id, part: number } satisfies FromWorker);
  else if (message.type === 'metrics:answer') say({ msg: 'gathered', worker: number, parts: message.parts });
});
say({ msg: 'starting', worker: number });
await new Promise((resolve) => setTimeout(resolve, fail === 'slow' ? 1000 : 0));
say({ msg: 'listening', worker: number });
listening = true;
port.postMessage({ type: 'listening' } satisfies FromWorker);
if (stopAsked) stop();
if (fail === 'second' && number === 2)
  setTimeout(() => {
    throw new Error('worker 2 breaks');
  }, 100);
if (number === 3 || (fail !== 'second' && number === 2))
  port.postMessage({ type: 'metrics:ask', id: `ask-${number}` } satisfies FromWorker);
