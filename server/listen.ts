// Puts the site on HOST:PORT for server.ts, with the timeouts a public server needs, and turns the
// errors an operator can fix into one plain line.
import fs from 'node:fs';
import http, { type Server } from 'node:http';
import net from 'node:net';
import path from 'node:path';
import type { Express } from 'express';

/** Why the site could not listen, in words an operator can act on; undefined for anything else. */
export function listenProblem(error: NodeJS.ErrnoException, host: string, port: number): string | undefined {
  if (error.code === 'EADDRINUSE') return `Port ${port} is already in use: stop the other program or set PORT to a free port`;
  if (error.code === 'EACCES') return `Port ${port} needs more privileges: set PORT to 1024 or higher`;
  if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND') return `HOST ${host} is not an address of this machine`;
  if (error.code === 'ENOTSUP' || error.code === 'EOPNOTSUPP')
    return 'Several workers share the port through SO_REUSEPORT, which this system lacks: set WEB_CONCURRENCY=1';
  return undefined;
}

/** Listens on `host`:`port` without sharing it, then lets go: rejects when another program holds it. */
async function checkPortFree(host: string, port: number): Promise<void> {
  const probe = net.createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen({ port, host, exclusive: true }, resolve);
  });
  await new Promise((resolve) => probe.close(resolve));
}

/**
 * Listens on `host`:`port`; rejects with the listen error. With `sharing`, the site's worker threads
 * each listen on the port with SO_REUSEPORT (decision 040) and the kernel spreads new connections over
 * them; the first worker checks first that no other program holds the port, since one that also set
 * SO_REUSEPORT would otherwise be given part of the site's visitors.
 */
export async function listen(app: Express, host: string, port: number, sharing?: { firstOfSite: boolean }): Promise<Server> {
  if (sharing?.firstOfSite) await checkPortFree(host, port);
  const server = await new Promise<Server>((resolve, reject) => {
    const listening = http.createServer(app);
    listening.once('error', reject);
    listening.listen({ port, host, reusePort: sharing !== undefined }, () => resolve(listening));
  });
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.requestTimeout = 30_000;
  return server;
}

/** The address the site is reached at, for the start-up line. */
export function siteUrl(host: string, port: number): string {
  const wildcard = host === '0.0.0.0' || host === '::';
  return `http://${wildcard ? 'localhost' : host.includes(':') ? `[${host}]` : host}:${port}`;
}

/**
 * Stops accepting, lets in-flight requests finish (at most 10 s), then runs `after` (the site's own
 * close: the jobs in hand, the database).
 */
export async function closeGracefully(server: Server, after: () => Promise<void>): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const force = setTimeout(() => server.closeAllConnections(), 10_000);
  force.unref();
  await closed;
  clearTimeout(force);
  await after();
}

/**
 * The production build's folder (BUILD_DIR, else build) for server.ts in `here`: the site's folder,
 * or build/start when `npm start` runs it as JavaScript (scripts/ensure-build.ts).
 */
export function buildDirOf(here: string): string {
  const root = fs.existsSync(path.join(here, 'package.json')) ? here : path.join(here, '../..');
  return path.resolve(root, process.env.BUILD_DIR ?? 'build');
}
