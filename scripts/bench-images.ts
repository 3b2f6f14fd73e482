// `npm run bench`: what storing an uploaded picture costs. A staff member's upload is decoded once
// and written as the main file and four widths (app/server/media/storage.server.ts). Measured side by
// side with the least any store could do, decoding the same file once and writing one WebP of the
// main file's size, on a phone's 4000 × 3000 JPEG and on a 6300 × 6300 PNG poster (the largest the
// site takes is 40 million pixels, in 5 MB). A figure, with no target: each of the five files written
// costs an encoding, so the ratio stays above 1.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { openDatabase } from '../app/server/db/db.server.ts';
import { migrateToLatest } from '../app/server/db/migrations.server.ts';
import { loadSharp, setUploadsRoot, storeImage } from '../app/server/media/storage.server.ts';

/** A photograph: noise, lightly blurred, so it compresses as a phone's photo does. */
async function photo(width: number, height: number): Promise<Buffer> {
  const noise = await sharp({
    create: { width, height, channels: 3, background: '#3355aa', noise: { type: 'gaussian', mean: 128, sigma: 30 } },
  })
    .png({ compressionLevel: 1 })
    .toBuffer();
  return sharp(noise).blur(0.8).jpeg({ quality: 85 }).toBuffer();
}

/** A poster: flat colours, shapes and words, as a PNG of that size is under the 5 MB upload limit. */
function poster(side: number): Promise<Buffer> {
  const shapes = Array.from({ length: 40 }, (_, n) => {
    const at = (n * 997) % side;
    return `<circle cx="${at}" cy="${(n * 1543) % side}" r="${200 + ((n * 31) % 400)}" fill="hsl(${(n * 47) % 360} 60% 45%)"/>`;
  }).join('');
  const words = Array.from(
    { length: 12 },
    (_, n) => `<text x="300" y="${500 + n * 480}" font-size="260" fill="#fff">Deaf awareness ${n + 1}</text>`,
  ).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${side}" height="${side}"><rect width="100%" height="100%" fill="#1e1b4b"/>${shapes}${words}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/**
 * Wall time and this process's CPU time of one call in ms, the best of three, and the most its
 * resident memory grew meanwhile (sampled every 5 ms).
 */
async function timed(work: () => Promise<unknown>): Promise<{ ms: number; cpuMs: number; grewMb: number }> {
  let best = { ms: Infinity, cpuMs: Infinity };
  let grew = 0;
  for (let run = 0; run < 3; run++) {
    const before = process.memoryUsage.rss();
    const sampler = setInterval(() => (grew = Math.max(grew, process.memoryUsage.rss() - before)), 5);
    const cpu = process.cpuUsage();
    const started = performance.now();
    await work();
    const used = process.cpuUsage(cpu);
    const ms = performance.now() - started;
    clearInterval(sampler);
    if (ms < best.ms) best = { ms, cpuMs: (used.user + used.system) / 1000 };
  }
  return { ...best, grewMb: grew / 1024 / 1024 };
}

export async function measureImageUpload(table: (head: string[], rows: string[][]) => string): Promise<string[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tdg-bench-images-'));
  const handle = await openDatabase({ dataDir });
  try {
    await migrateToLatest(handle.db, handle.engine);
    setUploadsRoot(dataDir);
    const load = await loadSharp();
    const rows: string[][] = [];
    const ratios: number[] = [];
    for (const [label, bytes] of [
      ['a phone’s photo, 4000 × 3000 JPEG', await photo(4000, 3000)],
      ['a poster, 6300 × 6300 PNG', await poster(6300)],
    ] as const) {
      const once = await timed(() =>
        load(bytes, { failOn: 'error', limitInputPixels: 40_000_000 })
          .rotate()
          .resize({ width: 1600, withoutEnlargement: true })
          .webp({ quality: 80 })
          .toBuffer(),
      );
      const stored = await timed(() => storeImage(handle.db, { folder: 'blogs', originalName: 'bench.png', bytes }));
      ratios.push(stored.ms / once.ms);
      rows.push([
        label,
        `${(bytes.length / 1024 / 1024).toFixed(1)} MB`,
        once.ms.toFixed(0),
        stored.ms.toFixed(0),
        stored.cpuMs.toFixed(0),
        `${(stored.ms / once.ms).toFixed(2)}×`,
        `${once.grewMb.toFixed(0)} / ${stored.grewMb.toFixed(0)} MB`,
      ]);
    }
    process.stdout.write(
      `Storing an uploaded picture (main file and 4 widths), beside decoding it once into one WebP:\n${table(
        ['Upload', 'size', 'one decode ms', 'stored ms', 'stored CPU ms', 'ratio', 'memory grew: decode / store'],
        rows,
      )}\n\n`,
    );
    return [`INFO  storing an upload with its 4 widths takes at worst ${Math.max(...ratios).toFixed(2)}× decoding it once`];
  } finally {
    await handle.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.filename === process.argv[1]) {
  const table = (head: string[], rows: string[][]) => [head, ...rows].map((row) => row.join(' | ')).join('\n');
  process.stdout.write(`${(await measureImageUpload(table)).join('\n')}\n`);
}
