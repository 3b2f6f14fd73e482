import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { freePort } from '../../scripts/free-port';

export { freePort };

export const DESKTOP = { width: 1280, height: 800 };
export const MOBILE = { width: 375, height: 740 };

/** The impacts an axe finding fails a journey at: all but "minor". */
const FAILING_IMPACTS = new Set(['moderate', 'serious', 'critical']);

export interface AxeOptions {
  /** A part of the page axe leaves out (a frame it cannot enter). */
  exclude?: string;
  /**
   * An e-mail shown as a page: the rules for a page's landmarks (one main, all content in regions)
   * are left out, as mail programs drop landmarks and lay mail out in tables.
   */
  mail?: boolean;
}

/** WCAG 1.4.10 (Reflow): the width content must fit without scrolling sideways, 1280 px at 400% zoom. */
export const NARROWEST = { width: 320, height: 640 };

/** WCAG 1.4.12 (Text Spacing): the spacing a reader may set in their own style sheet. */
export const TEXT_SPACING =
  '* { line-height: 1.5 !important; letter-spacing: 0.12em !important; word-spacing: 0.16em !important } p { margin-bottom: 2em !important }';

/**
 * The page at 320 px wide, as it is and then with WCAG's text spacing: nothing makes it scroll
 * sideways (a table may scroll inside its own region). The viewport is put back as it was; the
 * spacing stays until the page is left.
 */
export async function expectReflowAt320(page: Page, what = page.url()) {
  const before = page.viewportSize();
  await page.setViewportSize(NARROWEST);
  const fits = async (how: string) => {
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width, `${what} ${how} is ${width} px wide at ${NARROWEST.width} px`).toBeLessThanOrEqual(NARROWEST.width);
  };
  try {
    await fits('as it is');
    await page.addStyleTag({ content: TEXT_SPACING });
    await fits('with text spacing');
  } finally {
    if (before) await page.setViewportSize(before);
  }
}

/**
 * axe-core must find nothing moderate, serious or critical (WCAG 2.2 A and AA rules, and axe's best
 * practices: one main landmark, one level-one heading, landmarks of distinct names …). It runs in the
 * page itself (axe's "legacy" mode): the site has no frames from other origins, which is what the
 * default mode's extra page is for, and that page cost a fifth of an axe journey's CPU.
 */
export async function expectNoA11yIssues(page: Page, options: AxeOptions = {}) {
  let axe = new AxeBuilder({ page })
    .setLegacyMode()
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']);
  if (options.exclude) axe = axe.exclude(options.exclude);
  if (options.mail) axe = axe.disableRules(['landmark-one-main', 'region']);
  const results = await axe.analyze();
  const findings = results.violations
    .filter((v) => FAILING_IMPACTS.has(v.impact ?? ''))
    .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
  expect(findings, findings.join('\n')).toEqual([]);
}

/**
 * A slow connection: the page arrives, its scripts wait until the returned function is called (what
 * staff type before then must survive the scripts taking over the form).
 */
export async function holdScripts(page: Page): Promise<() => void> {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/assets/**/*.js', async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/** The computed colour of a theme colour such as 'indigo-900', as the browser reports it. */
export async function themeColor(page: Page, name: string): Promise<string> {
  return page.evaluate((token) => {
    const probe = document.createElement('span');
    probe.style.color = `var(--color-${token})`;
    document.body.append(probe);
    const color = getComputedStyle(probe).color;
    probe.remove();
    return color;
  }, name);
}

/**
 * That something does NOT happen can only be watched for a while: reads `read()` every 100 ms for
 * `ms` and expects it to stay what it was at first (it stops at the first change, and fails with it).
 */
export async function expectSteady(read: () => unknown, ms: number, message: string): Promise<void> {
  const first = await read();
  const until = Date.now() + ms;
  let last = first;
  await expect
    .poll(
      async () => {
        last = await read();
        return !isDeepStrictEqual(last, first) || Date.now() >= until;
      },
      { message, intervals: [100], timeout: ms + 10_000 },
    )
    .toBe(true);
  expect(last, message).toEqual(first);
}

export interface OtherServer {
  port: number;
  dataDir: string;
  /** What the server has written to stdout so far. */
  stdout(): string;
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>;
  /** Stops the server (if running) and deletes its data folder. */
  dispose(): Promise<void>;
}

/**
 * Starts a second server (server.ts) on a free port with a data folder of its own and `env`, and
 * waits until it listens. It seeds its own demo content first, which takes a while on a busy machine.
 */
export async function startServer(env: Record<string, string>, folderPrefix = 'tdg-other-'): Promise<OtherServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), folderPrefix));
  const port = await freePort();
  const child = spawn(process.execPath, ['server.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      LOG_LEVEL: 'info',
      // One thread unless the journey is about several workers (issue 15, decision 040).
      WEB_CONCURRENCY: '1',
      ...env,
    },
  });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const stop = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    return exited;
  };
  const server: OtherServer = {
    port,
    dataDir,
    stdout: () => stdout,
    stop,
    async dispose() {
      await stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  try {
    await expect.poll(() => stdout, { timeout: 150_000 }).toContain(`is running at http://127.0.0.1:${port}`);
  } catch (error) {
    await server.dispose();
    throw error;
  }
  return server;
}

/**
 * Runs a journey's steps, then puts back what they changed, as `try … finally` would, except that
 * a failed step stays the failure reported. Putting back often fails for the same cause (the page is
 * on an error, the server is slow), and a `finally` that throws replaces the step's error with its
 * own. Then the putting back's error is attached to the test beside it instead.
 */
export async function thenPutBack(steps: () => Promise<void>, putBack: () => Promise<void>): Promise<void> {
  let failure: { error: unknown } | undefined;
  try {
    await steps();
  } catch (error) {
    failure = { error };
  }
  try {
    await putBack();
  } catch (error) {
    if (!failure) throw error;
    test.info().annotations.push({
      type: 'putting back failed too',
      description: error instanceof Error ? error.message : String(error),
    });
  }
  if (failure) throw failure.error;
}
