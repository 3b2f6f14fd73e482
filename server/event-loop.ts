// Issue 22: how long the event loop is held, so that a request that stalls every other visitor's is
// seen. A timer due every TICK_MS notes how late each of its runs comes: a late run means the process
// did nothing else meanwhile (one request parsing a hostile form, say). A delay longer than `warnMs`
// is logged at warn level with the requests that were being handled then (method and path, secrets
// cut out by redactPath, never a body); /healthz reports the 99th percentile and the longest delay
// over the last minute (docs/operations.md).
import type { RequestHandler } from 'express';
import { redactPath, type Logger } from '~/server/platform/logger.server';

/** How often the loop is sampled: often enough to see a short stall, rarely enough to cost nothing. */
const TICK_MS = 20;
/** How far back /healthz's figures look. */
const WINDOW_MS = 60_000;
/** A delay longer than this is logged. */
const WARN_MS = 200;

export interface EventLoopFigures {
  /** 99 of every 100 samples over the last minute were late by no more than this (ms). */
  p99Ms: number;
  /** The longest the loop was held over the last minute (ms). */
  maxMs: number;
  windowSeconds: number;
}

export interface EventLoopWatch {
  /** Notes each request's start and end, so a stall can name the requests it happened during. */
  requests: RequestHandler;
  figures(): EventLoopFigures;
  stop(): void;
}

interface Handling {
  method: string;
  /** As requested; cut by redactPath only when a stall is logged, not on every request. */
  path: string;
  start: number;
  end: number | undefined;
}

const round = (ms: number) => Math.round(ms * 10) / 10;

export function watchEventLoop(
  logger: Logger,
  options: { warnMs?: number; tickMs?: number; windowMs?: number } = {},
): EventLoopWatch {
  const warnMs = options.warnMs ?? WARN_MS;
  const tickMs = options.tickMs ?? TICK_MS;
  const windowMs = options.windowMs ?? WINDOW_MS;
  // The delays of the last window, oldest first, each with when it was seen.
  const samples: { at: number; delay: number }[] = [];
  const handling = new Set<Handling>();
  let lastTick = performance.now();

  const timer = setInterval(() => {
    const now = performance.now();
    const delay = Math.max(0, now - lastTick - tickMs);
    samples.push({ at: now, delay });
    while (samples.length && samples[0]!.at < now - windowMs) samples.shift();
    if (delay > warnMs) {
      // The requests being handled while the loop was held: started before it ended, not ended before it began.
      const heldFrom = now - delay;
      const during = [...handling]
        .filter((h) => h.start <= now && (h.end === undefined || h.end >= heldFrom))
        .map((h) => `${h.method} ${redactPath(h.path)}`);
      logger.warn(
        { blockedMs: round(delay), requests: during.slice(0, 10) },
        during.length
          ? `a request held the event loop for ${Math.round(delay)} ms`
          : `the event loop was held for ${Math.round(delay)} ms`,
      );
    }
    // Requests that ended before this tick cannot be part of a later delay.
    for (const h of handling) if (h.end !== undefined && h.end < lastTick) handling.delete(h);
    lastTick = now;
  }, tickMs);
  timer.unref();

  return {
    requests(req, res, next) {
      const entry: Handling = { method: req.method, path: req.path, start: performance.now(), end: undefined };
      handling.add(entry);
      res.once('close', () => (entry.end = performance.now()));
      next();
    },
    figures() {
      const now = performance.now();
      const delays = samples
        .filter((s) => s.at >= now - windowMs)
        .map((s) => s.delay)
        .sort((a, b) => a - b);
      const p99 = delays.length ? delays[Math.ceil(delays.length * 0.99) - 1]! : 0;
      return { p99Ms: round(p99), maxMs: round(delays.at(-1) ?? 0), windowSeconds: Math.round(windowMs / 1000) };
    },
    stop() {
      clearInterval(timer);
      handling.clear();
    },
  };
}
