import { useEffect, useRef, useState } from 'react';
import { LOGO_FALLBACK_TEXT } from '~/lib/site';

/** The logo's address, also preloaded by the public layout (app/routes/public/layout.tsx). */
export const LOGO_SRC = '/logo.svg';

/** The organisation's logo image; the text 'TDG' stands in if the image fails (spec §8). */
export function Logo({ name }: { name: string }) {
  const [failed, setFailed] = useState(false);
  const img = useRef<HTMLImageElement>(null);
  // The image may have failed before React attached its error handler.
  useEffect(() => {
    const el = img.current;
    if (el && el.complete && el.naturalWidth === 0) setFailed(true);
  }, []);
  if (failed) {
    return (
      <span className="text-2xl font-extrabold tracking-tight text-indigo-900" aria-label={name} role="img">
        {LOGO_FALLBACK_TEXT}
      </span>
    );
  }
  return (
    <img
      ref={img}
      src={LOGO_SRC}
      alt={name}
      width={150}
      height={40}
      // As wide as it may be (150 px), narrower when the header has no room: its height follows.
      className="h-auto w-[150px] max-w-full"
      onError={() => setFailed(true)}
      // Issue 24: public pages have no React; their page script puts the same text in place.
      data-logo-fallback={LOGO_FALLBACK_TEXT}
    />
  );
}
