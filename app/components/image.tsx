import { useEffect, useRef, useState, type CSSProperties } from 'react';
import { imageSrcSet, smallestImageUrl } from '~/lib/images';
import { SAVE_DATA_TEXTS, useSaveData } from '~/lib/save-data';
import { useI18n } from '~/lib/i18n/i18n';

export interface ImageProps {
  src: string | null | undefined;
  alt: string;
  className?: string;
  /** Explicit loading; by default hero images (priority) load eagerly and all others lazily. */
  loading?: 'eager' | 'lazy';
  priority?: boolean;
  /** Render as a decorative background layer behind children instead of an <img>. */
  asBackground?: boolean;
  /** Intrinsic size, so the page does not shift while the image loads. */
  width?: number;
  height?: number;
  sizes?: string;
  /** The language of `alt` when it is not the page's (a description still in English on a page in Luganda). */
  lang?: string | undefined;
  children?: React.ReactNode;
}

// 'server': rendered without JavaScript, shown as is; the browser then tracks loading and failure.
type State = 'server' | 'loading' | 'loaded' | 'failed';

/**
 * spec §2 Images: a pulsing placeholder while loading, a fade-in on load and 'Image unavailable' on
 * error. Stored uploads get a srcset over their responsive WebP sizes.
 */
export function Image({
  src,
  alt,
  className = '',
  loading,
  priority = false,
  asBackground = false,
  width = 1600,
  height = 900,
  sizes = '100vw',
  lang,
  children,
}: ImageProps) {
  const [state, setState] = useState<State>(src ? 'server' : 'failed');
  const { t, tx } = useI18n();
  const img = useRef<HTMLImageElement>(null);

  // The image may have finished (or failed) before hydration attached the handlers.
  useEffect(() => {
    const el = img.current;
    if (!el) return;
    if (!el.complete) setState('loading');
    else setState(el.naturalWidth > 0 ? 'loaded' : 'failed');
  }, [src]);

  const frame: CSSProperties = { aspectRatio: `${width} / ${height}` };
  // Issue 24: with the phone's data saver on, public pages load no uploaded picture until asked.
  const saveData = useSaveData();
  if (saveData && src?.startsWith('/media/')) {
    if (asBackground) return <div className={`relative bg-slate-200 ${className}`}>{children}</div>;
    const smallest = smallestImageUrl(src);
    return (
      <div
        className={`flex flex-col items-center justify-center gap-2 bg-slate-100 p-4 text-center text-sm text-slate-800 ${className}`}
        style={frame}
        data-state="save-data"
      >
        <p>
          {tx(SAVE_DATA_TEXTS.notLoaded)} {alt ? <span lang={lang}>{alt}</span> : t('image.noDescription')}
        </p>
        {/* Without scripts the link opens the picture; the page script puts it in place instead. Above a
            card's whole-card link (its stretched ::after), so a tap loads the picture, not the story. */}
        <a
          href={smallest}
          data-load-picture={smallest}
          data-alt={alt}
          data-alt-lang={lang}
          className="relative z-10 inline-flex min-h-11 items-center gap-1 rounded-full border border-indigo-800 bg-white px-4 font-semibold text-indigo-900 hover:bg-indigo-50"
        >
          {tx(SAVE_DATA_TEXTS.load)}
          {/* The size is filled in by the public layout's middleware, which reads it from the media store. */}
          <span data-picture-bytes={src} />
        </a>
      </div>
    );
  }

  if (state === 'failed') {
    return (
      <div
        className={`flex items-center justify-center bg-slate-200 text-sm font-medium text-slate-700 ${className}`}
        style={asBackground ? undefined : frame}
        role={alt ? 'img' : undefined}
        aria-label={alt ? `${alt} (${t('script.imageUnavailableShort')})` : undefined}
      >
        <span aria-hidden={alt ? true : undefined}>{t('script.imageUnavailable')}</span>
        {children}
      </div>
    );
  }

  const picture = (
    <img
      ref={img}
      src={src ?? undefined}
      srcSet={imageSrcSet(src)}
      sizes={imageSrcSet(src) ? sizes : undefined}
      alt={asBackground ? '' : alt}
      lang={asBackground ? undefined : lang}
      width={width}
      height={height}
      loading={loading ?? (priority ? 'eager' : 'lazy')}
      fetchPriority={priority ? 'high' : undefined}
      decoding="async"
      onLoad={() => setState('loaded')}
      onError={() => setState('failed')}
      className={`h-full w-full object-cover transition-opacity duration-500 ${state === 'loading' ? 'opacity-0' : 'opacity-100'} ${asBackground ? 'absolute inset-0' : ''}`}
    />
  );

  return (
    <div
      className={`relative overflow-hidden bg-slate-200 ${state === 'loading' ? 'animate-pulse' : ''} ${className}`}
      style={asBackground ? undefined : frame}
      data-state={state}
    >
      {picture}
      {asBackground && children ? <div className="relative">{children}</div> : null}
    </div>
  );
}
