// Issue 29: /metrics in Prometheus's text format, for the operator (docs/operations.md). Off unless
// METRICS_TOKEN is set: then prom-client is loaded and each worker counts its requests (by route
// pattern, method and status, with their latency), its event loop, its page cache and its memory;
// the jobs, mail and database pool come from the data every worker shares. A scrape reaching any
// worker thread is answered for the whole site: the worker asks the main thread, which gathers every
// worker's figures (server/primary.ts); the asking worker sums them with prom-client's
// AggregatorRegistry, keeping per-worker series apart and the process's own figures once.
import { randomUUID } from 'node:crypto';
import { parentPort } from 'node:worker_threads';
import type { RequestHandler } from 'express';
import type { Counter, Histogram, MetricObjectWithValues, MetricValue, Registry } from 'prom-client';
import type { LaneBacklog } from '~/server/platform/jobs.server';
import type { FromWorker, ToWorker } from './primary.ts';
import { siteWorkerNumber } from './web-concurrency.ts';

export interface MetricsSources {
  pageCache(): { entries: number; bytes: number; hits: number; misses: number };
  jobBacklog(): Promise<LaneBacklog[]>;
  poolUse?: () => { total: number; idle: number; waiting: number; max: number };
  onMailDelivery(listener: (outcome: 'sent' | 'failed') => void): () => void;
}

export interface SiteMetrics {
  /** Times every request and counts it under its route pattern (set by `routePattern` or a fixed name). */
  requests: RequestHandler;
  /** The text a scrape gets: this process's figures, or the whole cluster's from a worker. */
  render(): Promise<{ contentType: string; text: string }>;
  stop(): void;
}

/** The label a request is counted under when React Router did not name its route. */
function fixedRoute(path: string): string {
  if (path.startsWith('/assets/')) return '/assets';
  if (path.startsWith('/media/')) return '/media';
  if (path === '/healthz' || path === '/metrics') return path;
  return 'other';
}

/** Where a request's route pattern is noted (the root middleware calls `setRoutePattern`). */
export const ROUTE_PATTERN = Symbol('routePattern');
type WithPattern = { [ROUTE_PATTERN]?: string };
export function setRoutePattern(locals: object, pattern: string): void {
  (locals as WithPattern)[ROUTE_PATTERN] = pattern;
}
export function routePatternOf(locals: object): string | undefined {
  return (locals as WithPattern)[ROUTE_PATTERN];
}

type Part = MetricObjectWithValues<MetricValue<string>>[];

/**
 * The figures of every worker as one: the process's own (`process_*`: its CPU, resident memory, open
 * files), which each thread reads alike, are kept from one worker only; the rest is summed or kept
 * apart as each metric says.
 */
function processFiguresOnce(parts: Part[]): Part[] {
  return parts.map((part, i) => (i === 0 ? part : part.filter((metric) => !metric.name.startsWith('process_'))));
}

export async function startMetrics(sources: MetricsSources): Promise<SiteMetrics> {
  const client = await import('prom-client');
  const worker = siteWorkerNumber();
  const registry: Registry = client.register;
  registry.clear();
  client.collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });
  const requests = new client.Counter({
    name: 'site_http_requests_total',
    help: 'Requests answered, by route pattern, method and status.',
    labelNames: ['route', 'method', 'status'],
  }) as Counter<'route' | 'method' | 'status'>;
  const latency = new client.Histogram({
    name: 'site_http_request_duration_seconds',
    help: 'Time to answer a request, by route pattern and status class.',
    labelNames: ['route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  }) as Histogram<'route' | 'status'>;
  new client.Gauge({
    name: 'site_page_cache_entries',
    help: 'Pages kept in the page cache.',
    collect() {
      this.set(sources.pageCache().entries);
    },
  });
  new client.Gauge({
    name: 'site_page_cache_bytes',
    help: 'Bytes the page cache holds.',
    collect() {
      this.set(sources.pageCache().bytes);
    },
  });
  new client.Gauge({
    name: 'site_page_cache_requests',
    help: 'Page cache lookups since the process started, by result.',
    labelNames: ['result'],
    collect() {
      const { hits, misses } = sources.pageCache();
      this.set({ result: 'hit' }, hits);
      this.set({ result: 'miss' }, misses);
    },
  });
  // The process's resident memory is process_resident_memory_bytes; each thread has a heap of its own.
  new client.Gauge({
    name: 'site_worker_heap_bytes',
    help: 'JavaScript heap of each worker thread serving the site: committed (total) and in use (used).',
    labelNames: ['worker', 'state'],
    collect() {
      const { heapTotal, heapUsed } = process.memoryUsage();
      this.set({ worker: String(worker ?? 1), state: 'total' }, heapTotal);
      this.set({ worker: String(worker ?? 1), state: 'used' }, heapUsed);
    },
  });
  // From the shared `jobs` table: every worker reads the same, so the cluster keeps one (max), not a sum.
  // Both gauges of a scrape share one query.
  let backlog: { at: number; lanes: Promise<LaneBacklog[]> } | undefined;
  const lanesOnce = () => {
    if (!backlog || Date.now() - backlog.at > 1_000) backlog = { at: Date.now(), lanes: sources.jobBacklog() };
    return backlog.lanes;
  };
  new client.Gauge({
    name: 'site_jobs',
    help: 'Background jobs by lane and state: waiting (due), running, failed in the last day.',
    labelNames: ['lane', 'state'],
    aggregator: 'max',
    async collect() {
      for (const lane of await lanesOnce()) {
        this.set({ lane: lane.lane, state: 'waiting' }, lane.waiting);
        this.set({ lane: lane.lane, state: 'running' }, lane.running);
        this.set({ lane: lane.lane, state: 'failed' }, lane.failed);
      }
    },
  });
  new client.Gauge({
    name: 'site_jobs_oldest_waiting_seconds',
    help: 'How long the oldest due job of each lane has waited.',
    labelNames: ['lane'],
    aggregator: 'max',
    async collect() {
      for (const lane of await lanesOnce()) this.set({ lane: lane.lane }, lane.oldestWaitingSeconds);
    },
  });
  const mail = new client.Counter({
    name: 'site_mail_total',
    help: 'Mails the mail server took (sent) or refused (failed; each try counts).',
    labelNames: ['outcome'],
  }) as Counter<'outcome'>;
  mail.inc({ outcome: 'sent' }, 0);
  mail.inc({ outcome: 'failed' }, 0);
  const stopMail = sources.onMailDelivery((outcome) => mail.inc({ outcome }));
  if (sources.poolUse) {
    const poolUse = sources.poolUse;
    new client.Gauge({
      name: 'site_database_pool_connections',
      help: 'PostgreSQL connections of the pool, by state (in use, idle, waited for) and its size.',
      labelNames: ['state'],
      collect() {
        const use = poolUse();
        this.set({ state: 'in_use' }, use.total - use.idle);
        this.set({ state: 'idle' }, use.idle);
        this.set({ state: 'waiting' }, use.waiting);
        this.set({ state: 'max' }, use.max);
      },
    });
  }

  // In a worker thread: the main thread asks for this worker's figures, and answers this worker's ask.
  const pending = new Map<string, (parts: Part[]) => void>();
  const onMessage = (message: ToWorker) => {
    if (message.type === 'metrics:collect')
      void registry.getMetricsAsJSON().then(
        (part) => parentPort!.postMessage({ type: 'metrics:collected', id: message.id, part } satisfies FromWorker),
        () => parentPort!.postMessage({ type: 'metrics:collected', id: message.id, part: [] } satisfies FromWorker),
      );
    else if (message.type === 'metrics:answer') {
      pending.get(message.id)?.(message.parts as Part[]);
      pending.delete(message.id);
    }
  };
  const threads = worker !== undefined && parentPort !== null;
  if (threads) parentPort!.on('message', onMessage);

  return {
    requests(req, res, next) {
      const start = process.hrtime.bigint();
      res.on('finish', () => {
        const route = routePatternOf(res.locals) ?? fixedRoute(req.path);
        const status = String(res.statusCode);
        requests.inc({ route, method: req.method, status });
        latency.observe({ route, status: `${status[0]}xx` }, Number(process.hrtime.bigint() - start) / 1e9);
      });
      next();
    },
    async render() {
      if (!threads) return { contentType: registry.contentType, text: await registry.metrics() };
      const id = randomUUID();
      const parts = await new Promise<Part[]>((resolve, reject) => {
        // The main thread answers within 5 s, with whatever workers answered by then.
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new Error('The main thread did not gather the workers’ metrics within 10 s'));
        }, 10_000);
        pending.set(id, (value) => {
          clearTimeout(timer);
          resolve(value);
        });
        parentPort!.postMessage({ type: 'metrics:ask', id } satisfies FromWorker);
      });
      const whole = client.AggregatorRegistry.aggregate(processFiguresOnce(parts));
      return { contentType: registry.contentType, text: await whole.metrics() };
    },
    stop() {
      stopMail();
      if (threads) parentPort!.off('message', onMessage);
      registry.clear();
    },
  };
}
