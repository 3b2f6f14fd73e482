// The main thread of server/primary.test.ts: server/primary.ts's supervisor over worker.ts.
import { runPrimary } from '../../../server/primary.ts';

runPrimary(Number(process.env.WORKERS ?? 2), new URL('./worker.ts', import.meta.url));
