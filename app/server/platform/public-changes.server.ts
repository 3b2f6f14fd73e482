// Issue 13: public content can change without a staff request (the scheduled-publishing job), so the
// public page cache cannot rely on the admin middleware alone. Whoever changes what visitors see
// calls `publicContentChanged()`; server/app.ts registers the page cache's `invalidate` here.
// Issue 15: the site may run as several processes (WEB_CONCURRENCY workers, several instances on one
// PostgreSQL database), each with its own page cache. The cache bus (cache-bus.server.ts) carries a
// change to the others, which hear it through `publicContentChangedElsewhere()`.

type Listener = () => void;

const listeners = new Set<Listener>();
let broadcast: (() => void) | undefined;

/** Calls `listener` whenever public content changes; returns a function that stops it. */
export function onPublicContentChanged(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/**
 * Tells every listener in this process that what visitors see has changed (a listener's failure
 * never stops the others), then every other process of the site through the cache bus.
 */
export function publicContentChanged(): void {
  publicContentChangedElsewhere();
  broadcast?.();
}

/** A change another process announced: this process's listeners only (never sent on again). */
export function publicContentChangedElsewhere(): void {
  for (const listener of [...listeners]) {
    try {
      listener();
    } catch {
      // A cache that cannot be emptied expires on its own (its TTL); the change itself has happened.
    }
  }
}

/** The cache bus: how a change reaches the other processes. Returns a function that removes it. */
export function setPublicChangeBroadcast(send: () => void): () => void {
  broadcast = send;
  return () => {
    if (broadcast === send) broadcast = undefined;
  };
}
