import { useRef, useState, useSyncExternalStore } from 'react';
import { formatBytes, VIDEO_TEXTS, videoFacts, type PublicVideo, type Rendition } from '~/lib/video';

// Issue 14: the story's sign-language video. Its own script chunk, loaded only by pages with a video
// (routes/public/article.tsx imports it lazily). The browser's own <video> controls (keyboard-usable),
// captions on by default, nothing fetched but the poster until the visitor presses play, the 240p
// file when the visitor saves data or the connection is slow, and a switch between the two.

interface NetworkInformation extends EventTarget {
  saveData?: boolean;
  effectiveType?: string;
}

const connection = () => (navigator as Navigator & { connection?: NetworkInformation }).connection;

/** Save-Data on, or a connection the browser rates 3G or slower. */
function prefersSmallFile(): boolean {
  const c = connection();
  return Boolean(c?.saveData) || ['slow-2g', '2g', '3g'].includes(c?.effectiveType ?? '');
}

function onConnectionChange(notify: () => void): () => void {
  const c = connection();
  c?.addEventListener('change', notify);
  return () => c?.removeEventListener('change', notify);
}

export default function SignLanguagePlayer({ video }: { video: PublicVideo }) {
  // Decided in the browser before anything is fetched (preload none), so the small file costs nothing
  // extra; the server's page (cached for everyone) names the 360p one.
  const small = useSyncExternalStore(onConnectionChange, prefersSmallFile, () => false);
  const [chosen, setQuality] = useState<Rendition | null>(null);
  const quality: Rendition = chosen ?? (small ? '240p' : '360p');
  const player = useRef<HTMLVideoElement>(null);
  const file = video.files.find((f) => f.quality === quality) ?? video.files[0]!;

  function choose(next: Rendition) {
    const element = player.current;
    if (!element || next === quality) return setQuality(next);
    // Go on from the same moment in the other file.
    const at = element.currentTime;
    const playing = !element.paused;
    setQuality(next);
    if (at > 0 || playing)
      element.addEventListener(
        'loadedmetadata',
        () => {
          element.currentTime = at;
          if (playing) void element.play().catch(() => undefined);
        },
        { once: true },
      );
  }

  const paragraphs = video.transcript.split(/\n{2,}/).filter(Boolean);
  return (
    <section
      id="sign-language-video"
      aria-labelledby="sign-language-heading"
      className="mt-8 rounded-2xl bg-slate-900 p-4 text-white md:p-6"
    >
      <h2 id="sign-language-heading" className="text-xl font-bold">
        {VIDEO_TEXTS.watch}
      </h2>
      <p className="mt-1 text-slate-200">{videoFacts(video.durationSeconds, file.bytes)}</p>
      <video
        ref={player}
        controls
        preload="none"
        playsInline
        poster={video.posterUrl}
        width={video.width}
        height={video.height}
        src={file.url}
        className="mt-4 max-h-[70vh] w-full rounded-xl bg-black object-contain"
      >
        <track kind="captions" src={video.captionsUrl} srcLang="en" label="English" default />
      </video>
      <fieldset className="mt-4">
        <legend className="text-sm font-semibold text-slate-100">{VIDEO_TEXTS.quality}</legend>
        <div className="mt-2 flex flex-wrap gap-4">
          {video.files.map((f) => (
            <label key={f.quality} className="flex min-h-11 items-center gap-2 text-slate-100">
              <input
                type="radio"
                name="sign-language-quality"
                value={f.quality}
                checked={quality === f.quality}
                onChange={() => choose(f.quality)}
                className="size-5 accent-amber-400"
              />
              {f.quality === '240p' ? `${VIDEO_TEXTS.smaller} (240p, ${formatBytes(f.bytes)})` : `360p (${formatBytes(f.bytes)})`}
            </label>
          ))}
        </div>
      </fieldset>
      {paragraphs.length > 0 && (
        <details className="mt-4 rounded-xl bg-white p-4 text-slate-900">
          <summary className="cursor-pointer font-semibold">{VIDEO_TEXTS.transcript}</summary>
          <div className="mt-3 space-y-3 leading-relaxed">
            {paragraphs.map((paragraph, index) => (
              <p key={index}>{paragraph}</p>
            ))}
          </div>
        </details>
      )}
    </section>
  );
}
