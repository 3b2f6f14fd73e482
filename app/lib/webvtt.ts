// Issue 14: captions in WebVTT (W3C WebVTT), checked in the browser for instant feedback and on the
// server before they are stored. A problem is named by its line and its reason, in plain words, so
// whoever typed or exported the file can find and fix it.

/** Ten times a 15-minute video's captions (a few hundred cues of a few dozen bytes each). */
export const CAPTIONS_MAX_BYTES = 250_000;
/** The most problems one check reports: the first few are enough to start fixing. */
const MAX_PROBLEMS = 5;
/**
 * The longest line a captions file may have, in characters. A caption line is read at a glance:
 * broadcast guidelines keep it to about 42 characters, and even files exported with a timestamp
 * before every word (YouTube's, about 30 characters of markup a word) stay around 300. A line of
 * thousands is not a caption someone can read but a file that lost its line breaks (or was never
 * captions), and is named as such before anything else is read.
 */
export const CAPTIONS_MAX_LINE = 1_000;

export interface Cue {
  /** Seconds. */
  start: number;
  end: number;
  text: string;
}

export interface CaptionsProblem {
  /** 1-based line of the file; 0 for a problem of the file as a whole. */
  line: number;
  reason: string;
}

export type CaptionsCheck = { ok: true; cues: Cue[]; text: string } | { ok: false; problems: CaptionsProblem[] };

export const CAPTIONS_MESSAGES = {
  required: 'Captions (WebVTT) are required before a story with a video can be published.',
  /** Every save of a service is public: its captions are needed to save it at all. */
  requiredForService: 'Captions (WebVTT) are required before a service with a video can be saved.',
  notText: 'The captions file must be UTF-8 text (a .vtt file).',
  tooLarge: 'The captions file is too large (at most 250 KB).',
  noHeader: 'The file must start with WEBVTT.',
  noCues: 'The file has no captions: add at least one cue (a timing line such as 00:00:01.000 --> 00:00:04.000 and its text).',
  badTiming: 'The timing must look like 00:00:01.000 --> 00:00:04.000.',
  endBeforeStart: 'The caption ends before it starts.',
  outOfOrder: 'Captions must be in time order: this one starts before the one above it.',
  noText: 'The caption has no text.',
  arrowInText: 'Caption text cannot contain "-->"; put a blank line between captions.',
  lineTooLong:
    'This line is too long (at most 1,000 characters): a caption is a short line of text. Check that the file is a captions file and that its line breaks were kept.',
} as const;

/**
 * Issue 14 (WCAG 1.2.2), the one captions rule, for the forms in the browser and the saves on the
 * server: a video goes public only with its captions. A story's draft may wait for them; every save
 * of a service is public at once. `hasCaptions`: stored with the video, or chosen on the form.
 */
export function captionsMissing(input: {
  videoId: string | null | undefined;
  goesPublic: boolean;
  hasCaptions: boolean;
}): boolean {
  return Boolean(input.videoId) && input.goesPublic && !input.hasCaptions;
}

/** "Line 7: The caption ends before it starts." */
export function describeProblem(problem: CaptionsProblem): string {
  return problem.line > 0 ? `Line ${problem.line}: ${problem.reason}` : problem.reason;
}

/** The message a form shows for a failed check: its first problems, one a line. */
export function captionsMessage(check: Extract<CaptionsCheck, { ok: false }>): string {
  return check.problems.map(describeProblem).join('\n');
}

// HH:MM:SS.mmm or MM:SS.mmm (hours optional, at least two digits when present).
const TIMESTAMP = /^(?:(\d{2,}):)?([0-5]\d):([0-5]\d)\.(\d{3})$/;

function seconds(stamp: string): number | undefined {
  const m = TIMESTAMP.exec(stamp);
  if (!m) return undefined;
  return Number(m[1] ?? 0) * 3600 + Number(m[2]) * 60 + Number(m[3]) + Number(m[4]) / 1000;
}

/** A timing line's two times (the cue settings after them are allowed and kept as written). */
function parseTiming(line: string): { start: number; end: number } | undefined {
  const parts = line.split('-->');
  if (parts.length !== 2) return undefined;
  const start = seconds(parts[0]!.trim());
  const end = seconds(parts[1]!.trim().split(/[ \t]+/)[0] ?? '');
  return start === undefined || end === undefined ? undefined : { start, end };
}

/** Checks WebVTT given as text (the BOM, CRLF and CR line ends are accepted). */
export function checkCaptions(input: string): CaptionsCheck {
  const problems: CaptionsProblem[] = [];
  const add = (line: number, reason: string) => {
    if (problems.length < MAX_PROBLEMS) problems.push({ line, reason });
  };
  const text = (input.startsWith('\uFEFF') ? input.slice(1) : input).replace(/\r\n?/g, '\n');
  const lines = text.split('\n');
  if (!/^WEBVTT(?:[ \t].*)?$/.test(lines[0] ?? ''))
    return { ok: false, problems: [{ line: 1, reason: CAPTIONS_MESSAGES.noHeader }] };
  lines.forEach((line, index) => {
    if (line.length > CAPTIONS_MAX_LINE) add(index + 1, CAPTIONS_MESSAGES.lineTooLong);
  });
  if (problems.length) return { ok: false, problems };

  const cues: Cue[] = [];
  let i = 1;
  // The header's own lines run to the first blank line.
  while (i < lines.length && lines[i] !== '') i++;
  while (i < lines.length) {
    while (i < lines.length && lines[i]!.trim() === '') i++;
    if (i >= lines.length) break;
    const blockStart = i;
    const block: string[] = [];
    while (i < lines.length && lines[i]!.trim() !== '') block.push(lines[i++]!);
    const first = block[0]!;
    if (/^(NOTE|STYLE|REGION)(?:[ \t]|$)/.test(first) && !first.includes('-->')) continue;
    // An optional identifier line comes before the timing line.
    const timingIndex = first.includes('-->') ? 0 : 1;
    const timingLine = block[timingIndex];
    const lineNo = blockStart + timingIndex + 1;
    if (timingLine === undefined || !timingLine.includes('-->')) {
      add(timingLine === undefined ? blockStart + 1 : lineNo, CAPTIONS_MESSAGES.badTiming);
      continue;
    }
    const timing = parseTiming(timingLine);
    if (!timing) {
      add(lineNo, CAPTIONS_MESSAGES.badTiming);
      continue;
    }
    if (timing.end <= timing.start) add(lineNo, CAPTIONS_MESSAGES.endBeforeStart);
    const previous = cues[cues.length - 1];
    if (previous && timing.start < previous.start) add(lineNo, CAPTIONS_MESSAGES.outOfOrder);
    const payload = block.slice(timingIndex + 1);
    const arrow = payload.findIndex((l) => l.includes('-->'));
    if (arrow !== -1) add(lineNo + 1 + arrow, CAPTIONS_MESSAGES.arrowInText);
    if (payload.length === 0) add(lineNo, CAPTIONS_MESSAGES.noText);
    cues.push({ ...timing, text: payload.join('\n') });
  }
  if (problems.length === 0 && cues.length === 0) problems.push({ line: 0, reason: CAPTIONS_MESSAGES.noCues });
  return problems.length ? { ok: false, problems } : { ok: true, cues, text: lines.join('\n') };
}

/** Checks captions given as bytes: UTF-8 and within the size limit first. */
export function checkCaptionsBytes(bytes: Uint8Array): CaptionsCheck {
  if (bytes.byteLength > CAPTIONS_MAX_BYTES) return { ok: false, problems: [{ line: 0, reason: CAPTIONS_MESSAGES.tooLarge }] };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, problems: [{ line: 0, reason: CAPTIONS_MESSAGES.notText }] };
  }
  if (text.includes('\u0000')) return { ok: false, problems: [{ line: 0, reason: CAPTIONS_MESSAGES.notText }] };
  return checkCaptions(text);
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', nbsp: ' ', lrm: '', rlm: '', quot: '"', apos: "'" };

/**
 * A cue's text without its tags: a tag runs from a `<` to the next `>` on the same line, and a `<`
 * with no `>` after it on its line is kept as it is. One pass, each character looked at at most
 * twice (a pattern such as /<[^>\n]*>/g looks again to the line's end from every `<`).
 */
function withoutTags(text: string): string {
  let out = '';
  let kept = 0;
  let i = text.indexOf('<');
  while (i !== -1) {
    let end = i + 1;
    while (end < text.length && text[end] !== '>' && text[end] !== '\n') end++;
    if (text[end] === '>') {
      out += text.slice(kept, i);
      kept = end + 1;
    }
    // Without a `>`, every `<` up to the line's end is kept too: none of them closes either.
    i = text.indexOf('<', end);
  }
  return out + text.slice(kept);
}

/** A cue's words without its markup (<v Name>, <i>, <c.class>, inline timestamps) or entities. */
export function cuePlainText(text: string): string {
  return withoutTags(text)
    .replace(/&(amp|lt|gt|nbsp|lrm|rlm|quot|apos);/g, (_, name: string) => ENTITIES[name] ?? '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Pause between captions that starts a new paragraph of the transcript, in seconds. */
const PARAGRAPH_PAUSE = 2;

/**
 * A readable transcript made from the captions: their words in order, a repeated caption (rolling
 * captions repeat the line before) once, a new paragraph after a pause.
 */
export function transcriptFromCues(cues: Cue[]): string {
  const paragraphs: string[][] = [];
  let previousEnd = -Infinity;
  let previousText = '';
  for (const cue of cues) {
    const words = cuePlainText(cue.text);
    if (!words || words === previousText) continue;
    if (paragraphs.length === 0 || cue.start - previousEnd >= PARAGRAPH_PAUSE) paragraphs.push([]);
    paragraphs[paragraphs.length - 1]!.push(words);
    previousEnd = cue.end;
    previousText = words;
  }
  return paragraphs.map((p) => p.join(' ')).join('\n\n');
}
