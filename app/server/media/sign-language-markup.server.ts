import { formatBytes, VIDEO_TEXTS, videoFacts, type PublicVideo, type SignLanguageMarkup } from '../../lib/video.ts';
import { escapeHtml } from '../platform/html.server.ts';
import { pageScript } from '../platform/page-scripts.server.ts';
import { readPublicVideo } from './video.server.ts';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';

// Issue 14: a sign-language video as markup made here, so a page's own script carries none of it
// (docs/decisions/021-video-without-page-weight.md). Everything works before any script: the link
// beside the title, the native <video> (its own keyboard-usable controls, nothing fetched but the
// poster until play, captions on by default) and the transcript. The page's script
// (app/client/sign-language-video.ts) then shows the choice of file and picks the small one when the
// visitor saves data.

/** The markup of an item's video (a story's or a service's), or null when it has none visitors can watch. */
export async function readSignLanguageMarkup(
  videoId: string | null | undefined,
  db?: Kysely<Database> | Transaction<Database>,
): Promise<SignLanguageMarkup | null> {
  const video = await readPublicVideo(videoId, db);
  return video && signLanguageMarkup(video);
}

/** The link beside the title and the player under the header, with the script that enhances it. */
export function signLanguageMarkup(video: PublicVideo): SignLanguageMarkup {
  const [main] = video.files;
  const facts = (bytes: number) => videoFacts(video.durationSeconds, bytes);
  const link =
    `<p class="mt-4"><a href="#sign-language-video" class="inline-block min-h-11 rounded-3xl bg-amber-300 px-4 py-2.5 font-semibold text-slate-900 hover:bg-amber-200">` +
    `<span aria-hidden="true">▶</span> ${escapeHtml(VIDEO_TEXTS.watch)} <span class="font-normal">(${escapeHtml(facts(main?.bytes ?? 0))})</span></a></p>`;

  const choices = video.files
    .map((file, index) => {
      const label =
        file.quality === '240p'
          ? `${VIDEO_TEXTS.smaller} (240p, ${formatBytes(file.bytes)})`
          : `${file.quality} (${formatBytes(file.bytes)})`;
      return (
        `<label class="flex min-h-11 items-center gap-2 text-slate-100">` +
        `<input type="radio" name="sign-language-quality" value="${escapeHtml(file.quality)}" data-src="${escapeHtml(file.url)}" data-facts="${escapeHtml(facts(file.bytes))}"${index === 0 ? ' checked' : ''} class="size-5 accent-amber-400">` +
        `${escapeHtml(label)}</label>`
      );
    })
    .join('');
  const paragraphs = video.transcript
    .split(/\n{2,}/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean);
  const transcript =
    paragraphs.length === 0
      ? ''
      : `<details class="mt-4 rounded-xl bg-white p-4 text-slate-900"><summary class="cursor-pointer font-semibold">${escapeHtml(VIDEO_TEXTS.transcript)}</summary>` +
        `<div class="mt-3 space-y-3 leading-relaxed">${paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`).join('')}</div></details>`;

  const player =
    `<sign-language-video class="block"><section id="sign-language-video" aria-labelledby="sign-language-heading" class="mt-8 rounded-2xl bg-slate-900 p-4 text-white md:p-6">` +
    `<h2 id="sign-language-heading" class="text-xl font-bold">${escapeHtml(VIDEO_TEXTS.watch)}</h2>` +
    `<p data-facts class="mt-1 text-slate-200">${escapeHtml(facts(main?.bytes ?? 0))}</p>` +
    `<video controls preload="none" playsinline poster="${escapeHtml(video.posterUrl)}" width="${video.width}" height="${video.height}" src="${escapeHtml(main?.url ?? '')}" class="mt-4 max-h-[70vh] w-full rounded-xl bg-black object-contain">` +
    `<track kind="captions" src="${escapeHtml(video.captionsUrl)}" srclang="en" label="English" default></video>` +
    // Shown by the script, which is what makes the choice work.
    `<fieldset data-quality hidden class="mt-4"><legend class="text-sm font-semibold text-slate-100">${escapeHtml(VIDEO_TEXTS.quality)}</legend>` +
    `<div class="mt-2 flex flex-wrap gap-4">${choices}</div></fieldset>` +
    transcript +
    `</section></sign-language-video>`;

  return { link, player, script: pageScript('signLanguageVideo') };
}
