// Loaded with `node --import` by tests/unit/production-start.test.ts: writes to stderr which build of
// React's server renderer (production or development) each process and thread of the site loads, as it
// loads it (Node runs it again in every worker thread).
import { registerHooks } from 'node:module';
import process from 'node:process';
import { threadId } from 'node:worker_threads';

registerHooks({
  load(url, context, nextLoad) {
    const build = /\/react-dom-server\.node\.(production|development)\.js$/.exec(url)?.[1];
    if (build) process.stderr.write(`react-dom/server build: ${build} (pid ${process.pid}, thread ${threadId})\n`);
    return nextLoad(url, context);
  },
});
