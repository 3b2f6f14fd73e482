// Uploaded images are stored as /media/{folder}/{random}_{name}.webp with responsive copies beside
// them named {random}_{name}-{width}w.webp (see app/server/media/storage.server.ts); older ones have the
// time they were stored where newer ones have 128 random bits.

export const IMAGE_WIDTHS = [480, 960, 1600] as const;

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
