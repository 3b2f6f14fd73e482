// Issue 14: sign-language video on stories and news, as visitors see it: texts, formatting and the
// shape the public page reads (docs/decisions/020-sign-language-video.md). Kept small: the lists load
// it; what only the dashboard needs is in video-upload.ts.

/** The two files made from every upload: about 360p at ~800 kbps, about 240p at ~400 kbps. */
export const RENDITIONS = ['360p', '240p'] as const;
export type Rendition = (typeof RENDITIONS)[number];

export const VIDEO_TEXTS = {
  watch: 'Watch in Ugandan Sign Language',
  badge: 'Sign language',
  filter: 'Sign language only',
  transcript: 'Transcript',
  quality: 'Video quality',
  smaller: 'Smaller file',
} as const;

/** "2 min", or "45 sec" under a minute. */
export function formatDuration(seconds: number): string {
  if (!(seconds > 0)) return '0 sec';
  if (seconds < 60) return `${Math.max(1, Math.round(seconds))} sec`;
  return `${Math.round(seconds / 60)} min`;
}

/** "4.1 MB" (decimal megabytes, as phones count), "850 KB" below one. */
export function formatBytes(bytes: number): string {
  if (bytes < 1_000_000) return `${Math.max(1, Math.round(bytes / 1000))} KB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/** Issue 14: "2 min · 4.1 MB". */
export function videoFacts(seconds: number, bytes: number): string {
  return `${formatDuration(seconds)} · ${formatBytes(bytes)}`;
}

/** A ready, captioned video, as the server reads it for a public page. */
export interface PublicVideo {
  durationSeconds: number;
  posterUrl: string;
  captionsUrl: string;
  transcript: string;
  width: number;
  height: number;
  files: { quality: Rendition; url: string; bytes: number }[];
}

/**
 * A video as a public page gets it: markup made on the server (app/server/media/sign-language-markup.server.ts)
 * and the address of the script that enhances it, so pages without a video carry no video code.
 */
export interface SignLanguageMarkup {
  /** "Watch in Ugandan Sign Language (2 min · 4.1 MB)", beside the title. */
  link: string;
  /** The player, its choice of file and the transcript. */
  player: string;
  script: string;
}

/**
 * Issue 26: a video's markup (made in English on the server, sign-language-markup.server.ts) with its
 * own words in the reader's language; `tx` gives a catalogue's word for an English text. The
 * transcript is the item's content and stays as written, marked English on a page in another language.
 */
export function localiseVideoMarkup<M extends { link: string; player: string }>(
  markup: M,
  tx: (english: string) => string,
  contentLang: string | undefined,
): M {
  const words = (html: string) =>
    html
      .replaceAll(VIDEO_TEXTS.watch, tx(VIDEO_TEXTS.watch))
      .replaceAll(`>${VIDEO_TEXTS.transcript}</summary>`, `>${tx(VIDEO_TEXTS.transcript)}</summary>`)
      .replaceAll(`>${VIDEO_TEXTS.quality}</legend>`, `>${tx(VIDEO_TEXTS.quality)}</legend>`)
      .replaceAll(`>${VIDEO_TEXTS.smaller} (`, `>${tx(VIDEO_TEXTS.smaller)} (`)
      .replaceAll(
        '<div class="mt-3 space-y-3 leading-relaxed">',
        contentLang
          ? `<div lang="${contentLang}" class="mt-3 space-y-3 leading-relaxed">`
          : '<div class="mt-3 space-y-3 leading-relaxed">',
      );
  return { ...markup, link: words(markup.link), player: words(markup.player) };
}
