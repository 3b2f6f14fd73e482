// Builds the site when there is no production build or the sources are newer than it, so that
// `npm start` works on a fresh clone and after a `git pull`.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { writeStartModules } from './write-start.ts';

const root = path.resolve(import.meta.dirname, '..');
const marker = path.join(path.resolve(root, process.env.BUILD_DIR ?? 'build'), 'server', 'index.js');
const sources = ['app', 'server', 'server.ts', 'public', 'package.json', 'vite.config.ts', 'react-router.config.ts'];

function newestMtime(target: string): number {
  const full = path.join(root, target);
  if (!fs.existsSync(full)) return 0;
  const stat = fs.statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(full, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) newest = Math.max(newest, fs.statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

const built = fs.existsSync(marker) ? fs.statSync(marker).mtimeMs : 0;
const changed = Math.max(...sources.map(newestMtime));
if (built === 0 || changed > built) {
  process.stdout.write(
    built === 0 ? 'No production build yet: building…\n' : 'Sources changed since the last build: rebuilding…\n',
  );
  const result = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
  // Mark the build as newer than the sources even when the bundler reused files.
  const now = new Date();
  fs.utimesSync(marker, now, now);
}

writeStartModules(path.resolve(root, process.env.BUILD_DIR ?? 'build'));
