// Button looks shared by the home, About and services pages (amber accent with slate-900 text,
// indigo primary, outline on dark backgrounds). Every one is at least 44 px tall for touch.
const base =
  'inline-flex min-h-11 items-center justify-center gap-2 rounded-full px-6 py-3 text-base font-semibold transition-colors';

export const BUTTON = {
  accent: `${base} bg-amber-400 text-slate-900 shadow-sm hover:bg-amber-300`,
  primary: `${base} bg-indigo-800 text-white shadow-sm hover:bg-indigo-900`,
  outline: `${base} border-2 border-indigo-800 text-indigo-900 hover:bg-indigo-50`,
  outlineOnDark: `${base} border-2 border-white text-white hover:bg-white hover:text-indigo-900`,
} as const;

export const TEXT_LINK = 'font-semibold text-indigo-800 underline underline-offset-4 hover:text-indigo-950';

/** A small uppercase line above a section heading. */
export const EYEBROW = 'text-sm font-semibold tracking-widest text-indigo-700 uppercase';
