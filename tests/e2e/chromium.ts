import fs from 'node:fs';

// The journeys' browser (decision 045): Chromium's headless shell from Debian's packages, the same
// Blink and V8 as the full browser without its windows, when it is installed; otherwise Chromium.
// CHROMIUM_PATH names another executable.

export const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
export const FULL_CHROMIUM = '/usr/bin/chromium';

/** The executable the journeys run in. */
export function journeyChromium(): string {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  return fs.existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : FULL_CHROMIUM;
}
