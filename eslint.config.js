import js from '@eslint/js';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import regexp from 'eslint-plugin-regexp';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** The folders of app/server and the folders each may use (app/server/README.md): a folder uses only those below it. */
const SERVER_FOLDERS = {
  platform: ['db'],
  db: ['platform'],
  media: ['platform', 'db'],
  staff: ['platform', 'db', 'media'],
  site: ['platform', 'db', 'media', 'staff'],
  content: ['platform', 'db', 'media', 'staff', 'site'],
  demo: ['platform', 'db', 'media', 'staff', 'site', 'content'],
  newsletter: ['platform', 'db', 'media', 'staff', 'site', 'content'],
  inbox: ['platform', 'db', 'media', 'staff', 'site', 'content'],
  events: ['platform', 'db', 'media', 'staff', 'site', 'content'],
  analytics: ['platform', 'db'],
  http: ['platform', 'db', 'media', 'staff', 'site', 'content', 'demo', 'newsletter', 'inbox', 'events', 'analytics'],
};
const SERVER_FOLDER_NAMES = Object.keys(SERVER_FOLDERS);

export default tseslint.config(
  { ignores: ['build/', 'build-*/', 'node_modules/', '.react-router/', 'data/', 'test-results/', 'playwright-report/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  // Rules that read the types: a promise nobody awaits loses its errors, and a switch over a union
  // must name every member, so a new role, action or status cannot slip through unhandled.
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
    },
  },
  {
    files: ['app/**/*.tsx'],
    ...jsxA11y.flatConfigs.strict,
  },
  // A regular expression over what a visitor or staff member sends must run in linear time: a
  // pattern that backtracks (or retries from every position) on some input has frozen the site
  // more than once (issue 22).
  {
    files: ['**/*.{ts,tsx,js,mjs,cjs}'],
    plugins: { regexp },
    rules: {
      'regexp/no-super-linear-backtracking': 'error',
      'regexp/no-super-linear-move': 'error',
    },
  },
  // Import boundaries (docs/architecture.md), by alias or by relative path, types included.
  {
    files: ['app/server/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(~/|(\\.\\./)+)components(/|$)',
              message: 'Server code never imports components: move the shared type or constant to app/lib.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['app/lib/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(~/|(\\.\\./)+)server(/|$)',
              message: 'app/lib is shared with the browser and never imports server code: define the fact in app/lib.',
            },
          ],
        },
      ],
    },
  },
  // The server's domains (app/server/README.md): each folder uses only the folders below it, HTTP
  // stays in http/ and the routes, and nothing but the routes and server/ uses the start-up or the
  // overview. Tests beside the code may drive the HTTP half; the borders hold the code itself.
  ...Object.entries(SERVER_FOLDERS).map(([folder, uses]) => ({
    files: [`app/server/${folder}/**/*.{ts,tsx}`],
    ignores: ['**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^(~/server/|(\\.\\./)+)(${[
                ...SERVER_FOLDER_NAMES.filter((name) => name !== folder && !uses.includes(name)),
                'start-up\\.server',
                'overview\\.server',
              ].join('|')})(/|\\.|$)`,
              message: `app/server/${folder} may use only ${uses.join(', ') || 'no other folder'} (app/server/README.md): move the shared piece down, or the caller up.`,
              allowTypeImports: folder !== 'http',
            },
            ...(folder === 'http'
              ? []
              : [
                  {
                    regex: '^(react-router|@react-router/)',
                    message: 'HTTP stays at the edge: only routes and app/server/http read requests and build answers.',
                  },
                ]),
          ],
        },
      ],
    },
  })),
  // Issue 23: a migration is history. It imports libraries, ./frozen.ts and the engine's type, never
  // the live code of the site (whose meaning changes), so it means the same thing forever.
  {
    files: ['app/server/db/migrations/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(~/|\\.\\./(?!db\\.server\\.ts$)|\\./(?!frozen\\.ts$))',
              message: 'A migration stands alone: copy what it needs into its file (or ./frozen.ts), never import live code.',
            },
          ],
        },
      ],
    },
  },
);
