import { randomBytes } from 'node:crypto';
import { keptMarkerHtml, type FragmentKeeper } from '~/lib/kept-fragment';
import { onPublicContentChanged } from '../platform/public-changes.server.ts';
import { PUBLIC_READS_TTL_MS } from '../platform/public-reads.server.ts';

// Issue 29 (docs/decisions/044-kept-layout-fragments.md): the HTML of a page's kept fragments
// (app/lib/kept-fragment.tsx), as UTF-8 bytes, by key. A page rendered to one string carries markers
// where a fragment is kept or is to be kept; `toBytes` turns the page into bytes with the kept bytes
// in place, and keeps what this render made. Under the page cache's rule (docs/decisions/402):
// forgotten whenever what visitors see changes, in every process through the cache bus, and after
// the same five minutes, which bound a change nobody announces.

/** A random token of this process in every marker, so nothing an author writes can stand for one. */
const TOKEN = randomBytes(12).toString('hex');
/** A header and a footer per page address the site has; past it, the oldest is forgotten. */
export const MAX_KEPT_FRAGMENTS = 100;
/** Far more than a header or footer (about 8 KB each); a larger one is rendered every time. */
const MAX_FRAGMENT_BYTES = 64 * 1024;
/** What a marker is replaced with when only the marker goes. */
const NOTHING = Buffer.alloc(0);

interface Kept {
  bytes: Buffer;
  at: number;
}

const kept = new Map<string, Kept>();
onPublicContentChanged(() => kept.clear());

/** What is kept now (tests). */
export function keptFragmentCount(): number {
  return kept.size;
}

/** Forgets every kept fragment (a test starting afresh). */
export function forgetKeptFragments(): void {
  kept.clear();
}

/** A piece of the page to put bytes in place of: a marker, or a fragment with its markers. */
interface Cut {
  start: number;
  end: number;
  bytes: Buffer;
}

/** The fragments of one page's render, and how to turn the page into bytes. */
export interface FragmentRender {
  /** For FragmentKeeperContext; undefined where nothing is kept (`npm run dev`: components change). */
  keeper: FragmentKeeper | undefined;
  /**
   * The page as UTF-8 bytes: kept fragments in place of their markers, the fragments this render
   * made kept and their markers taken out, and each of `replacements` put in place of its marker.
   */
  toBytes(html: string, replacements?: readonly (readonly [marker: string, bytes: Buffer])[]): Buffer<ArrayBuffer>;
}

/**
 * One page's render. `keepNew` false (an error page, at an address a visitor may have made up) uses
 * what is kept but keeps nothing new, so made-up addresses cannot push out the site's own.
 */
export function renderFragments({
  keepNew = true,
  now = Date.now,
}: { keepNew?: boolean; now?: () => number } = {}): FragmentRender {
  const used: (readonly [marker: string, bytes: Buffer])[] = [];
  const made: { key: string; begin: string; end: string }[] = [];
  let count = 0;
  const keeper: FragmentKeeper = {
    mark(key) {
      const id = `kept${TOKEN}n${count++}`;
      const found = kept.get(key);
      if (found && now() - found.at < PUBLIC_READS_TTL_MS) {
        used.push([keptMarkerHtml(id), found.bytes]);
        return { kept: id };
      }
      made.push({ key, begin: keptMarkerHtml(`${id}b`), end: keptMarkerHtml(`${id}e`) });
      return { begin: `${id}b`, end: `${id}e` };
    },
  };
  return {
    keeper: process.env.NODE_ENV === 'development' ? undefined : keeper,
    toBytes(html, replacements = []) {
      const cuts: Cut[] = [];
      const cut = (marker: string, bytes: Buffer) => {
        const at = html.indexOf(marker);
        if (at !== -1) cuts.push({ start: at, end: at + marker.length, bytes });
      };
      for (const [marker, bytes] of [...used, ...replacements]) cut(marker, bytes);
      for (const { key, begin, end } of made) {
        const from = html.indexOf(begin);
        const to = from === -1 ? -1 : html.indexOf(end, from);
        const inner = to === -1 ? undefined : html.slice(from + begin.length, to);
        // A fragment holding another's marker (one inside another, or a replacement's) is not kept: its
        // bytes would carry this render's marker. Its own markers are taken out; the other is cut as usual.
        if (inner === undefined || inner.includes(TOKEN) || replacements.some(([marker]) => inner.includes(marker))) {
          cut(begin, NOTHING);
          cut(end, NOTHING);
          continue;
        }
        const bytes = Buffer.from(inner);
        cuts.push({ start: from, end: to + end.length, bytes });
        if (!keepNew || bytes.length > MAX_FRAGMENT_BYTES) continue;
        kept.delete(key);
        if (kept.size >= MAX_KEPT_FRAGMENTS) kept.delete(kept.keys().next().value!);
        kept.set(key, { bytes, at: now() });
      }
      if (cuts.length === 0) return Buffer.from(html);
      cuts.sort((a, b) => a.start - b.start);
      const pieces: Buffer[] = [];
      let at = 0;
      for (const { start, end, bytes } of cuts) {
        pieces.push(Buffer.from(html.slice(at, start)), bytes);
        at = end;
      }
      pieces.push(Buffer.from(html.slice(at)));
      // Buffer.concat copies into memory of its own, never a SharedArrayBuffer.
      return Buffer.concat(pieces) as Buffer<ArrayBuffer>;
    },
  };
}
