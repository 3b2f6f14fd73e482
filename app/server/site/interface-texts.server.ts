import {
  isArgumentElement,
  isDateElement,
  isNumberElement,
  isPluralElement,
  isSelectElement,
  isTagElement,
  isTimeElement,
  parse,
  type MessageFormatElement,
} from '@formatjs/icu-messageformat-parser';
import { po, type GetTextTranslations } from 'gettext-parser';
import type { Kysely } from 'kysely';
import { EN } from '../../lib/i18n/en.ts';
import { CATALOGUES, setStaffTexts } from '../../lib/i18n/i18n.tsx';
import TRANSLATED_FROM from '../../lib/i18n/translated-from.json' with { type: 'json' };
import { DEFAULT_LANGUAGE, isLanguage, isPrefixedLanguage, type Language, type PrefixedLanguage } from '../../lib/languages.ts';
import { getPublicLanguages } from './site.server.ts';
import { can } from '../../lib/permissions.ts';
import {
  IMPORT_PROBLEMS_SHOWN,
  importedMessage,
  INTERFACE_TEXT_MAX,
  invalidIcuMessage,
  languageName,
  moreProblemsMessage,
  placeholdersMessage,
  TRANSLATION_LANGUAGES,
  TRANSLATION_MESSAGES,
  wrongLanguageMessage,
  type TranslationRow,
  type TranslationState,
} from '../../lib/translations.ts';
import type { StaffUser } from '../staff/auth.server.ts';
import { recordAudit } from '../platform/audit.server.ts';
import { getDb } from '../db/db.server.ts';
import type { Database } from '../db/schema.ts';
import { nowIso } from '../platform/ids.server.ts';
import { onPublicContentChanged } from '../platform/public-changes.server.ts';
import { RuleError } from '../platform/rule-error.server.ts';

// Issue 26 item 3: staff own the words (docs/decisions/032-translations-screen.md). The interface's
// Luganda and Swahili texts are the built-in catalogues (app/lib/i18n) with the texts staff corrected
// on the Translations screen laid over them (`interface_texts`, one row per language and key). Every
// text is checked as ICU MessageFormat with exactly its English source's placeholders, plain text
// only. Pages read the staff texts from a cache in each process, emptied by any change to what
// visitors see (the same signal that empties the page cache, in every worker and instance).

const ENGLISH: Readonly<Record<string, string>> = EN;
const SNAPSHOT: Readonly<Record<PrefixedLanguage, Readonly<Record<string, string>>>> = TRANSLATED_FROM;

/** Every interface text's key, from today's English catalogue (the source of the others). */
export function interfaceTextKeys(): string[] {
  return Object.keys(ENGLISH);
}

export function isInterfaceTextKey(key: string): boolean {
  return Object.hasOwn(ENGLISH, key);
}

/** A message's placeholders, as "{name}", "{count, plural}", "{kind, select}", "{n, number}". */
function placeholdersOf(elements: readonly MessageFormatElement[], into = new Set<string>()): Set<string> {
  for (const element of elements) {
    if (isArgumentElement(element)) into.add(`{${element.value}}`);
    else if (isNumberElement(element)) into.add(`{${element.value}, number}`);
    else if (isDateElement(element)) into.add(`{${element.value}, date}`);
    else if (isTimeElement(element)) into.add(`{${element.value}, time}`);
    else if (isPluralElement(element) || isSelectElement(element)) {
      into.add(`{${element.value}, ${isPluralElement(element) ? 'plural' : 'select'}}`);
      for (const option of Object.values(element.options)) placeholdersOf(option.value, into);
    } else if (isTagElement(element)) placeholdersOf(element.children, into);
  }
  return into;
}

function hasTag(elements: readonly MessageFormatElement[]): boolean {
  return elements.some(
    (element) =>
      isTagElement(element) ||
      ((isPluralElement(element) || isSelectElement(element)) &&
        Object.values(element.options).some((option) => hasTag(option.value))),
  );
}

const HTML_TAG = /<\/?[a-z!][^>]*>/i;
/** A C0 control character other than tab and line feed (DEL and C1 ones are left to the font). */
const CONTROL = /[^\P{Cc}\t\n\x7F-\x9F]/u;

function parseMessage(text: string): MessageFormatElement[] | string {
  try {
    return parse(text, { requiresOtherClause: true });
  } catch (error) {
    const at = (error as { location?: { start?: { offset?: number } } }).location?.start?.offset;
    const what = error instanceof Error ? error.message.toLowerCase().replaceAll('_', ' ') : 'unreadable';
    return invalidIcuMessage(at === undefined ? what : `${what} at character ${at + 1}`);
  }
}

/**
 * What is wrong with `text` as the interface text `key` in another language, or null when it may be
 * saved: ICU MessageFormat, exactly the English source's placeholders, at most INTERFACE_TEXT_MAX
 * characters, no HTML, no control character.
 */
export function checkInterfaceText(key: string, text: string): string | null {
  if (!isInterfaceTextKey(key)) return TRANSLATION_MESSAGES.unknownKey;
  if (text.trim() === '') return TRANSLATION_MESSAGES.required;
  if ([...text].length > INTERFACE_TEXT_MAX) return TRANSLATION_MESSAGES.tooLong;
  if (CONTROL.test(text)) return TRANSLATION_MESSAGES.control;
  if (HTML_TAG.test(text)) return TRANSLATION_MESSAGES.html;
  const parsed = parseMessage(text);
  if (typeof parsed === 'string') return parsed;
  if (hasTag(parsed)) return TRANSLATION_MESSAGES.html;
  const source = parse(ENGLISH[key]!, { ignoreTag: true });
  const expected = placeholdersOf(source);
  const found = placeholdersOf(parsed);
  const missing = [...expected].filter((p) => !found.has(p));
  const extra = [...found].filter((p) => !expected.has(p));
  if (missing.length || extra.length) return placeholdersMessage([...expected], missing, extra);
  return null;
}

// ---------------------------------------------------------------------------------------------------
// The staff texts pages read: a cache per process, emptied whenever what visitors see changes.

let generation = 0;
const loaded = new Map<PrefixedLanguage, { generation: number; texts: Readonly<Record<string, string>> }>();
onPublicContentChanged(() => {
  generation += 1;
});

async function storedTexts(language: PrefixedLanguage, db: Kysely<Database> = getDb()) {
  return db
    .selectFrom('interface_texts')
    .select(['key', 'text', 'source_text', 'updated_by', 'updated_at'])
    .where('language', '=', language)
    .execute();
}

/**
 * Lays the staff texts of `language` over its catalogue for the pages and mails this process
 * writes: read once, then again only after a change (from `db`, so a caller in a transaction passes it). A stored text English no longer has, or one whose English has
 * since changed its placeholders, is left out (the built-in text shows).
 */
export async function applyStaffTexts(language: PrefixedLanguage, db: Kysely<Database> = getDb()): Promise<void> {
  const current = loaded.get(language);
  if (current && current.generation === generation) return;
  const at = generation;
  const texts: Record<string, string> = {};
  for (const row of await storedTexts(language, db)) {
    if (checkInterfaceText(row.key, row.text) === null) texts[row.key] = row.text;
  }
  const frozen = Object.freeze(texts);
  loaded.set(language, { generation: at, texts: frozen });
  setStaffTexts(language, frozen);
}

/** Forgets what this process read (after a save, before the page cache's signal arrives). */
function staffTextsChanged(): void {
  generation += 1;
}

// ---------------------------------------------------------------------------------------------------
// The screen's view.

export interface Stored {
  key: string;
  text: string;
  source_text: string;
  updated_by: string | null;
  updated_at: string;
}

/**
 * One text's row: a staff text is "Edited by staff", or "Changed since translated" when the English
 * it was written against is not today's; a built-in text compares `writtenAgainst` (the snapshot,
 * app/lib/i18n/translated-from.json) with today's English; an empty one is missing.
 */
export function translationRow(
  language: PrefixedLanguage,
  key: string,
  stored: Stored | undefined,
  writtenAgainst: string | undefined = SNAPSHOT[language]?.[key],
): TranslationRow {
  const source = ENGLISH[key]!;
  const builtIn = (CATALOGUES[language] as Readonly<Record<string, string>>)[key] ?? '';
  if (stored) {
    const changed = stored.source_text !== source;
    return {
      key,
      source,
      text: stored.text,
      builtIn,
      state: changed ? 'changed' : 'staff',
      updatedBy: stored.updated_by,
      updatedAt: stored.updated_at,
      oldSource: changed ? stored.source_text : null,
    };
  }
  let state: TranslationState = 'translated';
  if (builtIn.trim() === '') state = 'missing';
  else if (writtenAgainst !== undefined && writtenAgainst !== source) state = 'changed';
  return {
    key,
    source,
    text: builtIn,
    builtIn,
    state,
    updatedBy: null,
    updatedAt: null,
    oldSource: state === 'changed' ? (writtenAgainst ?? null) : null,
  };
}

/** Every interface text of `language`, in the English catalogue's order. */
export async function listInterfaceTexts(language: PrefixedLanguage, db: Kysely<Database> = getDb()): Promise<TranslationRow[]> {
  const stored = new Map((await storedTexts(language, db)).map((row) => [row.key, row]));
  return interfaceTextKeys().map((key) => translationRow(language, key, stored.get(key)));
}

// ---------------------------------------------------------------------------------------------------
// Changes.

export function assertMayEditTranslations(actor: StaffUser): void {
  if (!can(actor.role, 'translations:edit')) throw new RuleError(TRANSLATION_MESSAGES.forbidden, 403);
}

function assertLanguage(language: string): asserts language is PrefixedLanguage {
  if (!(TRANSLATION_LANGUAGES as readonly string[]).includes(language))
    throw new RuleError(TRANSLATION_MESSAGES.unknownLanguage, 400, 'language');
}

export interface TextChange {
  language: string;
  key: string;
  text: string;
}

/** Saves one staff text (checked; audited with the old and new words). `changed` is false when it was the same. */
export async function saveInterfaceText(
  actor: StaffUser,
  change: TextChange,
  ip: string | null = null,
): Promise<{ changed: boolean }> {
  assertMayEditTranslations(actor);
  assertLanguage(change.language);
  const language = change.language;
  const text = change.text.replaceAll('\r\n', '\n');
  const problem = checkInterfaceText(change.key, text);
  if (problem) throw new RuleError(problem, change.key && isInterfaceTextKey(change.key) ? 400 : 404, 'text');
  const db = getDb();
  const changed = await db.transaction().execute(async (trx) => {
    const before = translationRow(
      language,
      change.key,
      (await trx
        .selectFrom('interface_texts')
        .select(['key', 'text', 'source_text', 'updated_by', 'updated_at'])
        .where('language', '=', language)
        .where('key', '=', change.key)
        .executeTakeFirst()) ?? undefined,
    );
    // The same words written against today's English change nothing.
    if (before.text === text && before.oldSource === null && before.state !== 'missing') return false;
    await upsert(trx, language, change.key, text, actor.email);
    await recordAudit(
      {
        actor: actor.email,
        action: 'translations.text_saved',
        target: `${language}:${change.key}`,
        detail: { language, key: change.key, from: before.text, to: text },
        ip,
      },
      trx,
    );
    return true;
  });
  if (changed) staffTextsChanged();
  return { changed };
}

async function upsert(db: Kysely<Database>, language: PrefixedLanguage, key: string, text: string, by: string): Promise<void> {
  const values = { text, source_text: ENGLISH[key]!, updated_by: by, updated_at: nowIso() };
  await db
    .insertInto('interface_texts')
    .values({ language, key, ...values })
    .onConflict((oc) => oc.columns(['language', 'key']).doUpdateSet(values))
    .execute();
}

/** Removes a staff text, so the built-in one shows again. `changed` is false when there was none. */
export async function resetInterfaceText(
  actor: StaffUser,
  change: Omit<TextChange, 'text'>,
  ip: string | null = null,
): Promise<{ changed: boolean }> {
  assertMayEditTranslations(actor);
  assertLanguage(change.language);
  const language = change.language;
  if (!isInterfaceTextKey(change.key)) throw new RuleError(TRANSLATION_MESSAGES.unknownKey, 404);
  const changed = await getDb()
    .transaction()
    .execute(async (trx) => {
      const gone = await trx
        .deleteFrom('interface_texts')
        .where('language', '=', language)
        .where('key', '=', change.key)
        .returning(['text'])
        .executeTakeFirst();
      if (!gone) return false;
      await recordAudit(
        {
          actor: actor.email,
          action: 'translations.text_reset',
          target: `${language}:${change.key}`,
          detail: { language, key: change.key, from: gone.text },
          ip,
        },
        trx,
      );
      return true;
    });
  if (changed) staffTextsChanged();
  return { changed };
}

// ---------------------------------------------------------------------------------------------------
// PO files: msgctxt the key, msgid the English source, msgstr the text ('' when missing), `#, fuzzy`
// on a text whose English has changed since it was written.

/** A language's interface texts as a PO file a translator's tool opens. */
export async function exportPo(language: PrefixedLanguage): Promise<Buffer> {
  const rows = await listInterfaceTexts(language);
  const translations: GetTextTranslations['translations'] = { '': {} };
  for (const row of rows) {
    const context = (translations[row.key] ??= {});
    context[row.source] = {
      msgctxt: row.key,
      msgid: row.source,
      msgstr: [row.state === 'missing' ? '' : row.text],
      comments: {
        ...(row.state === 'changed' ? { flag: 'fuzzy' } : {}),
        ...(row.oldSource !== null ? { previous: `msgid ${JSON.stringify(row.oldSource)}` } : {}),
        extracted: `${languageName(language)}: ${row.state === 'staff' || row.updatedBy ? 'edited by staff' : 'built-in'}`,
      },
    };
  }
  return po.compile(
    {
      charset: 'utf-8',
      headers: {
        'Project-Id-Version': 'Interface texts',
        Language: language,
        'MIME-Version': '1.0',
        'Content-Type': 'text/plain; charset=UTF-8',
        'Content-Transfer-Encoding': '8bit',
        'X-Generator': 'Translations screen',
      },
      translations,
    },
    { foldLength: 0 },
  );
}

/** An import refused: every problem found (the first IMPORT_PROBLEMS_SHOWN of them listed). */
export class ImportRefusedError extends RuleError {
  readonly problems: string[];
  constructor(message: string, problems: string[], status: 400 | 413 = 400) {
    super(message, status);
    this.problems = problems;
  }
}

function shown(problems: string[]): string[] {
  if (problems.length <= IMPORT_PROBLEMS_SHOWN) return problems;
  return [...problems.slice(0, IMPORT_PROBLEMS_SHOWN), moreProblemsMessage(problems.length - IMPORT_PROBLEMS_SHOWN)];
}

/**
 * Imports a PO file of `language`, all or nothing: a file for another language, a key the site does
 * not have, a text that is not a valid message or has other placeholders than its English, and
 * nothing is saved. Otherwise every text that differs from what the site shows is saved (one audit
 * entry with the counts); empty ones and unchanged ones are skipped.
 */
export async function importPo(
  actor: StaffUser,
  languageAsked: string,
  file: Buffer,
  ip: string | null = null,
): Promise<{ updated: number; unchanged: number; empty: number; message: string }> {
  assertMayEditTranslations(actor);
  assertLanguage(languageAsked);
  const language = languageAsked;
  let parsed: GetTextTranslations;
  try {
    parsed = po.parse(file, { defaultCharset: 'utf-8', validation: true });
  } catch {
    throw new ImportRefusedError(TRANSLATION_MESSAGES.unreadable, []);
  }
  const headerLanguage = Object.entries(parsed.headers ?? {}).find(([name]) => name.toLowerCase() === 'language')?.[1] ?? '';
  if (headerLanguage.trim().toLowerCase().split(/[-_]/)[0] !== language)
    throw new ImportRefusedError(TRANSLATION_MESSAGES.importRefused, [wrongLanguageMessage(headerLanguage.trim(), language)]);

  const problems: string[] = [];
  const wanted = new Map<string, { text: string; fuzzy: boolean }>();
  let empty = 0;
  for (const [context, entries] of Object.entries(parsed.translations)) {
    for (const entry of Object.values(entries)) {
      if (context === '' && entry.msgid === '') continue; // the header
      const key = entry.msgctxt ?? '';
      if (!isInterfaceTextKey(key)) {
        problems.push(`${key || `"${entry.msgid.slice(0, 60)}"`}: there is no interface text with this key (msgctxt).`);
        continue;
      }
      const text = (entry.msgstr[0] ?? '').replaceAll('\r\n', '\n');
      if (text === '') {
        empty += 1;
        continue;
      }
      const problem = checkInterfaceText(key, text);
      if (problem) problems.push(`${key}: ${problem}`);
      else if (wanted.has(key)) problems.push(`${key}: the file gives this key twice.`);
      else wanted.set(key, { text, fuzzy: /\bfuzzy\b/.test(entry.comments?.flag ?? '') });
    }
  }
  if (problems.length) throw new ImportRefusedError(TRANSLATION_MESSAGES.importRefused, shown(problems));

  const db = getDb();
  const result = await db.transaction().execute(async (trx) => {
    const current = new Map((await listInterfaceTexts(language, trx)).map((row) => [row.key, row]));
    let updated = 0;
    let unchanged = 0;
    for (const [key, { text, fuzzy }] of wanted) {
      const row = current.get(key)!;
      // The same words change nothing, except a text marked changed whose fuzzy flag the translator
      // removed: that confirms it for today's English. Sent back still fuzzy, it stays marked changed.
      if (row.text === text && row.state !== 'missing' && (row.state !== 'changed' || fuzzy)) {
        unchanged += 1;
        continue;
      }
      await upsert(trx, language, key, text, actor.email);
      updated += 1;
    }
    if (updated > 0)
      await recordAudit(
        {
          actor: actor.email,
          action: 'translations.imported',
          target: language,
          detail: { language, updated, unchanged, empty },
          ip,
        },
        trx,
      );
    return { updated, unchanged };
  });
  if (result.updated > 0) staffTextsChanged();
  return {
    ...result,
    empty,
    message: result.updated > 0 ? importedMessage(result.updated) : TRANSLATION_MESSAGES.nothingChanged,
  };
}

/**
 * Decision 050: the language a mail to a visitor is written in, from the one stored with what they
 * sent. Only a language the site offers now (its pages would answer 404 otherwise), else English;
 * with the texts staff corrected on the Translations screen laid over it, as the pages show them.
 * Read once, before any transaction (the corrections come from `db`); the lookup it returns is sync.
 */
export async function mailLanguages(db: Kysely<Database> = getDb()): Promise<(stored: string | null | undefined) => Language> {
  const offered = await getPublicLanguages(db);
  for (const language of offered) if (isPrefixedLanguage(language)) await applyStaffTexts(language, db);
  return (stored) => (isLanguage(stored) && offered.includes(stored) ? stored : DEFAULT_LANGUAGE);
}
