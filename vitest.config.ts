import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: { '~': path.resolve(import.meta.dirname, 'app') } },
  test: {
    include: ['app/**/*.test.ts', 'app/**/*.test.tsx', 'server/**/*.test.ts', 'tests/unit/**/*.test.ts'],
    environment: 'node',
    // Quiet runs: code under test logs nothing unless a test gives it a logger to read (setLogger).
    env: { LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each file opens its own database (a fresh SQLite folder, or its own PostgreSQL schema).
    fileParallelism: true,
    // Vitest's default, one file fewer than the cores, is one file at a time on two cores: the files
    // wait on databases, ffmpeg and child processes often enough that two at once take 35% less time.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
  },
});
