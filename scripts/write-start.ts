// The start-up modules as JavaScript (issue 29): `npm start` runs build/start/server.js, so no process
// of the site loads Node's TypeScript stripper (about 17 MB resident in each, the primary and every
// worker). server.ts and the modules it imports at run time are copied with their types removed and
// their `.ts` imports renamed; `node server.ts` keeps working as it is. Run by `npm run build` and
// scripts/ensure-build.ts.
import fs from 'node:fs';
import { stripTypeScriptTypes } from 'node:module';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

export function writeStartModules(buildDir: string): void {
  // stripTypeScriptTypes is still marked experimental in Node 24; its one warning would only alarm.
  const emitWarning = process.emitWarning;
  process.emitWarning = () => undefined;
  try {
    const out = path.join(buildDir, 'start');
    fs.rmSync(out, { recursive: true, force: true });
    const pending = ['server.ts'];
    const done = new Set<string>();
    while (pending.length) {
      const source = pending.pop()!;
      if (done.has(source)) continue;
      done.add(source);
      let code = stripTypeScriptTypes(fs.readFileSync(path.join(root, source), 'utf8'), { mode: 'strip' });
      code = code.replace(/(from\s+|import\s*\(\s*)'(\.{1,2}\/[^']+)\.ts'/g, (_all, lead: string, spec: string) => {
        pending.push(path.normalize(path.join(path.dirname(source), `${spec}.ts`)));
        return `${lead}'${spec}.js'`;
      });
      const target = path.join(out, source.replace(/\.ts$/, '.js'));
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, code);
    }
  } finally {
    process.emitWarning = emitWarning;
  }
}

if (import.meta.main) writeStartModules(path.resolve(root, process.env.BUILD_DIR ?? 'build'));
