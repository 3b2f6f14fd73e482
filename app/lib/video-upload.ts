// Issue 14: the dashboard's side of sign-language video: limits, texts and the upload's answers,
// shared by the content form and the server, which checks again (docs/decisions/020-sign-language-video.md).

/** Issue 14: up to 500 MB and 15 minutes. */
export const VIDEO_MAX_BYTES = 500 * 1000 * 1000;
export const VIDEO_MAX_SECONDS = 15 * 60;
/**
 * Issue 22: the longest side of the picture, in pixels (4K; most phones record 3840 × 2160 or less).
 * Decoding a larger one takes memory the site needs (8192 × 8192: over 700 MB), for 360p renditions.
 */
export const VIDEO_MAX_SIDE = 4096;
/** One piece of a chunked upload: a dropped connection costs at most this much again. */
export const VIDEO_CHUNK_BYTES = 4 * 1024 * 1024;
/**
 * Chunks one staff member may be sending at once: the browser sends one at a time, so a second is
 * only ever a retry racing the first, and more is someone holding the server's memory and disk.
 */
export const VIDEO_CHUNKS_AT_ONCE = 2;
/** How a chunk is sent: the slice of the file itself as the request's body, its offset in the address. */
export const VIDEO_CHUNK_TYPE = 'application/octet-stream';
/**
 * Video uploads one staff member may start in a day: far more than a day's stories need, and a bound
 * on what one account (a stolen password) can fill the disk with before the clean-up of a day.
 */
export const VIDEO_UPLOADS_PER_DAY = 30;
/** What the file chooser offers; the server decides by probing the bytes, never by the name. */
export const VIDEO_ACCEPT = 'video/mp4,video/quicktime,video/webm,.mp4,.mov,.webm';
export const TRANSCRIPT_MAX = 50_000;

export const VIDEO_STATUSES = ['uploading', 'processing', 'ready', 'failed'] as const;
export type VideoStatus = (typeof VIDEO_STATUSES)[number];

export const VIDEO_FORM_TEXTS = {
  field: 'Sign-language video',
  captionsField: 'Captions (WebVTT)',
  transcriptField: 'Transcript (optional)',
} as const;

export const VIDEO_MESSAGES = {
  tooLarge: 'The video is larger than 500 MB. Please choose a shorter or smaller video.',
  tooLong: 'The video is longer than 15 minutes. Please choose a shorter video.',
  tooManyPixels: `The video's picture is more than ${VIDEO_MAX_SIDE.toLocaleString('en')} pixels wide or high. Please choose a video recorded at 4K or less (most phones record at 4K or 1080p), or make it smaller first.`,
  notVideo: 'This file is not a video that can be played. Please choose an MP4, MOV or WebM video.',
  empty: 'The file is empty. Please choose a video.',
  tooManyUploads: `You have started ${VIDEO_UPLOADS_PER_DAY} video uploads in the last day, the most one person may. Please try again tomorrow.`,
  unavailable: 'Video processing is unavailable',
  failed: 'The video could not be processed. Please upload it again, or try another file.',
  uploadFailed: 'The upload stopped. Check your connection and choose the same file again to continue where it stopped.',
  uploadGone: 'This upload was cancelled or has finished. Please choose the video again.',
  outOfOrder: 'A part of the upload arrived out of order. Choose the same file again to continue.',
  chunkTooLarge: 'A part of the upload is larger than 4 MB. Please reload the page and choose the file again.',
  tooManyChunks: `You are already sending ${VIDEO_CHUNKS_AT_ONCE} parts of a video at once, the most one person may. Please wait for them to finish.`,
  notFound: 'The video was not found. Please upload it again.',
  inUse: 'This video belongs to another story or service. Please upload it again.',
  stillUploading: 'The video has not finished uploading. Please wait for it, or remove it.',
  failedVideo: 'The video could not be processed. Please remove it or upload another one.',
  transcriptTooLong: 'The transcript must be at most 50,000 characters.',
  needsJavaScript: 'Uploading a video needs JavaScript in this browser.',
  processing: (percent: number) => `Processing the video: ${percent}%`,
  uploading: (percent: number) => `Uploading: ${percent}%`,
  ready: 'The video is ready.',
  cancelled: 'Upload cancelled.',
} as const;

/** A video as the content and service forms show it. */
export interface VideoFormState {
  id: string;
  status: VideoStatus;
  progress: number;
  error: string | null;
  originalName: string;
  durationSeconds: number | null;
  bytes: number | null;
  posterUrl: string | null;
  hasCaptions: boolean;
  transcript: string;
}

/** What the upload endpoint answers about one upload. */
export interface VideoUploadAnswer {
  id?: string;
  status?: VideoStatus;
  received?: number;
  size?: number;
  chunkBytes?: number;
  progress?: number;
  error?: string | null;
  video?: VideoFormState;
}
