import { useEffect, useRef, useState } from 'react';
import { useHydrated } from '~/lib/use-hydrated';
import {
  VIDEO_ACCEPT,
  VIDEO_CHUNK_TYPE,
  VIDEO_MAX_BYTES,
  VIDEO_MESSAGES,
  VIDEO_FORM_TEXTS,
  type VideoFormState,
  type VideoUploadAnswer,
} from '~/lib/video-upload';
import { videoFacts } from '~/lib/video';
import { captionsMessage, checkCaptionsBytes } from '~/lib/webvtt';
import { FieldError, inputClass } from './form';

// Issue 14: the content form's sign-language video, its captions and its transcript. The video goes
// to /admin/uploads/video in chunks as soon as it is chosen, one at a time, each a slice of the file
// sent as it is (the server checks where it belongs before reading it). A dropped connection is
// retried, asking the server first where the upload stands; choosing the same file again later
// continues there too. Then the server processes it in the background and this field follows its
// progress. The form names the video by its id when it is saved.

const POLL_MS = 2_000;
const RETRIES = 5;

type Phase =
  | { kind: 'none' }
  | { kind: 'uploading'; percent: number; name: string; id: string | null; keep: string | null }
  | { kind: 'video'; video: VideoFormState; keep?: string | null }
  // `keep`: the video the item had before a replacement that failed or was cancelled; it stays.
  | { kind: 'stopped'; message: string; keep: string | null };

/** Remembers an unfinished upload by the file it came from, so choosing it again resumes. */
const resumeKey = (file: File) => `video-upload:${file.name}:${file.size}:${file.lastModified}`;

/** Posts a form, or a chunk (a slice of the file, sent as it is). */
function post(url: string, body: FormData | Blob, onProgress?: (loaded: number) => void, signal?: AbortSignal) {
  // XMLHttpRequest, not fetch: only it reports how much of a request has gone.
  return new Promise<{ status: number; json: VideoUploadAnswer }>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    if (body instanceof Blob) xhr.setRequestHeader('Content-Type', VIDEO_CHUNK_TYPE);
    xhr.responseType = 'json';
    if (onProgress) xhr.upload.onprogress = (event) => onProgress(event.loaded);
    xhr.onload = () => resolve({ status: xhr.status, json: (xhr.response ?? {}) as VideoUploadAnswer });
    xhr.onerror = () => reject(new Error('network'));
    xhr.onabort = () => reject(new DOMException('Aborted', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(body);
  });
}

const wait = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new DOMException('Aborted', 'AbortError'));
      },
      { once: true },
    );
  });

export function SignLanguageVideo({
  initial,
  unavailable,
  errors,
  initialTranscript,
  captionsRule = 'Required before a story with a video can be published.',
}: {
  /** The item's video as stored (null: none yet). */
  initial: VideoFormState | null;
  /** Why video processing is unavailable on this server, or null. */
  unavailable: string | null;
  errors: { video?: string | undefined; captions?: string | undefined; transcript?: string | undefined };
  initialTranscript?: string | undefined;
  /** When the captions are needed, said under their field (a service needs them to be saved at all). */
  captionsRule?: string;
}) {
  const hydrated = useHydrated();
  const [phase, setPhase] = useState<Phase>(initial ? { kind: 'video', video: initial } : { kind: 'none' });
  const [captionsProblem, setCaptionsProblem] = useState<string | undefined>(undefined);
  const [captionsChosen, setCaptionsChosen] = useState(false);
  const abort = useRef<AbortController | null>(null);
  const uploadId = useRef<string | null>(initial?.id ?? null);
  const fileInput = useRef<HTMLInputElement>(null);

  // After a save the page's data is read again: when the server's video changed, show it as it now is.
  const stored = JSON.stringify(initial);
  const shown = useRef(stored);
  useEffect(() => {
    if (abort.current || shown.current === stored) return;
    shown.current = stored;
    uploadId.current = initial?.id ?? null;
    setPhase(initial ? { kind: 'video', video: initial } : { kind: 'none' });
    setCaptionsChosen(false);
  }, [stored, initial]);

  const processing = phase.kind === 'video' && phase.video.status === 'processing';
  const videoId = phase.kind === 'video' ? phase.video.id : null;
  // While processing, ask how it goes every few seconds.
  useEffect(() => {
    if (!processing || !videoId) return;
    const timer = setInterval(() => {
      fetch(`/admin/uploads/video/${videoId}`)
        .then((r) => r.json() as Promise<VideoUploadAnswer>)
        .then((answer) => {
          if (answer.video && uploadId.current === videoId)
            setPhase((current) => ({
              kind: 'video',
              video: answer.video!,
              keep: current.kind === 'video' ? current.keep : null,
            }));
        })
        .catch(() => undefined);
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [processing, videoId]);
  useEffect(() => () => abort.current?.abort(), []);
  // Leaving the page stops an upload: the browser asks first (choosing the file again would resume).
  const uploading = phase.kind === 'uploading';
  useEffect(() => {
    if (!uploading) return;
    const ask = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [uploading]);

  /** The video the item keeps if this attempt does not finish. */
  const kept = (): string | null => {
    if (phase.kind === 'video') return phase.video.status === 'failed' ? (phase.keep ?? null) : phase.video.id;
    return phase.kind === 'none' ? null : phase.keep;
  };

  async function upload(file: File) {
    const keep = kept();
    if (file.size === 0) return setPhase({ kind: 'stopped', message: VIDEO_MESSAGES.empty, keep });
    if (file.size > VIDEO_MAX_BYTES) return setPhase({ kind: 'stopped', message: VIDEO_MESSAGES.tooLarge, keep });
    const controller = new AbortController();
    abort.current = controller;
    setPhase({ kind: 'uploading', percent: 0, name: file.name, id: null, keep });
    try {
      // The same file chosen again after a dropped connection continues where the server stopped.
      let state: VideoUploadAnswer | undefined;
      const remembered = localStorage.getItem(resumeKey(file));
      if (remembered) {
        const response = await fetch(`/admin/uploads/video/${remembered}`, { signal: controller.signal });
        const answer = (await response.json()) as VideoUploadAnswer;
        if (response.ok && answer.status === 'uploading') state = answer;
        else localStorage.removeItem(resumeKey(file));
      }
      if (!state) {
        const body = new FormData();
        body.set('name', file.name);
        body.set('size', String(file.size));
        const started = await post('/admin/uploads/video', body, undefined, controller.signal);
        if (started.status >= 400) throw new Error((started.json as { error?: string }).error ?? VIDEO_MESSAGES.uploadFailed);
        state = started.json;
        localStorage.setItem(resumeKey(file), state.id!);
      }
      const id = state.id!;
      uploadId.current = id;
      const chunkBytes = state.chunkBytes!;
      /** Shows a video whose upload is whole (processing from now on); false while it is not. */
      const finished = (answer: VideoUploadAnswer) => {
        if (!answer.video || answer.status === 'uploading') return false;
        localStorage.removeItem(resumeKey(file));
        setPhase({ kind: 'video', video: answer.video, keep });
        return true;
      };
      let offset = state.received ?? 0;
      let failures = 0;
      while (offset < file.size) {
        const from = offset;
        let answer: { status: number; json: VideoUploadAnswer } | undefined;
        try {
          answer = await post(
            `/admin/uploads/video/${id}?offset=${from}`,
            file.slice(from, from + chunkBytes),
            (loaded) =>
              setPhase({
                kind: 'uploading',
                percent: Math.min(99, Math.floor(((from + loaded) / file.size) * 100)),
                name: file.name,
                id,
                keep,
              }),
            controller.signal,
          );
        } catch (error) {
          if (controller.signal.aborted) throw error;
        }
        if (answer && answer.status < 400) {
          failures = 0;
          offset = answer.json.received ?? from + chunkBytes;
          if (finished(answer.json)) break;
          continue;
        }
        const error = (answer?.json as { error?: string } | undefined)?.error;
        // Refused for good (too large, not this person's upload): the server's own words.
        if (answer && answer.status !== 409 && answer.status !== 429 && answer.status < 500)
          throw new Error(error ?? VIDEO_MESSAGES.uploadFailed);
        // A dropped connection, a busy server, or a chunk the server did not expect (an earlier one
        // arrived though its answer was lost): wait a little longer each time, then ask where the
        // upload stands and go on from there.
        if (failures >= RETRIES) throw new Error(error ?? 'network');
        await wait(1000 * 2 ** failures, controller.signal);
        failures += 1;
        const where = await fetch(`/admin/uploads/video/${id}`, { signal: controller.signal }).catch((reason: unknown) => {
          if (controller.signal.aborted) throw reason;
          return undefined;
        });
        if (!where) continue;
        const stands = (await where.json().catch(() => ({}))) as VideoUploadAnswer & { error?: string };
        if (where.status === 404) throw new Error(stands.error ?? VIDEO_MESSAGES.uploadGone);
        if (!where.ok) continue;
        if (finished(stands)) break;
        if (typeof stands.received === 'number') offset = stands.received;
      }
    } catch (error) {
      if (controller.signal.aborted) return;
      setPhase({
        kind: 'stopped',
        message: error instanceof Error && error.message !== 'network' ? error.message : VIDEO_MESSAGES.uploadFailed,
        keep,
      });
    } finally {
      if (abort.current === controller) abort.current = null;
      if (fileInput.current) fileInput.current.value = '';
    }
  }

  async function cancel() {
    abort.current?.abort();
    abort.current = null;
    const id = uploadId.current;
    const keep = phase.kind === 'uploading' ? phase.keep : null;
    uploadId.current = keep;
    setPhase({ kind: 'stopped', message: VIDEO_MESSAGES.cancelled, keep });
    if (id && id !== keep) {
      const body = new FormData();
      body.set('intent', 'cancel');
      await fetch(`/admin/uploads/video/${id}`, { method: 'POST', body }).catch(() => undefined);
      for (let i = localStorage.length - 1; i >= 0; i--) {
        const key = localStorage.key(i);
        if (key?.startsWith('video-upload:') && localStorage.getItem(key) === id) localStorage.removeItem(key);
      }
    }
  }

  async function checkCaptionsFile(file: File | undefined) {
    setCaptionsProblem(undefined);
    setCaptionsChosen(Boolean(file));
    if (!file) return;
    const check = checkCaptionsBytes(new Uint8Array(await file.arrayBuffer()));
    if (!check.ok) setCaptionsProblem(captionsMessage(check));
  }

  const video = phase.kind === 'video' ? phase.video : null;
  // A video that could not be processed is not the item's: the one it had before (if any) stays.
  const usable = video && video.status !== 'failed' ? video : null;
  const hasVideo = Boolean(usable);
  const videoError =
    phase.kind === 'stopped' ? phase.message : video?.status === 'failed' ? (video.error ?? VIDEO_MESSAGES.failed) : errors.video;
  const captionsError = captionsProblem ?? errors.captions;
  const mayUpload = hydrated && !unavailable && phase.kind !== 'uploading';

  return (
    <fieldset className="space-y-4 rounded-xl border border-slate-300 p-4">
      <legend className="px-1 font-medium text-slate-900">{VIDEO_FORM_TEXTS.field}</legend>
      {/* Saved while uploading, the server answers that the upload has not finished. */}
      <input
        type="hidden"
        name="videoId"
        value={
          usable?.id ??
          (phase.kind === 'video'
            ? phase.keep
            : phase.kind === 'uploading'
              ? (phase.id ?? phase.keep)
              : phase.kind === 'stopped'
                ? phase.keep
                : null) ??
          ''
        }
      />
      <input type="hidden" name="videoHasCaptions" value={usable?.hasCaptions ? '1' : ''} />
      {unavailable && (
        <p role="status" className="rounded-lg border-l-4 border-amber-600 bg-amber-50 p-3 text-amber-950">
          {unavailable}
        </p>
      )}

      {video && (
        <div className="flex flex-wrap items-start gap-4">
          {video.posterUrl && (
            <img src={video.posterUrl} alt="" width={160} height={90} className="h-24 w-auto rounded-lg ring-1 ring-slate-300" />
          )}
          <div className="space-y-1">
            <p className="font-medium text-slate-900">{video.originalName}</p>
            {video.status === 'ready' && (
              <p role="status" className="text-slate-700">
                {VIDEO_MESSAGES.ready}{' '}
                {video.durationSeconds !== null && video.bytes !== null && videoFacts(video.durationSeconds, video.bytes)}
              </p>
            )}
            {video.status === 'processing' && (
              <div>
                <p role="status" className="text-slate-700">
                  {VIDEO_MESSAGES.processing(video.progress)}
                </p>
                <progress max={100} value={video.progress} aria-label="Processing progress" className="mt-1 w-64" />
              </div>
            )}
            {video.status !== 'uploading' && (
              <button
                type="button"
                onClick={() => {
                  uploadId.current = null;
                  setPhase({ kind: 'none' });
                }}
                className="mt-2 rounded-lg bg-white px-3 py-2 text-sm font-semibold text-red-800 ring-1 ring-slate-300 hover:bg-red-50"
              >
                Remove video
              </button>
            )}
          </div>
        </div>
      )}
      {!video && initial && phase.kind === 'none' && (
        <p className="text-sm text-slate-700">The video will be removed when you save.</p>
      )}

      {phase.kind === 'uploading' && (
        <div className="space-y-2">
          <p role="status" className="text-slate-700">
            {phase.name}: {VIDEO_MESSAGES.uploading(phase.percent)}
          </p>
          <div className="flex flex-wrap items-center gap-3">
            <progress max={100} value={phase.percent} aria-label="Upload progress" className="w-64" />
            <button
              type="button"
              onClick={() => void cancel()}
              className="rounded-lg bg-white px-3 py-2 text-sm font-semibold text-slate-800 ring-1 ring-slate-300 hover:bg-slate-100"
            >
              Cancel upload
            </button>
          </div>
        </div>
      )}

      {!unavailable && (
        <div>
          <label htmlFor="videoFile" className="block text-sm font-medium text-slate-800">
            {hasVideo ? 'Replace the video' : 'Choose a video'} (MP4, MOV or WebM, up to 500 MB and 15 minutes)
          </label>
          {hydrated ? (
            <input
              ref={fileInput}
              id="videoFile"
              type="file"
              accept={VIDEO_ACCEPT}
              disabled={!mayUpload}
              aria-invalid={videoError ? true : undefined}
              aria-describedby={videoError ? 'videoFile-error' : undefined}
              onChange={(event) => {
                const file = event.currentTarget.files?.[0];
                if (file) void upload(file);
              }}
              className="mt-1 block w-full text-sm text-slate-800 file:mr-3 file:rounded-lg file:border-0 file:bg-indigo-800 file:px-3 file:py-2 file:font-semibold file:text-white"
            />
          ) : (
            <p className="mt-1 text-sm text-slate-700">{VIDEO_MESSAGES.needsJavaScript}</p>
          )}
          {videoError && (
            <p id="videoFile-error" role="alert" className="mt-1 text-sm font-medium text-red-800">
              {videoError}
            </p>
          )}
        </div>
      )}

      <div>
        <label htmlFor="captionsFile" className="block font-medium text-slate-900">
          {VIDEO_FORM_TEXTS.captionsField}
          {hasVideo && <span aria-hidden="true"> *</span>}
        </label>
        <input
          key={stored}
          id="captionsFile"
          name="captionsFile"
          type="file"
          accept=".vtt,text/vtt"
          aria-invalid={captionsError ? true : undefined}
          aria-describedby={`${captionsError ? 'captionsFile-error ' : ''}captionsFile-note`}
          onChange={(event) => void checkCaptionsFile(event.currentTarget.files?.[0])}
          className="mt-1 block w-full text-sm text-slate-800 file:mr-3 file:rounded-lg file:border-0 file:bg-slate-700 file:px-3 file:py-2 file:font-semibold file:text-white"
        />
        <p id="captionsFile-note" className="mt-1 text-sm text-slate-600">
          {video?.hasCaptions && !captionsChosen
            ? 'Captions are saved with this video. Choose a file to replace them.'
            : `A WebVTT (.vtt) file. ${captionsRule}`}
        </p>
        {captionsError && (
          <p id="captionsFile-error" className="mt-1 text-sm font-medium whitespace-pre-line text-red-800">
            {captionsError}
          </p>
        )}
      </div>

      <div>
        <label htmlFor="transcript" className="block font-medium text-slate-900">
          {VIDEO_FORM_TEXTS.transcriptField}
        </label>
        <textarea
          key={stored}
          id="transcript"
          name="transcript"
          rows={5}
          defaultValue={initialTranscript ?? video?.transcript ?? ''}
          aria-invalid={errors.transcript ? true : undefined}
          aria-describedby={`${errors.transcript ? 'transcript-error ' : ''}transcript-note`}
          className={inputClass(Boolean(errors.transcript))}
        />
        <p id="transcript-note" className="mt-1 text-sm text-slate-600">
          Shown under the video. Left empty, it is made from the captions when they are uploaded; edit it as you like.
        </p>
        <FieldError id="transcript-error" message={errors.transcript} />
      </div>
    </fieldset>
  );
}
