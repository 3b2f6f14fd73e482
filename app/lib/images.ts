// Uploaded images are stored as /media/{folder}/{random}_{name}.webp with responsive copies beside
// them named {random}_{name}-{width}w.webp (see app/server/media/storage.server.ts); older ones have the
// time they were stored where newer ones have 128 random bits.

/**
 * The responsive widths stored beside every content picture. 720 is the copy a 375 px phone at 2×
 * density takes (issue 24: the 960 one cost a reader on 2G 4 KB more per story); a picture stored
 * before it existed is given one by the `media.widths` job, and until then /media answers with the
 * main file (server/media.ts).
 */
export const IMAGE_WIDTHS = [480, 720, 960, 1600] as const;

/**
 * WebP quality of each width. The 720 copy is for screens of twice the density, where compression's
 * marks are half the size and hard to see, so it is compressed harder (about 5.6 KB for a story's
 * picture where 78 gives 6.8).
 */
export function imageQuality(width: number): number {
  return width === 720 ? 70 : 78;
}

/** The main file of a responsive copy's key or address (`…-720w.webp` → `….webp`); undefined for any other. */
export function mainOfVariant(key: string): string | undefined {
  const match = /-(\d{3,4})w\.webp$/.exec(key);
  if (!match || !(IMAGE_WIDTHS as readonly number[]).includes(Number(match[1]))) return undefined;
  return `${key.slice(0, match.index)}.webp`;
}

export function variantUrl(url: string, width: number): string {
  return url.replace(/\.webp$/, `-${width}w.webp`);
}

/** A srcset for images stored by our upload pipeline; undefined for any other URL. */
export function imageSrcSet(url: string | null | undefined): string | undefined {
  if (!url || !url.startsWith('/media/') || !url.endsWith('.webp')) return undefined;
  return IMAGE_WIDTHS.map((w) => `${variantUrl(url, w)} ${w}w`).join(', ');
}

/** Issue 24: the smallest stored copy of a picture (what a Save-Data page loads when asked, and what offline reading keeps). */
export function smallestImageUrl(url: string): string {
  return imageSrcSet(url) ? variantUrl(url, IMAGE_WIDTHS[0]) : url;
}
