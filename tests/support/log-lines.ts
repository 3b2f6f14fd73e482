import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll } from 'vitest';
import { setLogger } from '~/server/platform/logger.server';

/**
 * Every line the site logs while the calling file's tests run (info and up, as JSON), to prove what a
 * log holds or never holds. Empty it with `lines.length = 0` between tests.
 */
export function captureLogLines(): string[] {
  const lines: string[] = [];
  beforeAll(() => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(chunk.toString());
        callback();
      },
    });
    setLogger(pino({ level: 'info' }, sink));
  });
  afterAll(() => setLogger(undefined));
  return lines;
}
