// Loaded with `node --import` by tests/unit/production-start.test.ts: writes to stderr which build of
// React's server renderer (production or development) each process of the site loads, as it loads it.
import { registerHooks } from 'node:module';
import process from 'node:process';

registerHooks({
  load(url, context, nextLoad) {
    const build = /\/react-dom-server\.node\.(production|development)\.js$/.exec(url)?.[1];
    if (build) process.stderr.write(`react-dom/server build: ${build} (pid ${process.pid})\n`);
    return nextLoad(url, context);
  },
});
