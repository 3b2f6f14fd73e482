import js from '@eslint/js';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import regexp from 'eslint-plugin-regexp';
import globals from 'globals';
import tseslint from 'typescript-eslint';

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
