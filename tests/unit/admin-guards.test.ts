import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Every loader and action under app/routes/admin must start by deciding who may use it (issue 4:
// "a test walks every admin route module and fails if one lacks it"). A handler may skip the check
// only when it touches nothing on the server (e.g. a 405 answer for GET).

const GUARDS = ['requireUser', 'requirePermission', 'requireSection', 'requireSuperAdmin', 'allowSignedOut'];
const dir = path.resolve(import.meta.dirname, '../../app/routes/admin');
const files = fs.readdirSync(dir).filter((f) => /\.(ts|tsx)$/.test(f));

function handlers(source: string): { name: string; body: string }[] {
  const found: { name: string; body: string }[] = [];
  const pattern = /export\s+(?:async\s+)?function\s+(loader|action)\s*\([^)]*\)\s*(?::[^{]+)?\{/g;
  for (let match = pattern.exec(source); match; match = pattern.exec(source)) {
    let depth = 1;
    let i = pattern.lastIndex;
    while (depth > 0 && i < source.length) {
      if (source[i] === '{') depth++;
      else if (source[i] === '}') depth--;
      i++;
    }
    found.push({ name: match[1]!, body: source.slice(pattern.lastIndex, i - 1) });
  }
  return found;
}

function serverImports(source: string): string[] {
  const names: string[] = [];
  for (const match of source.matchAll(/import\s*\{([^}]+)\}\s*from\s*'~\/server\/[^']+'/g)) {
    names.push(
      ...match[1]!
        .split(',')
        .map((n) => n.replace(/type\s+/, '').trim())
        .filter(Boolean),
    );
  }
  return names;
}

/** The loaders and actions of a route module that do server work without a guard first. */
function unguarded(source: string): string[] {
  const server = serverImports(source).filter((n) => !GUARDS.includes(n));
  const missing: string[] = [];
  for (const handler of handlers(source)) {
    const firstStatement = (handler.body.trim().split(/;\s*\n/)[0] ?? '').trim();
    const guarded = GUARDS.some((g) => new RegExp(`^(?:(?:const|let)\\s+[^=]+=\\s*)?await\\s+${g}\\(`).test(firstStatement));
    if (guarded) continue;
    const touchesServer = /\bawait\b/.test(handler.body) || server.some((n) => new RegExp(`\\b${n}\\b`).test(handler.body));
    if (touchesServer) missing.push(handler.name);
  }
  return missing;
}

describe('admin route guards', () => {
  it('finds the admin route modules', () => {
    expect(files.length).toBeGreaterThan(8);
  });

  it.each(files)('%s checks permissions first in every loader and action', (file) => {
    const source = fs.readFileSync(path.join(dir, file), 'utf8');
    expect(unguarded(source), `${file} must start these with one of ${GUARDS.join(', ')}`).toEqual([]);
  });

  it('catches a handler that reads data without a check, and one that checks too late', () => {
    const noCheck = `import { listUsers } from '~/server/users.server';\nexport async function loader({ request }: Route.LoaderArgs) {\n  return listUsers();\n}`;
    const late = `import { requireUser } from '~/server/auth.server';\nimport { listUsers } from '~/server/users.server';\nexport async function action({ request }) {\n  const users = await listUsers();\n  await requireUser(request);\n  return users;\n}`;
    const good = `import { requireUser } from '~/server/auth.server';\nexport async function loader({ request }) {\n  const user = await requireUser(request);\n  return user;\n}\nexport function action() {\n  return new Response(null, { status: 405 });\n}`;
    expect(unguarded(noCheck)).toEqual(['loader']);
    expect(unguarded(late)).toEqual(['action']);
    expect(unguarded(good)).toEqual([]);
  });
});
