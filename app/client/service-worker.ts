// Issue 24 (docs/decisions/025-reading-pages-without-react.md): offline reading. Served as /sw.js by
// server/app.ts (scope /, never cached by the browser's HTTP cache), which loads this chunk with
// importScripts. It keeps:
//   - the shell: the stylesheet and page script the pages use (immutable /assets files);
//   - the home page and every story, news item and resource the visitor reads (at most 30, the
//     newest kept), with the pictures the page showed; a fresh copy each time one is read online;
//   - what the visitor saved with "Save for offline" (at most 100), kept until they leave.
// Offline, a page it has is answered from it; any other page gets an offline page made here that
// lists what can be read. It never touches /admin, posts, or other sites, and it sets no cookie.
// It imports nothing: it is a classic worker script.

/// <reference lib="webworker" />
export {};
declare const self: ServiceWorkerGlobalScope;

const VERSION = 'v1';
const SHELL = `tdg-shell-${VERSION}`;
const PAGES = `tdg-pages-${VERSION}`;
const SAVED = `tdg-saved-${VERSION}`;
const MAX_PAGES = 30;
const MAX_SAVED = 100;
/** Pictures kept with pages: a few MB at most (pages are ~40 KB, the smallest pictures ~13 KB). */
const MAX_PICTURES = 80;
const PICTURES = `tdg-pictures-${VERSION}`;

/** Pages kept for offline reading: the home page and single stories, news items and resources, in each language. */
const KEEPABLE = /^\/(?:(?:lg|sw)(?:\/|$))?(?:$|(?:blog|news|resources)\/(?!rss\.xml$)[^/]+$)/;

const isKeepable = (url: URL) => url.origin === self.location.origin && KEEPABLE.test(url.pathname);
const pageKey = (url: URL) => `${url.origin}${url.pathname}`;

self.addEventListener('install', () => void self.skipWaiting());

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      const current = new Set([SHELL, PAGES, SAVED, PICTURES]);
      for (const name of await caches.keys()) if (name.startsWith('tdg-') && !current.has(name)) await caches.delete(name);
      await self.clients.claim();
    })(),
  );
});

/** Keeps at most `max` entries in a cache, dropping the oldest (a kept entry is put again when read). */
async function trim(name: string, max: number): Promise<void> {
  const cache = await caches.open(name);
  const keys = await cache.keys();
  for (const key of keys.slice(0, Math.max(0, keys.length - max))) await cache.delete(key);
}

async function putPage(name: string, key: string, response: Response): Promise<void> {
  const cache = await caches.open(name);
  // Deleted first, so the page moves to the newest end of the cache's order.
  await cache.delete(key);
  await cache.put(key, response);
  await trim(name, name === SAVED ? MAX_SAVED : MAX_PAGES);
}

/** Same-origin files the page used, fetched through the browser's HTTP cache (usually no bytes at all). */
async function keepFiles(name: string, urls: string[], max?: number): Promise<void> {
  const cache = await caches.open(name);
  for (const raw of urls) {
    const url = new URL(raw, self.location.origin);
    if (url.origin !== self.location.origin || url.pathname.startsWith('/admin')) continue;
    if (await cache.match(url.href)) continue;
    try {
      const response = await fetch(url.href);
      if (response.ok) await cache.put(url.href, response);
    } catch {
      // Offline or gone: kept next time.
    }
  }
  if (max) await trim(name, max);
}

interface KeepMessage {
  type: 'keep';
  url: string;
  /** The pictures the page shows (their current source) and its stylesheet and scripts. */
  pictures: string[];
  assets: string[];
  /** A stylesheet the page carries inside (a first page of a visit): kept as its file, no download. */
  stylesheet?: { url: string; text: string };
  /** "Save for offline": kept apart from the newest 30. */
  saved?: boolean;
}

/** Hashed build stylesheets are at most this big; anything larger is not ours. */
const STYLESHEET_MAX_CHARS = 500_000;

/** Keeps the text of a stylesheet the page carried as the file it came from, unless it is kept already. */
async function keepStylesheet(stylesheet: KeepMessage['stylesheet']): Promise<void> {
  if (!stylesheet || typeof stylesheet.text !== 'string' || stylesheet.text.length > STYLESHEET_MAX_CHARS) return;
  const url = new URL(stylesheet.url, self.location.origin);
  if (url.origin !== self.location.origin || !url.pathname.startsWith('/assets/') || !url.pathname.endsWith('.css')) return;
  const shell = await caches.open(SHELL);
  if (await shell.match(url.href)) return;
  await shell.put(url.href, new Response(stylesheet.text, { headers: { 'Content-Type': 'text/css; charset=utf-8' } }));
}

self.addEventListener('message', (event) => {
  const message = event.data as KeepMessage | undefined;
  if (message?.type !== 'keep') return;
  const url = new URL(message.url, self.location.origin);
  if (!isKeepable(url)) return;
  event.waitUntil(
    (async () => {
      await keepStylesheet(message.stylesheet);
      await keepFiles(SHELL, message.assets);
      await keepFiles(PICTURES, message.pictures, MAX_PICTURES);
      const name = message.saved ? SAVED : PAGES;
      const cache = await caches.open(name);
      if (!(await cache.match(pageKey(url)))) {
        // The page the visitor just read, from the browser's cache or revalidated (a 304).
        const response = await fetch(url.href, { credentials: 'omit' }).catch(() => undefined);
        if (response?.ok) await putPage(name, pageKey(url), response);
      }
      if (message.saved) event.source?.postMessage({ type: 'saved', url: url.href });
    })(),
  );
});

self.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin || url.pathname.startsWith('/admin')) return;
  if (request.mode === 'navigate') return event.respondWith(page(request, url));
  if (url.pathname.startsWith('/assets/')) return event.respondWith(shellFile(request));
  if (url.pathname.startsWith('/media/') && request.destination === 'image') return event.respondWith(picture(request, url));
});

/** Pages: the network first (an updated story is kept fresh), what is kept when offline. */
async function page(request: Request, url: URL): Promise<Response> {
  try {
    const response = await fetch(request);
    if (response.ok && isKeepable(url) && response.headers.get('content-type')?.startsWith('text/html')) {
      const copy = response.clone();
      const saved = await (await caches.open(SAVED)).match(pageKey(url));
      await putPage(saved ? SAVED : PAGES, pageKey(url), copy);
    }
    return response;
  } catch (error) {
    const kept = (await caches.match(pageKey(url), { ignoreVary: true, ignoreSearch: false })) as Response | undefined;
    if (kept) return kept;
    if (request.headers.get('accept')?.includes('text/html')) return offlinePage(url);
    throw error;
  }
}

/** Hashed build files never change: from the cache when there, else the network (and kept). */
async function shellFile(request: Request): Promise<Response> {
  const cache = await caches.open(SHELL);
  const kept = await cache.match(request);
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

/** Pictures: the network, else the copy kept, else any kept size of the same picture. */
async function picture(request: Request, url: URL): Promise<Response> {
  try {
    return await fetch(request);
  } catch (error) {
    const cache = await caches.open(PICTURES);
    const kept = await cache.match(request, { ignoreVary: true });
    if (kept) return kept;
    const base = url.pathname.replace(/(?:-\d+w)?\.webp$/, '');
    for (const key of await cache.keys()) {
      if (new URL(key.url).pathname.replace(/(?:-\d+w)?\.webp$/, '') === base) return (await cache.match(key))!;
    }
    throw error;
  }
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The pages that can be read offline, newest first, with their titles. */
async function keptPages(): Promise<{ url: string; title: string }[]> {
  const found = new Map<string, string>();
  for (const name of [SAVED, PAGES]) {
    const cache = await caches.open(name);
    for (const key of [...(await cache.keys())].reverse()) {
      if (found.has(key.url)) continue;
      const html = await (await cache.match(key))!.text();
      const title = /<title>([^<]{0,300})<\/title>/.exec(html)?.[1] ?? key.url;
      found.set(key.url, title.replace(/ \| [^|]*$/, ''));
    }
  }
  return [...found].map(([url, title]) => ({ url, title }));
}

/**
 * The offline page's words in each language (the catalogues' offline.* keys, app/lib/i18n; a unit test
 * holds them equal), chosen by the address's language prefix. {path} is the page's address.
 */
const OFFLINE_WORDS = {
  en: {
    title: 'You are offline',
    notSaved: '{path} has not been saved on this phone, so it cannot be shown without a connection.',
    saved: 'Saved for reading offline',
    nothing: 'Nothing has been saved for reading offline yet: pages you read are kept when you are online.',
    tryAgain: 'Try again',
  },
  lg: {
    title: 'Tolina mukutu',
    notSaved: '{path} tekiterekeddwa ku ssimu eno, n’olwekyo tekisobola kulabika nga tolina mukutu.',
    saved: 'Ebiterekeddwa okusomebwa nga tolina mukutu',
    nothing: 'Tewannabaawo kiterekeddwa okusomebwa nga tolina mukutu: empapula z’osoma zikuumibwa ng’oli ku mukutu.',
    tryAgain: 'Gezaako nate',
  },
  sw: {
    title: 'Huko mtandaoni',
    notSaved: '{path} haijahifadhiwa kwenye simu hii, kwa hiyo haiwezi kuonyeshwa bila mtandao.',
    saved: 'Zilizohifadhiwa kwa kusoma nje ya mtandao',
    nothing: 'Bado hakuna kilichohifadhiwa kwa kusoma nje ya mtandao: kurasa unazosoma huhifadhiwa ukiwa mtandaoni.',
    tryAgain: 'Jaribu tena',
  },
} as const;

/** Our offline page: says this page was not kept, and lists what was (issue 24), in the page's language (issue 26). */
async function offlinePage(url: URL): Promise<Response> {
  const kept = await keptPages();
  const shell = await caches.open(SHELL);
  const stylesheet = (await shell.keys()).find((key) => key.url.endsWith('.css'))?.url;
  const items = kept
    .map(
      (p) =>
        `<li><a class="font-semibold text-indigo-800 underline underline-offset-4" href="${escapeHtml(p.url)}">${escapeHtml(p.title)}</a></li>`,
    )
    .join('');
  const prefix = url.pathname.split('/', 2)[1];
  const language = prefix === 'lg' || prefix === 'sw' ? prefix : 'en';
  const words = OFFLINE_WORDS[language];
  const html = `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(words.title)} | TDG Uganda</title>${
    stylesheet ? `<link rel="stylesheet" href="${escapeHtml(stylesheet)}">` : ''
  }</head><body class="min-h-screen"><main id="main" class="mx-auto max-w-2xl px-4 py-16"><h1 class="text-3xl font-bold text-slate-900">${escapeHtml(words.title)}</h1><p class="mt-4 text-lg text-slate-700">${escapeHtml(
    words.notSaved,
  ).replace('{path}', escapeHtml(url.pathname))}</p>${
    kept.length
      ? `<h2 class="mt-8 text-xl font-bold text-slate-900">${escapeHtml(words.saved)}</h2><ul class="mt-4 space-y-3">${items}</ul>`
      : `<p class="mt-4 text-lg text-slate-700">${escapeHtml(words.nothing)}</p>`
  }<p class="mt-8"><a class="font-semibold text-indigo-800 underline underline-offset-4" href="${escapeHtml(url.href)}">${escapeHtml(words.tryAgain)}</a></p></main></body></html>`;
  return new Response(html, { headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' } });
}
