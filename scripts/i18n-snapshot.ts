// Issue 26 item 3: keeps app/lib/i18n/translated-from.json, the English each built-in Luganda and
// Swahili text was written against, so the Translations screen can say "Changed since translated"
// when the English source has changed since (docs/decisions/032-translations-screen.md).
//
//   node scripts/i18n-snapshot.ts                    adds keys new to en.ts (their translations are
//                                                   taken as written against today's English) and
//                                                   drops keys en.ts no longer has
//   node scripts/i18n-snapshot.ts --updated lg a b   the Luganda texts of keys a and b were brought up
//                                                   to date with today's English (`all` for both languages)
import fs from 'node:fs';
import path from 'node:path';
import { EN } from '../app/lib/i18n/en.ts';

const FILE = path.resolve(import.meta.dirname, '../app/lib/i18n/translated-from.json');
const LANGUAGES = ['lg', 'sw'] as const;
type Snapshot = Record<(typeof LANGUAGES)[number], Record<string, string>>;

const english: Record<string, string> = EN;
const old: Partial<Snapshot> = fs.existsSync(FILE) ? (JSON.parse(fs.readFileSync(FILE, 'utf8')) as Partial<Snapshot>) : {};
const args = process.argv.slice(2);
const updated = args[0] === '--updated' ? { language: args[1] ?? '', keys: new Set(args.slice(2)) } : undefined;
if (updated && !['lg', 'sw', 'all'].includes(updated.language)) {
  console.error('Usage: node scripts/i18n-snapshot.ts [--updated lg|sw|all key…]');
  process.exit(2);
}

const next = {} as Snapshot;
let changed = 0;
for (const language of LANGUAGES) {
  const before = old[language] ?? {};
  const after: Record<string, string> = {};
  const bringUp = updated && (updated.language === language || updated.language === 'all') ? updated.keys : new Set<string>();
  for (const [key, source] of Object.entries(english)) {
    const kept = Object.hasOwn(before, key) && !bringUp.has(key) ? before[key]! : source;
    if (kept !== before[key]) changed += 1;
    after[key] = kept;
  }
  next[language] = after;
}
fs.writeFileSync(FILE, `${JSON.stringify(next, null, 2)}\n`);
console.log(`${path.relative(process.cwd(), FILE)}: ${changed} entries written.`);
