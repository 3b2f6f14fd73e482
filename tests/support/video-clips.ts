import { execFileSync } from 'node:child_process';

/**
 * Writes a short H.264 MP4 test clip at `file` with ffmpeg (Debian's, as the site uses): a moving test
 * pattern of `size`, `seconds` long, with a 440 Hz tone unless `silent`. Small and quick to make, for
 * tests and journeys that upload a real video.
 */
export function makeTestClip(file: string, { size = '640x360', seconds = 2, silent = false } = {}): string {
  const sound = silent ? [] : ['-f', 'lavfi', '-i', 'sine=frequency=440'];
  const soundCodec = silent ? [] : ['-c:a', 'aac', '-shortest'];
  execFileSync('ffmpeg', [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc=size=${size}:rate=25`],
    ...sound,
    ...['-t', String(seconds), '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'],
    ...soundCodec,
    file,
  ]);
  return file;
}
