import { smallestImageUrl } from '~/lib/images';
import { getMediaStore } from './storage.server';

// Issue 24: a page sent with Save-Data shows each picture's size beside the link that loads it.
// Stored pictures never change (their names carry 128 random bits), so a size once read is kept; the
// map is bounded, and a picture that is gone is simply shown without a size.
const known = new Map<string, number>();
const MAX_KNOWN = 5000;

/** Bytes of the smallest copy of each `/media/…` picture (what the link loads), read from the media store once each. */
export async function pictureBytes(urls: Iterable<string>): Promise<Map<string, number>> {
  const sizes = new Map<string, number>();
  await Promise.all(
    [...new Set(urls)].map(async (url) => {
      if (!url.startsWith('/media/')) return;
      let size = known.get(url);
      if (size === undefined) {
        const info = await getMediaStore()
          .head(decodeURIComponent(smallestImageUrl(url).slice('/media/'.length)))
          .catch(() => undefined);
        if (!info) return;
        size = info.size;
        if (known.size >= MAX_KNOWN) known.clear();
        known.set(url, size);
      }
      sizes.set(url, size);
    }),
  );
  return sizes;
}
