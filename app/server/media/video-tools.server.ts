import { spawn } from 'node:child_process';
import os from 'node:os';
import { VIDEO_MAX_SIDE } from '../../lib/video-upload.ts';

// Issue 14: ffmpeg and ffprobe, Debian's security-maintained packages (.ci/run installs them), run
// as child processes. Where they are missing the dashboard says video processing is unavailable and
// why; everything else works.

let tools = { ffmpeg: 'ffmpeg', ffprobe: 'ffprobe' };
let availability: Promise<VideoToolsStatus> | undefined;

export type VideoToolsStatus = { available: true; version: string } | { available: false; reason: string };

/** Points at other binaries (tests: a missing one, to see the site without video processing). */
export function setVideoTools(paths: { ffmpeg: string; ffprobe: string }): void {
  tools = paths;
  availability = undefined;
}

export function videoTools(): { ffmpeg: string; ffprobe: string } {
  return tools;
}

/** Whether ffmpeg and ffprobe run here; asked once per process (they do not come and go). */
export function checkVideoTools(): Promise<VideoToolsStatus> {
  availability ??= (async () => {
    for (const name of ['ffmpeg', 'ffprobe'] as const) {
      const result = await runTool(tools[name], ['-version'], { timeoutMs: 10_000 }).catch((error: unknown) => ({
        code: -1,
        stdout: '',
        stderr: String((error as { code?: string }).code ?? error),
      }));
      if (result.code !== 0)
        return {
          available: false,
          reason:
            result.stderr.includes('ENOENT') || result.code === -1
              ? `${name} is not installed on the server (on Debian or Ubuntu: apt-get install ffmpeg).`
              : `${name} does not run on the server (${result.stderr.trim().slice(0, 200) || `exit code ${result.code}`}).`,
        };
    }
    const version = /ffmpeg version (\S+)/.exec((await runTool(tools.ffmpeg, ['-version'], { timeoutMs: 10_000 })).stdout)?.[1];
    return { available: true, version: version ?? 'unknown' };
  })();
  return availability;
}

/**
 * The demuxers of the containers issue 14 accepts (MP4, MOV, 3GP and WebM/Matroska), the only ones
 * ffprobe and ffmpeg may use on an upload: whatever its name, a file in another format (an HLS
 * playlist, a concat list, a picture) is refused before anything in it is read or followed.
 */
export const VIDEO_DEMUXERS = 'mov,mp4,m4a,3gp,3g2,mj2,matroska,webm';
/**
 * Goes before the input of every ffprobe and ffmpeg run: local files only (no playlist can make them
 * open a pipe, a device or an address) and the accepted containers only.
 */
export const INPUT_LIMITS = ['-protocol_whitelist', 'file', '-format_whitelist', VIDEO_DEMUXERS] as const;

/**
 * Goes before the input of every ffmpeg run: no picture larger than the longest side allowed,
 * squared, is decoded, even one that grows past what the file's headers said. Not for ffprobe: there
 * it would hide the size that the probe refuses in plain words.
 */
export const DECODE_LIMITS = ['-max_pixels', String(VIDEO_MAX_SIDE * VIDEO_MAX_SIDE)] as const;

/**
 * ffmpeg's threads, whatever the number of cores: by default it starts about one decoding and one and
 * a half encoding threads per core, each holding its own frames, so its memory grows with the machine.
 * Two for decoding and for each encoder, one for the filters: a transcode takes about as long on the
 * two cores of a small server and stays within a bounded share of a larger one.
 */
export const THREAD_LIMITS = {
  /** Before `-i`: the decoder, and the filters (-filter_complex and the others). */
  input: ['-threads', '2', '-filter_threads', '1', '-filter_complex_threads', '1'],
  /** With each output: its encoder. */
  output: ['-threads', '2'],
} as const;

export interface ToolResult {
  code: number;
  stdout: string;
  /** The end of what it wrote to stderr (enough to log why it failed). */
  stderr: string;
}

/**
 * Runs a tool to its end. It runs at a lower priority than the site (a transcode must not slow the
 * pages down) and is killed after `timeoutMs`. `onStdout` sees its output as it comes (progress).
 * When `signal` is aborted (the process stopping) the tool is asked to stop, killed if it has not
 * within 5 s, and the promise rejects with the signal's reason once it has exited, so nothing is
 * left running or writing into a folder about to be removed.
 */
export function runTool(
  command: string,
  args: string[],
  options: { timeoutMs: number; onStdout?: (chunk: string) => void; signal?: AbortSignal },
): Promise<ToolResult> {
  const { signal } = options;
  if (signal?.aborted) return Promise.reject(signal.reason as Error);
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.once('spawn', () => {
      try {
        if (child.pid) os.setPriority(child.pid, 10);
      } catch {
        // Not allowed on this system: it then runs at the site's priority.
      }
    });
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      if (options.onStdout) options.onStdout(chunk);
      else if (stdout.length < 2_000_000) stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-4_000);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    let hardKill: NodeJS.Timeout | undefined;
    const stop = () => {
      child.kill('SIGTERM');
      hardKill = setTimeout(() => child.kill('SIGKILL'), 5_000);
    };
    signal?.addEventListener('abort', stop, { once: true });
    const settle = () => {
      clearTimeout(timer);
      clearTimeout(hardKill);
      signal?.removeEventListener('abort', stop);
    };
    child.once('error', (error) => {
      settle();
      reject(error);
    });
    child.once('close', (code, exitSignal) => {
      settle();
      if (signal?.aborted) reject(signal.reason as Error);
      else resolve({ code: code ?? (exitSignal ? -1 : 0), stdout, stderr });
    });
  });
}
