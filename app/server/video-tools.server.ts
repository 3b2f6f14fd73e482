import { spawn } from 'node:child_process';
import os from 'node:os';

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
