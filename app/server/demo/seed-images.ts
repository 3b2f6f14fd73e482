import type { Motif, SeedImage } from './seed-data.ts';

/**
 * Draws a demo illustration as a standalone SVG document: a diagonal gradient from `image.from`
 * to `image.to`, a few soft decorative shapes, and a white line-art pictogram for `image.motif`
 * centred on the canvas. No text, fonts or external references, so it rasterises the same way
 * everywhere (it is turned into a bitmap with sharp when the demo content is seeded).
 */
export function renderSeedImageSvg(image: SeedImage, width: number, height: number): string {
  const w = Math.max(1, Math.round(width));
  const h = Math.max(1, Math.round(height));
  const from = safeColour(image.from, '#3730a3');
  const to = safeColour(image.to, '#1e3a8a');
  const random = seededRandom(hashString(`${image.motif}|${from}|${to}`));

  const short = Math.min(w, h);
  const cx = w / 2;
  const cy = h / 2;
  // The pictogram is drawn in a 100 x 100 box; this is its size on the canvas.
  const size = short * 0.58;
  const scale = size / 100;
  const strokeWidth = 3.4; // in pictogram units, so it scales with the picture

  const decorations = renderDecorations(w, h, short, random);
  const halo = [
    `<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(size * 0.72)}" fill="#ffffff" fill-opacity="0.07"/>`,
    `<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(size * 0.86)}" fill="none" stroke="#ffffff" stroke-opacity="0.14" stroke-width="${n(short * 0.004)}"/>`,
  ].join('');
  const pictogram =
    `<g transform="translate(${n(cx - size / 2)} ${n(cy - size / 2)}) scale(${n(scale, 4)})" fill="none" stroke="#ffffff" ` +
    `stroke-width="${strokeWidth}" stroke-linecap="round" stroke-linejoin="round">${MOTIFS[image.motif](strokeWidth)}</g>`;

  return (
    `<?xml version="1.0" encoding="UTF-8"?>` +
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">` +
    `<defs>` +
    `<linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">` +
    `<stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/>` +
    `</linearGradient>` +
    `<radialGradient id="glow" cx="0.3" cy="0.25" r="0.7">` +
    `<stop offset="0" stop-color="#ffffff" stop-opacity="0.12"/><stop offset="1" stop-color="#ffffff" stop-opacity="0"/>` +
    `</radialGradient>` +
    `</defs>` +
    `<rect width="${w}" height="${h}" fill="url(#bg)"/>` +
    `<rect width="${w}" height="${h}" fill="url(#glow)"/>` +
    decorations +
    halo +
    pictogram +
    `</svg>`
  );
}

type Draw = (strokeWidth: number) => string;

/** White line-art pictograms, each drawn in a 100 x 100 box. */
const MOTIFS: Record<Motif, Draw> = {
  hands: (sw) => {
    // An open hand, palm towards the viewer, in a ~50 x 64 box centred near (22, 36).
    const hand =
      'M16 66 V60 Q10 56 6 48 L-1.5 36 A3.65 3.65 0 0 1 4.6 32 L8 37 V10 A4 4 0 0 1 16 10 V26 A1.25 1.25 0 0 0 18.5 26 ' +
      'V6 A4 4 0 0 1 26.5 6 V26 A1.25 1.25 0 0 0 29 26 V10 A4 4 0 0 1 37 10 V28 A1.25 1.25 0 0 0 39.5 28 ' +
      'V18 A3.5 3.5 0 0 1 46.5 18 V44 Q46.5 56 38 60 V66';
    const k = 0.8;
    const inner = `stroke-width="${n(sw / k)}"`;
    return (
      `<g transform="translate(29 57) rotate(-14) scale(-${k} ${k}) translate(-22 -36)" ${inner}><path d="${hand}"/><path d="M13 66 H41"/></g>` +
      `<g transform="translate(71 57) rotate(14) scale(${k}) translate(-22 -36)" ${inner}><path d="${hand}"/><path d="M13 66 H41"/></g>` +
      // Movement marks above the hands.
      `<path d="M40 14 Q50 6 60 14"/><path d="M44 21 Q50 16.5 56 21"/>`
    );
  },
  ear: () =>
    `<g transform="translate(-6 0)">` +
    `<path d="M30 42 C30 22 42 10 56 10 C71 10 80 22 80 36 C80 50 70 55 66 63 C62 71 63 80 54 86 C47 90 39 87 36 80"/>` +
    `<path d="M43 40 C43 29 49 23 57 23 C64 23 69 29 69 36 C69 44 62 46 59 52 C57 56 58 61 54 63"/>` +
    `<path d="M50 46 C53 43 58 45 58 50"/>` +
    `<path d="M88 38 Q92 46 88 54"/><path d="M95 31 Q102 46 95 61"/>` +
    `</g>`,
  people: () =>
    `<circle cx="50" cy="34" r="10"/>` +
    `<path d="M31 82 V72 C31 58 40 51 50 51 C60 51 69 58 69 72 V82"/>` +
    `<circle cx="22" cy="44" r="7.5"/>` +
    `<path d="M7 80 V73 C7 63 13 58 22 58 C26 58 29 59 31.5 61.5"/>` +
    `<circle cx="78" cy="44" r="7.5"/>` +
    `<path d="M93 80 V73 C93 63 87 58 78 58 C74 58 71 59 68.5 61.5"/>`,
  book: () =>
    `<path d="M50 30 C42 23 29 21 16 23 V72 C29 70 42 72 50 79 Z"/>` +
    `<path d="M50 30 C58 23 71 21 84 23 V72 C71 70 58 72 50 79"/>` +
    `<path d="M8 31 V80 C24 78 40 80 50 86 C60 80 76 78 92 80 V31"/>` +
    `<path d="M24 35 C31 34 37 35 42 38"/><path d="M24 45 C31 44 37 45 42 48"/><path d="M24 55 C31 54 37 55 42 58"/>` +
    `<path d="M76 35 C69 34 63 35 58 38"/><path d="M76 45 C69 44 63 45 58 48"/><path d="M76 55 C69 54 63 55 58 58"/>`,
  mic: () =>
    `<rect x="39" y="10" width="22" height="42" rx="11"/>` +
    `<path d="M39 26 H46"/><path d="M39 34 H46"/><path d="M39 42 H46"/>` +
    `<path d="M29 42 V46 C29 58 38 66 50 66 C62 66 71 58 71 46 V42"/>` +
    `<path d="M50 66 V80"/><path d="M37 84 H63"/>` +
    `<path d="M18 24 Q11 35 18 46"/><path d="M82 24 Q89 35 82 46"/>` +
    `<path d="M9 17 Q-1 35 9 53"/><path d="M91 17 Q101 35 91 53"/>`,
  laptop: () =>
    `<rect x="20" y="20" width="60" height="42" rx="4"/>` +
    `<path d="M10 70 H90 L85 78 H15 Z"/>` +
    `<path d="M43 70 V72.5 H57 V70"/>` +
    `<circle cx="35" cy="35" r="6"/>` +
    `<path d="M47 31 H69"/><path d="M47 39 H62"/><path d="M29 50 H69"/>`,
  heart: () =>
    `<path d="M50 82 C50 82 16 62 16 38 C16 27 24 19 34 19 C41 19 47 23 50 29 C53 23 59 19 66 19 C76 19 84 27 84 38 C84 62 50 82 50 82 Z"/>` +
    `<path d="M28 37 C28 32 31 29 35 29"/>` +
    `<path d="M89 10 V20 M84 15 H94"/><path d="M11 66 V74 M7 70 H15"/>`,
  megaphone: () =>
    `<path d="M16 41 H30 L66 22 V78 L30 59 H16 Z"/>` +
    `<path d="M66 22 C71 22 74 35 74 50 C74 65 71 78 66 78"/>` +
    `<path d="M30 41 V59"/>` +
    `<path d="M24 59 L28 78 H37 L34 62"/>` +
    `<path d="M83 40 L92 35"/><path d="M85 50 H95"/><path d="M83 60 L92 65"/>`,
  school: () =>
    `<path d="M12 44 L50 20 L88 44"/>` +
    `<path d="M20 40 V82 H80 V40"/>` +
    `<path d="M43 82 V64 C43 60 46 58 50 58 C54 58 57 60 57 64 V82"/>` +
    `<rect x="27" y="52" width="10" height="10" rx="1"/><rect x="63" y="52" width="10" height="10" rx="1"/>` +
    `<circle cx="50" cy="38" r="4.5"/>` +
    `<path d="M50 20 V5"/><path d="M50 6 H63 L59 10.5 L63 15 H50"/>` +
    `<path d="M6 82 H94"/>`,
  globe: () =>
    `<circle cx="50" cy="50" r="34"/>` +
    `<ellipse cx="50" cy="50" rx="15" ry="34"/>` +
    `<path d="M16 50 H84"/><path d="M50 16 V84"/>` +
    `<path d="M22 32 C36 38 64 38 78 32"/><path d="M22 68 C36 62 64 62 78 68"/>` +
    `<path d="M86 22 A44 44 0 0 1 91 58" stroke-opacity="0.7"/>`,
};

/** Soft circles, a ring and a small dot grid, placed a little differently for each image. */
function renderDecorations(w: number, h: number, short: number, random: () => number): string {
  const parts: string[] = [];
  const jitter = (value: number, amount: number) => value + (random() - 0.5) * amount;

  parts.push(
    `<circle cx="${n(jitter(w * 0.9, w * 0.08))}" cy="${n(jitter(h * 0.08, h * 0.1))}" r="${n(short * 0.55)}" fill="#ffffff" fill-opacity="0.06"/>`,
  );
  parts.push(
    `<circle cx="${n(jitter(w * 0.06, w * 0.06))}" cy="${n(jitter(h * 0.96, h * 0.08))}" r="${n(short * 0.42)}" fill="#ffffff" fill-opacity="0.05"/>`,
  );
  parts.push(
    `<circle cx="${n(jitter(w * 0.16, w * 0.08))}" cy="${n(jitter(h * 0.2, h * 0.1))}" r="${n(short * 0.09)}" fill="none" stroke="#ffffff" stroke-opacity="0.18" stroke-width="${n(short * 0.006)}"/>`,
  );
  parts.push(
    `<circle cx="${n(jitter(w * 0.84, w * 0.06))}" cy="${n(jitter(h * 0.82, h * 0.08))}" r="${n(short * 0.05)}" fill="#ffffff" fill-opacity="0.1"/>`,
  );

  // A small grid of dots near one corner.
  const dot = short * 0.008;
  const gap = short * 0.045;
  const right = random() < 0.5;
  const startX = right ? w - short * 0.08 - gap * 4 : short * 0.08;
  const startY = right ? short * 0.1 : h - short * 0.1 - gap * 3;
  for (let row = 0; row < 4; row++) {
    for (let col = 0; col < 5; col++) {
      parts.push(
        `<circle cx="${n(startX + col * gap)}" cy="${n(startY + row * gap)}" r="${n(dot)}" fill="#ffffff" fill-opacity="0.22"/>`,
      );
    }
  }

  // A gentle wave across the bottom.
  const waveY = h * 0.86;
  const amp = h * 0.05;
  parts.push(
    `<path d="M0 ${n(waveY)} C${n(w * 0.25)} ${n(waveY - amp)} ${n(w * 0.45)} ${n(waveY + amp)} ${n(w * 0.7)} ${n(waveY)} S${n(w * 0.95)} ${n(waveY - amp)} ${n(w)} ${n(waveY - amp * 0.4)} V${h} H0 Z" fill="#ffffff" fill-opacity="0.04"/>`,
  );
  return parts.join('');
}

function safeColour(value: string, fallback: string): string {
  return /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i.test(value) ? value : fallback;
}

function n(value: number, digits = 2): string {
  return String(Number(value.toFixed(digits)));
}

function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** Small deterministic PRNG (mulberry32) so the same image always renders the same way. */
function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
