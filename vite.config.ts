import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig, type Plugin } from 'vite';

// Visitors pay for every byte on slow, expensive mobile data (docs/decisions/406-script-weight.md).
// The browser's scripts come in three kinds of chunk: the framework (React and React Router, the
// same on every page, cached for a year), the site's own shell below (layout and the pieces nearly
// every public page uses, compressed together instead of as a dozen small files), and one chunk
// per page for the rest.
const SITE_SHELL = new RegExp(
  [
    'root\\.tsx',
    'routes/public/layout\\.tsx',
    'components/(site-header|site-footer|mobile-menu|social-links|logo|icons|toast|external-link|image)\\.tsx',
    'lib/(images|seo|format|text|categories|use-hydrated|site)\\.ts',
  ]
    .map((file) => `[\\\\/]app[\\\\/]${file.replaceAll('/', '[\\\\/]')}$`)
    .join('|'),
);
const FRAMEWORK = /node_modules[\\/](react|react-dom|react-router|scheduler|turbo-stream|cookie|set-cookie-parser)[\\/]/;

/**
 * Scripts that run outside React on the few pages that need them, each built as its own chunk and
 * named to the server by `virtual:page-scripts` (docs/decisions/021-video-without-page-weight.md). A
 * page without one loads none of its code: the route renders the server's markup and a `<script>`
 * for the chunk only when it has something for the script to enhance. The server's entry
 * (server/app.ts) hands the addresses to app/server/platform/page-scripts.server.ts.
 */
const PAGE_SCRIPTS = {
  /** Issue 14: the sign-language video's quality choice. */
  signLanguageVideo: 'app/client/sign-language-video.ts',
  /** Issue 24: everything public pages do in the browser, since they load no React (decision 025). */
  reading: 'app/client/reading.ts',
  /** Issue 24: offline reading; server/app.ts serves /sw.js, which loads it. */
  serviceWorker: 'app/client/service-worker.ts',
} as const;
const PAGE_SCRIPTS_MODULE = 'virtual:page-scripts';

/** Builds PAGE_SCRIPTS in the browser build; `virtual:page-scripts` gives their addresses. */
function pageScripts(): Plugin {
  const references = new Map<string, string>();
  const built = new Map<string, string>();
  let building = false;
  return {
    name: 'page-scripts',
    configResolved(config) {
      building = config.command === 'build';
    },
    buildStart() {
      if (!building || this.environment.name !== 'client') return;
      for (const [name, file] of Object.entries(PAGE_SCRIPTS))
        references.set(
          name,
          // `page-` keeps its name apart from components of the same name (the dashboard's video field).
          this.emitFile({
            type: 'chunk',
            id: path.resolve(import.meta.dirname, file),
            name: `page-${path.basename(file, '.ts')}`,
          }),
        );
    },
    generateBundle() {
      if (this.environment.name !== 'client') return;
      for (const [name, reference] of references) built.set(name, `/${this.getFileName(reference)}`);
    },
    resolveId(id) {
      return id === PAGE_SCRIPTS_MODULE ? `\0${PAGE_SCRIPTS_MODULE}` : undefined;
    },
    load(id) {
      if (id !== `\0${PAGE_SCRIPTS_MODULE}`) return undefined;
      const urls = Object.fromEntries(
        Object.entries(PAGE_SCRIPTS).map(([name, file]) => {
          // The dev server compiles the source when the browser asks for it.
          if (!building) return [name, `/${file}`];
          const url = built.get(name);
          if (!url) throw new Error(`${file} is not built yet: the browser build must come before the server's`);
          return [name, url];
        }),
      );
      return `export default ${JSON.stringify(urls)};`;
    },
  };
}

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Writes a Brotli (quality 11) and a gzip (level 9) copy beside every text asset of the browser
 * build, so the server sends the smallest form the browser accepts without compressing on the fly.
 */
function precompress(): Plugin {
  return {
    name: 'precompress-assets',
    apply: 'build',
    applyToEnvironment: (environment) => environment.name === 'client',
    async writeBundle(options, bundle) {
      const dir = options.dir ?? path.dirname(options.file ?? '');
      const files = Object.keys(bundle).filter((name) => /\.(js|css|svg|json|txt|xml|webmanifest)$/.test(name));
      await Promise.all(
        files.map(async (name) => {
          const file = path.join(dir, name);
          const body = await fs.readFile(file);
          const [br, gz] = await Promise.all([
            brotli(body, {
              params: {
                [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
                [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
              },
            }),
            gzip(body, { level: 9 }),
          ]);
          // A copy only where it is smaller: the tiniest chunks are better sent as they are.
          await Promise.all([
            br.length < body.length && fs.writeFile(`${file}.br`, br),
            gz.length < body.length && fs.writeFile(`${file}.gz`, gz),
          ]);
        }),
      );
    },
  };
}

export default defineConfig({
  plugins: [tailwindcss(), reactRouter(), pageScripts(), precompress()],
  resolve: { alias: { '~': path.resolve(import.meta.dirname, 'app') } },
  build: { target: 'es2022' },
  environments: {
    // The server bundle's entry is the Express app, which imports the routes' build: one bundle, so
    // one copy of every module (server.ts loads it).
    // Issue 29: V8 keeps each module's source for the life of the process, at two bytes a character
    // if any character is past Latin-1. The bundle is written as ASCII (other characters escaped) and
    // without its doc comments, the rest of such characters: a few hundred curly quotes had made the
    // 1.7 MB bundle 3.5 MB in every worker.
    ssr: {
      build: {
        rolldownOptions: {
          input: './server/app.ts',
          output: { charset: 'ascii', comments: { legal: true, annotation: true, jsdoc: false } },
        },
      },
    },
    client: {
      build: {
        rolldownOptions: {
          output: {
            codeSplitting: {
              groups: [
                { name: 'framework', test: FRAMEWORK, priority: 20 },
                { name: 'site', test: SITE_SHELL, priority: 10 },
              ],
            },
          },
        },
      },
    },
  },
});
