// Issue 24 (docs/decisions/025-reading-pages-without-react.md): what public pages do in the browser.
// They load no React: the server renders every page whole, and this one script, cached for a year,
// adds the behaviours of spec §2 and §4 to that markup. Each works without it, or is hidden until it
// runs (Copy Link): the header's look on scroll, the phone menu where the browser lacks invoker
// commands, toasts, Copy Link, counters, reading progress, image placeholders, search as you type,
// the contact form's sending state and the newsletter box's answer in place. It imports nothing, so
// it is one request: what it needs from app/lib comes in the markup's data attributes.

type ToastType = 'success' | 'error' | 'warning' | 'info';

/**
 * Issue 26: a few words the script writes itself, in the page's language. The public layout puts them
 * on <main> as data attributes (data-text-…); English when a page has none.
 */
function pageText(name: 'imageUnavailable' | 'imageUnavailableShort' | 'sendError', english: string): string {
  const key = `text${name[0]!.toUpperCase()}${name.slice(1)}`;
  return document.getElementById('main')?.dataset[key] ?? english;
}
/** The classes of app/components/toast.tsx, whose live regions the server renders empty. */
const TOAST_STYLES: Record<ToastType, string> = {
  success: 'border-emerald-700 bg-emerald-50 text-emerald-950',
  error: 'border-red-700 bg-red-50 text-red-950',
  warning: 'border-amber-600 bg-amber-50 text-amber-950',
  info: 'border-indigo-700 bg-indigo-50 text-indigo-950',
};
const TOAST_LABELS: Record<ToastType, string> = { success: 'Success', error: 'Error', warning: 'Warning', info: 'Information' };
/** spec §9: public toasts close after 5000 ms. */
const TOAST_MS = 5000;

function element<K extends keyof HTMLElementTagNameMap>(tag: K, className = '', text = ''): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (className) el.className = className;
  if (text) el.textContent = text;
  return el;
}

/** spec §4 Toast: shown in the live region of its kind, closes after 5 s or on click. */
export function toast(type: ToastType, message: string): void {
  const region = document.querySelector(`[data-toasts="${type === 'error' || type === 'warning' ? 'urgent' : 'polite'}"]`);
  if (!region) return;
  const button = element(
    'button',
    `pointer-events-auto flex w-full animate-fade-in items-start gap-3 rounded-lg border-l-4 p-4 text-left shadow-lg ${TOAST_STYLES[type]}`,
  );
  button.type = 'button';
  const text = element('span', 'flex-1');
  text.append(element('span', 'sr-only', `${TOAST_LABELS[type]}: `), message);
  button.append(text, element('span', 'mt-0.5 shrink-0', '×'), element('span', 'sr-only', '(select to close)'));
  button.lastElementChild!.previousElementSibling!.setAttribute('aria-hidden', 'true');
  const close = () => button.remove();
  button.addEventListener('click', close);
  setTimeout(close, TOAST_MS);
  region.append(button);
}

/** spec §2, §9: the header changes look once scrolled more than 10 px (its CSS follows data-scrolled). */
function header(): void {
  const el = document.querySelector<HTMLElement>('header[data-scrolled]');
  if (!el) return;
  const threshold = Number(el.dataset.scrollThreshold ?? 10);
  const update = () => {
    const scrolled = String(window.scrollY > threshold);
    if (el.dataset.scrolled !== scrolled) el.dataset.scrolled = scrolled;
  };
  update();
  window.addEventListener('scroll', update, { passive: true });
}

const FOCUSABLE = 'a[href], button:not([disabled]), input, select, textarea, [tabindex]:not([tabindex="-1"])';

/**
 * The phone menu is a modal <dialog> that invoker commands open and close without any script; this
 * does it for browsers without them, closes it on a backdrop tap where `closedby` is unknown, keeps
 * Tab inside it and keeps the button's aria-expanded true while it is open.
 */
function menu(): void {
  const dialog = document.querySelector<HTMLDialogElement>('dialog#mobile-menu');
  const opener = document.querySelector<HTMLButtonElement>('[aria-controls="mobile-menu"]');
  if (!dialog || !opener) return;
  const commands = 'command' in HTMLButtonElement.prototype;
  opener.addEventListener('click', () => {
    if (!commands && !dialog.open) dialog.showModal();
    opener.setAttribute('aria-expanded', 'true');
  });
  if (!commands)
    for (const closer of dialog.querySelectorAll('[command="close"]')) closer.addEventListener('click', () => dialog.close());
  if (!('closedBy' in HTMLDialogElement.prototype))
    dialog.addEventListener('click', (event) => {
      if (event.target === dialog) dialog.close();
    });
  dialog.addEventListener('close', () => opener.setAttribute('aria-expanded', 'false'));
  dialog.addEventListener('keydown', (event) => {
    if (event.key !== 'Tab') return;
    const items = [...dialog.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = items[0];
    const last = items.at(-1);
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  });
}

/** spec §2: Copy Link copies the address and says so; a failure is only logged (§8). */
function copyLinks(root: ParentNode): void {
  for (const button of root.querySelectorAll<HTMLButtonElement>('button[data-copy-link]')) {
    button.hidden = false;
    button.addEventListener('click', () => {
      navigator.clipboard.writeText(button.dataset.copyLink ?? location.href).then(
        () => toast('success', button.dataset.copied ?? 'Link copied'),
        (error: unknown) => console.error('Copying the link failed', error),
      );
    });
  }
}

/** As formatStat() in app/lib/stats.ts: thousands separated, then the suffix. */
const formatStat = (value: number, suffix: string) => `${value.toLocaleString('en-US')}${suffix}`;

/** Counters that have run in this visit: spec §4 says they do not run again, also on another page load. */
const PLAYED_KEY = 'tdg-counters-played';
function playedCounters(): Set<string> {
  try {
    return new Set(JSON.parse(sessionStorage.getItem(PLAYED_KEY) ?? '[]') as string[]);
  } catch {
    return new Set();
  }
}
function markPlayed(id: string): void {
  const played = playedCounters();
  played.add(id);
  try {
    sessionStorage.setItem(PLAYED_KEY, JSON.stringify([...played]));
  } catch {
    // Storage refused: the counter may run again on another visit to the page.
  }
}

/**
 * spec §4, §9: a counter counts from 0 to its figure over 2000 ms in 16 ms steps, once, when 30% of
 * it is visible. The server wrote the final figure; screen readers read only that (the ticking
 * number is aria-hidden). Already on screen, already played or reduced motion: left as it is.
 */
function counters(): void {
  const all = [...document.querySelectorAll<HTMLElement>('[data-counter][data-target]')];
  if (!all.length || typeof IntersectionObserver === 'undefined') return;
  if (window.matchMedia('(prefers-reduced-motion: reduce)').matches) return;
  const played = playedCounters();
  for (const counter of all) {
    const id = counter.dataset.counterId ?? '';
    const ticking = counter.children[1];
    if (played.has(id) || !ticking) continue;
    // The figure, its suffix and spec §9's timing, from app/lib/stats.ts through the markup (CountUp).
    const target = Number(counter.dataset.target);
    const suffix = counter.dataset.suffix ?? '';
    const stepMs = Number(counter.dataset.stepMs ?? 16);
    const threshold = Number(counter.dataset.threshold ?? 0.3);
    const stepCount = Math.max(1, Math.ceil(Number(counter.dataset.durationMs ?? 2000) / stepMs));
    // As counterSteps() in app/lib/stats.ts: rising evenly from 0 and ending exactly at the target.
    const steps = Array.from({ length: stepCount }, (_, i) => Math.round((target * (i + 1)) / stepCount));
    let first = true;
    const visible = (entry: IntersectionObserverEntry) => entry.isIntersecting && entry.intersectionRatio >= threshold - 0.01;
    const observer = new IntersectionObserver(
      ([entry]) => {
        if (!entry) return;
        if (first) {
          first = false;
          // Already seen on screen: the figure is not taken away again.
          if (visible(entry)) {
            markPlayed(id);
            observer.disconnect();
          } else {
            ticking.textContent = formatStat(0, suffix);
            counter.dataset.counter = 'waiting';
          }
          return;
        }
        if (!visible(entry)) return;
        observer.disconnect();
        markPlayed(id);
        const start = performance.now();
        counter.dataset.counter = 'running';
        // The step follows the clock, so a busy phone that misses ticks still finishes on time.
        const timer = setInterval(() => {
          const index = Math.min(steps.length, Math.floor((performance.now() - start) / stepMs));
          if (index > 0) ticking.textContent = formatStat(steps[index - 1] ?? target, suffix);
          if (index >= steps.length) {
            clearInterval(timer);
            counter.dataset.counter = 'done';
          }
        }, stepMs);
      },
      { threshold },
    );
    observer.observe(counter);
  }
}

/** spec §2 article: the bar at the top follows the scroll position, updated once per frame. */
function readingProgress(): void {
  const bar = document.querySelector<HTMLElement>('[data-reading-progress]');
  if (!bar) return;
  let frame = 0;
  const update = () => {
    frame = 0;
    const max = document.documentElement.scrollHeight - window.innerHeight;
    const ratio = max > 0 ? Math.min(1, Math.max(0, window.scrollY / max)) : 1;
    bar.style.transform = `scaleX(${ratio})`;
    bar.dataset.progress = String(Math.round(ratio * 100));
  };
  const schedule = () => {
    if (!frame) frame = requestAnimationFrame(update);
  };
  update();
  window.addEventListener('scroll', schedule, { passive: true });
  window.addEventListener('resize', schedule);
}

/** spec §2 Images: a pulsing placeholder while loading, a fade-in on load, 'Image unavailable' on error. */
function images(root: ParentNode): void {
  for (const frame of root.querySelectorAll<HTMLElement>('[data-state="server"]')) {
    const img = frame.querySelector('img');
    if (!img) continue;
    const loaded = () => {
      frame.dataset.state = 'loaded';
      frame.classList.remove('animate-pulse');
      img.classList.replace('opacity-0', 'opacity-100');
    };
    const failed = () => {
      frame.dataset.state = 'failed';
      frame.classList.remove('animate-pulse', 'relative', 'overflow-hidden');
      frame.classList.add('flex', 'items-center', 'justify-center', 'text-sm', 'font-medium', 'text-slate-700');
      const words = element('span', '', pageText('imageUnavailable', 'Image unavailable'));
      if (img.alt) {
        frame.setAttribute('role', 'img');
        frame.setAttribute('aria-label', `${img.alt} (${pageText('imageUnavailableShort', 'image unavailable')})`);
        words.setAttribute('aria-hidden', 'true');
      }
      img.replaceWith(words);
    };
    if (img.complete) {
      if (img.naturalWidth > 0) loaded();
      else if (img.currentSrc || img.getAttribute('src')) failed();
      continue;
    }
    frame.dataset.state = 'loading';
    frame.classList.add('animate-pulse');
    img.classList.replace('opacity-100', 'opacity-0');
    img.addEventListener('load', loaded, { once: true });
    img.addEventListener('error', failed, { once: true });
  }
}

/** spec §8: the text 'TDG' stands in for the logo image if it fails (as app/components/logo.tsx). */
function logo(): void {
  const img = document.querySelector<HTMLImageElement>('img[data-logo-fallback]');
  if (!img) return;
  const failed = () => {
    const text = element('span', 'text-2xl font-extrabold tracking-tight text-indigo-900', img.dataset.logoFallback);
    text.setAttribute('role', 'img');
    text.setAttribute('aria-label', img.alt);
    img.replaceWith(text);
  };
  if (img.complete && img.naturalWidth === 0) failed();
  else img.addEventListener('error', failed, { once: true });
}

/**
 * Issue 24: with Save-Data a picture is left out, with its description, its size and a link that
 * opens it; here the link puts the picture (its smallest copy) in place instead.
 */
function savedPictures(root: ParentNode): void {
  for (const link of root.querySelectorAll<HTMLAnchorElement>('a[data-load-picture]')) {
    link.addEventListener('click', (event) => {
      const frame = link.closest<HTMLElement>('[data-state="save-data"]');
      if (!frame) return;
      event.preventDefault();
      const img = element('img', 'h-full w-full object-cover transition-opacity duration-500 opacity-100');
      img.src = link.dataset.loadPicture ?? link.href;
      img.alt = link.dataset.alt ?? '';
      if (link.dataset.altLang) img.lang = link.dataset.altLang;
      frame.className = `${frame.className.replace(/\b(flex|flex-col|items-center|justify-center|gap-2|p-4|text-center|text-sm|text-slate-800|bg-slate-100)\b/g, '')} relative overflow-hidden bg-slate-200`;
      frame.dataset.state = 'server';
      frame.tabIndex = -1;
      frame.replaceChildren(img);
      frame.focus();
      images(frame.parentElement ?? document);
    });
  }
}

async function fetchDocument(url: string, init?: RequestInit): Promise<Document> {
  const response = await fetch(url, { ...init, headers: { Accept: 'text/html' } });
  return new DOMParser().parseFromString(await response.text(), 'text/html');
}

/**
 * Lists: the search form is a plain GET form. Here typing updates the results after a short pause
 * and a new category at once, without a reload: the page is fetched and its results put in place
 * (the live status keeps its element, so its new words are announced).
 */
function listSearch(): void {
  const form = document.querySelector<HTMLFormElement>('form[data-list-search]');
  if (!form) return;
  const debounce = Number(form.dataset.debounce ?? 300);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pending: AbortController | undefined;
  /** The address whose results the page shows: a move within the page (the skip link's #main) keeps it. */
  let shown = location.pathname + location.search;
  const go = async (replace: boolean) => {
    clearTimeout(timer);
    const params = new URLSearchParams();
    for (const [name, value] of new FormData(form)) if (typeof value === 'string' && value.trim()) params.set(name, value.trim());
    const url = `${location.pathname}${params.size ? `?${params.toString()}` : ''}`;
    const results = document.querySelector<HTMLElement>('[data-list-results]');
    const status = results?.querySelector('[role="status"]');
    if (!results || !status) return location.assign(url);
    status.textContent = results.dataset.loadingText ?? '';
    results.setAttribute('aria-busy', 'true');
    pending?.abort();
    pending = new AbortController();
    let doc: Document;
    try {
      doc = await fetchDocument(url, { signal: pending.signal });
    } catch (error) {
      if ((error as Error).name !== 'AbortError') location.assign(url);
      return;
    }
    const fresh = doc.querySelector('[data-list-results]');
    if (!fresh) return location.assign(url);
    status.textContent = fresh.querySelector('[role="status"]')?.textContent ?? '';
    for (const child of [...results.children]) if (child !== status) child.remove();
    for (const child of [...fresh.children])
      if (child.getAttribute('role') !== 'status') results.append(document.adoptNode(child));
    results.removeAttribute('aria-busy');
    document.title = doc.title;
    history[replace ? 'replaceState' : 'pushState']({ list: true }, '', url);
    shown = location.pathname + location.search;
    images(results);
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void go(false);
  });
  form.querySelector('input[type="search"]')?.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(() => void go(true), debounce);
  });
  for (const field of form.querySelectorAll('select, input[type="checkbox"]'))
    field.addEventListener('change', () => void go(false));
  // Results put in place by this script: back and forward load the page of that address (and only
  // then: a jump within the page, such as the skip link's, fires popstate too).
  window.addEventListener('popstate', () => {
    if (location.pathname + location.search !== shown) location.reload();
  });
}

/** The submit button shows its sending words and is disabled until `done` runs. */
function sending(form: HTMLFormElement): () => void {
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"]');
  const words = button?.textContent ?? '';
  if (button) {
    button.disabled = true;
    button.textContent = form.dataset.sending ?? words;
  }
  return () => {
    if (!button) return;
    button.disabled = false;
    button.textContent = words;
  };
}

/**
 * The contact form (spec §4) posts as a plain form; here it posts without leaving the page: the
 * button says Sending..., the server's answer page replaces the content, and the focus goes where
 * it points. A lost connection shows the error banner and keeps what was typed, for a retry.
 */
function swapForms(root: ParentNode): void {
  for (const form of root.querySelectorAll<HTMLFormElement>('form[data-enhance="swap"]')) {
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const done = sending(form);
      const main = document.getElementById('main');
      try {
        const doc = await fetchDocument(form.action, { method: 'POST', body: new FormData(form) });
        const fresh = doc.getElementById('main');
        if (!main || !fresh) throw new Error('The answer has no content');
        main.replaceChildren(...[...fresh.childNodes].map((node) => document.adoptNode(node)));
        enhance(main);
        focusAnswer();
      } catch {
        done();
        form.parentElement?.querySelector('[data-failed-banner]')?.remove();
        const banner = element(
          'div',
          'mt-6 rounded-lg border-l-4 border-red-700 bg-red-50 p-4 font-medium text-red-950 outline-none',
          form.dataset.failed ?? 'Sending failed. Please try again.',
        );
        banner.setAttribute('role', 'alert');
        banner.tabIndex = -1;
        banner.dataset.failedBanner = '';
        form.before(banner);
        banner.focus();
      }
    });
  }
}

/** The newsletter box: the server's answer is shown in the box, as the plain post shows it on its page. */
function answerForms(root: ParentNode): void {
  for (const form of root.querySelectorAll<HTMLFormElement>('form[data-enhance="answer"]')) {
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const done = sending(form);
      const into = document.getElementById(form.dataset.answerInto ?? '');
      const email = form.querySelector('input[type="email"]');
      try {
        const answer = (
          await fetchDocument(form.action, { method: 'POST', body: new FormData(form) })
        ).querySelector<HTMLElement>('[data-answer]');
        if (!answer) throw new Error('No answer');
        if (into) into.textContent = answer.textContent.trim();
        if (answer.dataset.answer === 'invalid') email?.setAttribute('aria-invalid', 'true');
        else email?.removeAttribute('aria-invalid');
      } catch {
        if (into) into.textContent = pageText('sendError', 'There was an error. Please try again later.');
      }
      if (into) email?.setAttribute('aria-describedby', into.id);
      done();
    });
  }
}

/**
 * spec §2 article page: "Loading shows a skeleton". Following a link to another article keeps the
 * ordinary page load, and the article's skeleton takes the place of the old one meanwhile; a page
 * brought back from the back/forward cache gets its article again.
 */
function articleSkeleton(): void {
  const template = document.querySelector<HTMLTemplateElement>('template#article-skeleton');
  const main = document.getElementById('main');
  if (!template || !main) return;
  let before: Node[] | undefined;
  main.addEventListener('click', (event) => {
    const link = (event.target as Element).closest('a');
    if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
      return;
    if (link.target || link.origin !== location.origin || link.pathname === location.pathname) return;
    if (!/^\/(?:(?:lg|sw)\/)?(?:blog|news|resources)\/[^/]+$/.test(link.pathname) || link.pathname.endsWith('.xml')) return;
    before = [...main.childNodes];
    main.replaceChildren(template.content.cloneNode(true));
    window.scrollTo({ top: 0 });
  });
  window.addEventListener('pageshow', (event) => {
    if (event.persisted && before) main.replaceChildren(...before);
  });
}

/** Article Not Found's Go Back: back in history when the visitor came from a page, else the list it links to. */
function goBack(): void {
  document.querySelector('a[data-go-back]')?.addEventListener('click', (event) => {
    const e = event as MouseEvent;
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    if (window.history.length > 1 && document.referrer !== '') {
      event.preventDefault();
      history.back();
    }
  });
}

/** Issue 24: what the service worker should keep of this page: the page itself, its pictures, its files. */
function keepMessage(saved: boolean) {
  return {
    type: 'keep',
    url: location.href,
    saved,
    pictures: [...document.images].map((img) => img.currentSrc).filter((src) => src.includes('/media/')),
    assets: [...document.querySelectorAll<HTMLLinkElement | HTMLScriptElement>('link[rel="stylesheet"], script[src]')].map(
      (el) => ('href' in el ? el.href : el.src),
    ),
    // A first page of a visit carries its stylesheet inside (lib/first-visit.ts): handed over as it is.
    stylesheet: inlineStylesheet(),
  };
}

function inlineStylesheet(): { url: string; text: string } | undefined {
  const style = document.querySelector<HTMLStyleElement>('style[data-href]');
  return style?.textContent ? { url: new URL(style.dataset.href!, location.href).href, text: style.textContent } : undefined;
}

/**
 * Offline reading (decision 025): the service worker keeps the pages read here; this tells it about
 * the page in view once the network is quiet, and shows "Save for offline" where there is one.
 */
function offlineReading(): void {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return;
  const save = document.querySelector<HTMLButtonElement>('button[data-save-offline]');
  void navigator.serviceWorker
    .register('/sw.js', { scope: '/' })
    .then(() => navigator.serviceWorker.ready)
    .then((registration) => {
      const worker = registration.active;
      if (!worker) return;
      const keep = () => worker.postMessage(keepMessage(false));
      if (document.readyState === 'complete') keep();
      else window.addEventListener('load', keep, { once: true });
      if (!save) return;
      save.hidden = false;
      navigator.serviceWorker.addEventListener('message', (event: MessageEvent<{ type?: string }>) => {
        if (event.data.type !== 'saved') return;
        save.disabled = true;
        save.textContent = save.dataset.savedText ?? save.textContent;
        toast('success', save.dataset.savedText ?? 'Saved');
      });
      save.addEventListener('click', () => worker.postMessage(keepMessage(true)));
    })
    .catch((error: unknown) => console.error('Offline reading is unavailable', error));
}

/** After a form's answer (with or without this script's help), the focus goes where the page points. */
function focusAnswer(): void {
  document.querySelector<HTMLElement>('main [data-focus]')?.focus();
}

/** What markup put in place later (an answer, new results) needs, as the first page had. */
function enhance(root: ParentNode): void {
  images(root);
  savedPictures(root);
  copyLinks(root);
  swapForms(root);
  answerForms(root);
}

function start(): void {
  header();
  logo();
  menu();
  counters();
  readingProgress();
  listSearch();
  articleSkeleton();
  goBack();
  enhance(document);
  focusAnswer();
  offlineReading();
  // Browser tests wait for this before they use what the script adds.
  document.documentElement.dataset.enhanced = 'true';
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start, { once: true });
else start();
