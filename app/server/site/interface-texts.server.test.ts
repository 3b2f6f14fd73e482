import { po } from 'gettext-parser';
import { RouterContextProvider } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { ENGINES, useTestDatabase } from '../../../tests/support/databases';
import { staffAs } from '../../../tests/support/staff';
import { EN } from '~/lib/i18n/en';
import { CATALOGUES, translator } from '~/lib/i18n/i18n';
import TRANSLATED_FROM from '~/lib/i18n/translated-from.json';
import { ROLES, type Role } from '~/lib/permissions';
import { INTERFACE_TEXT_MAX, PO_MAX_BYTES, TEXTS_PER_PAGE, TRANSLATION_MESSAGES } from '~/lib/translations';
import { action, loader } from '~/routes/admin/translations';
import { adminAccessContext } from '../http/staff-context.server';
import { publicContentChangedElsewhere } from '../platform/public-changes.server';
import { getDb } from '../db/db.server';
import {
  applyStaffTexts,
  checkInterfaceText,
  exportPo,
  importPo,
  ImportRefusedError,
  interfaceTextKeys,
  listInterfaceTexts,
  resetInterfaceText,
  saveInterfaceText,
  translationRow,
} from './interface-texts.server';

// Issue 26 item 3: staff own the words. The checks every text passes, the staff texts laid over the
// built-in catalogue on the public pages, the PO file out and back in (all or nothing), and who may.

const SUPER = staffAs('SUPER_ADMIN');
const ADMIN = staffAs('ADMIN');

async function auditActions(): Promise<string[]> {
  const rows = await getDb().selectFrom('audit_log').select('action').where('action', 'like', 'translations.%').execute();
  return rows.map((row) => row.action);
}

/** Each test starts from the built-in texts and an empty log of translation changes. */
async function clean(): Promise<void> {
  await getDb().deleteFrom('interface_texts').execute();
  await getDb().deleteFrom('audit_log').where('action', 'like', 'translations.%').execute();
  publicContentChangedElsewhere();
}

async function storedCount(): Promise<number> {
  return (await getDb().selectFrom('interface_texts').select('key').execute()).length;
}

/** A PO file of `language` whose entries give these texts (msgctxt the key). */
function poFile(language: string, texts: Record<string, string>, fuzzy: string[] = []): Buffer {
  const translations: Record<
    string,
    Record<string, { msgctxt: string; msgid: string; msgstr: string[]; comments?: { flag: string } }>
  > = {};
  for (const [key, text] of Object.entries(texts)) {
    const source = (EN as Record<string, string>)[key] ?? 'Unknown';
    translations[key] = {
      [source]: { msgctxt: key, msgid: source, msgstr: [text], ...(fuzzy.includes(key) ? { comments: { flag: 'fuzzy' } } : {}) },
    };
  }
  return po.compile({
    charset: 'utf-8',
    headers: { Language: language, 'Content-Type': 'text/plain; charset=UTF-8' },
    translations,
  });
}

describe('an interface text is checked before it is saved', () => {
  it('takes a plain text, and one with the English placeholders in another order', () => {
    expect(checkInterfaceText('nav.home', 'Awaka')).toBeNull();
    expect(checkInterfaceText('footer.rights', '{name} © {year}. Eddembe lyonna.')).toBeNull();
    expect(checkInterfaceText('list.results', '{count, plural, one {ekivudde #} other {ebivudde #}}')).toBeNull();
  });

  it('refuses what is not a valid message, in plain words', () => {
    expect(checkInterfaceText('footer.rights', '© {year {name}')).toMatch(/^The text is not a valid message \(/);
    expect(checkInterfaceText('list.results', '{count, plural, one {#}}')).toMatch(/^The text is not a valid message/);
  });

  it('refuses a placeholder missing, one the English lacks, or a plural written as a value', () => {
    expect(checkInterfaceText('footer.rights', '© {year}')).toBe(
      'Use exactly the placeholders of the English text: {year}, {name}. Missing: {name}.',
    );
    expect(checkInterfaceText('nav.home', 'Awaka {name}')).toBe(
      'Use exactly the placeholders of the English text (it has none). Not in the English: {name}.',
    );
    expect(checkInterfaceText('list.results', '{count} ebivudde')).toContain('Missing: {count, plural}.');
  });

  it('refuses HTML, control characters, an empty text, one too long and a key the site does not have', () => {
    expect(checkInterfaceText('nav.home', '<b>Awaka</b>')).toBe(TRANSLATION_MESSAGES.html);
    expect(checkInterfaceText('nav.home', 'Awa<img src=x onerror=alert(1)>ka')).toBe(TRANSLATION_MESSAGES.html);
    expect(checkInterfaceText('nav.home', 'Awa\u0000ka')).toBe(TRANSLATION_MESSAGES.control);
    expect(checkInterfaceText('nav.home', '   ')).toBe(TRANSLATION_MESSAGES.required);
    expect(checkInterfaceText('nav.home', 'a'.repeat(INTERFACE_TEXT_MAX + 1))).toBe(TRANSLATION_MESSAGES.tooLong);
    expect(checkInterfaceText('nav.home', 'a'.repeat(INTERFACE_TEXT_MAX))).toBeNull();
    expect(checkInterfaceText('no.such.key', 'Awaka')).toBe(TRANSLATION_MESSAGES.unknownKey);
    expect(checkInterfaceText('__proto__', 'Awaka')).toBe(TRANSLATION_MESSAGES.unknownKey);
  });

  it('passes every built-in Luganda and Swahili text', () => {
    for (const language of ['lg', 'sw'] as const)
      for (const [key, text] of Object.entries(CATALOGUES[language]))
        expect(checkInterfaceText(key, text), `${language} ${key}`).toBeNull();
  });
});

describe('the state of a built-in text', () => {
  it('knows the English each built-in translation was written against, for every key (run npm run i18n:snapshot)', () => {
    for (const language of ['lg', 'sw'] as const)
      expect(Object.keys(TRANSLATED_FROM[language]).sort(), language).toEqual(Object.keys(EN).sort());
  });

  it('is changed since translated when the English is not what it was written against, and missing when empty', () => {
    expect(translationRow('lg', 'nav.home', undefined, 'Home').state).toBe('translated');
    const changed = translationRow('lg', 'nav.home', undefined, 'Start');
    expect(changed).toMatchObject({ state: 'changed', oldSource: 'Start', text: CATALOGUES.lg['nav.home'] });
    const stored = {
      key: 'nav.home',
      text: 'Ewaka',
      source_text: 'Start',
      updated_by: 'a@example.org',
      updated_at: '2026-01-01T00:00:00.000Z',
    };
    expect(translationRow('lg', 'nav.home', stored).state).toBe('changed');
    expect(translationRow('lg', 'nav.home', { ...stored, source_text: 'Home' }).state).toBe('staff');
  });
});

describe.each(ENGINES)('staff texts on %s', (engine) => {
  useTestDatabase(engine);
  beforeEach(clean);

  it('shows a saved text on the pages at once, and the built-in one again after a reset; both audited', async () => {
    expect(await saveInterfaceText(SUPER, { language: 'lg', key: 'nav.home', text: 'Awaka wano' }, '203.0.113.1')).toEqual({
      changed: true,
    });
    await applyStaffTexts('lg');
    expect(translator('lg')('nav.home')).toBe('Awaka wano');
    expect(translator('sw')('nav.home')).toBe(CATALOGUES.sw['nav.home']);
    const row = (await listInterfaceTexts('lg')).find((r) => r.key === 'nav.home')!;
    expect(row).toMatchObject({ state: 'staff', text: 'Awaka wano', builtIn: CATALOGUES.lg['nav.home'], updatedBy: SUPER.email });
    // The same words again change nothing and write no audit entry.
    expect(await saveInterfaceText(SUPER, { language: 'lg', key: 'nav.home', text: 'Awaka wano' })).toEqual({ changed: false });

    expect(await resetInterfaceText(ADMIN, { language: 'lg', key: 'nav.home' })).toEqual({ changed: true });
    await applyStaffTexts('lg');
    expect(translator('lg')('nav.home')).toBe(CATALOGUES.lg['nav.home']);
    expect(await resetInterfaceText(ADMIN, { language: 'lg', key: 'nav.home' })).toEqual({ changed: false });
    expect(await auditActions()).toEqual(expect.arrayContaining(['translations.text_saved', 'translations.text_reset']));
    expect(await auditActions()).toHaveLength(2);
  });

  it('reads the staff texts once and again only after a change another process announced', async () => {
    await applyStaffTexts('sw');
    await getDb()
      .insertInto('interface_texts')
      .values({
        language: 'sw',
        key: 'nav.home',
        text: 'Mwanzo kabisa',
        source_text: EN['nav.home'],
        updated_by: null,
        updated_at: '2026-01-01T00:00:00.000Z',
      })
      .execute();
    await applyStaffTexts('sw');
    expect(translator('sw')('nav.home')).toBe(CATALOGUES.sw['nav.home']);
    publicContentChangedElsewhere();
    await applyStaffTexts('sw');
    expect(translator('sw')('nav.home')).toBe('Mwanzo kabisa');
    // A stored text whose placeholders no longer fit its English is left out: the built-in one shows.
    await getDb()
      .insertInto('interface_texts')
      .values({
        language: 'sw',
        key: 'footer.rights',
        text: '© {year}',
        source_text: '© {year}',
        updated_by: null,
        updated_at: '2026-01-01T00:00:00.000Z',
      })
      .execute();
    publicContentChangedElsewhere();
    await applyStaffTexts('sw');
    expect(translator('sw')('footer.rights', { year: 2026, name: 'TDG' })).toContain('TDG');
    await getDb().deleteFrom('interface_texts').execute();
    publicContentChangedElsewhere();
    await applyStaffTexts('sw');
  });

  it('refuses a bad text, an unknown language and an unknown key, saving nothing', async () => {
    await expect(saveInterfaceText(SUPER, { language: 'lg', key: 'footer.rights', text: '© {year}' })).rejects.toMatchObject({
      status: 400,
      field: 'text',
    });
    await expect(saveInterfaceText(SUPER, { language: 'en', key: 'nav.home', text: 'Start' })).rejects.toMatchObject({
      status: 400,
      message: TRANSLATION_MESSAGES.unknownLanguage,
    });
    await expect(saveInterfaceText(SUPER, { language: 'fr', key: 'nav.home', text: 'Accueil' })).rejects.toMatchObject({
      status: 400,
    });
    await expect(saveInterfaceText(SUPER, { language: 'lg', key: 'nav.nothing', text: 'Awaka' })).rejects.toMatchObject({
      status: 404,
    });
    expect(await storedCount()).toBe(0);
    expect(await auditActions()).toEqual([]);
  });

  it.each(ROLES.map((role) => [role, role === 'SUPER_ADMIN' || role === 'ADMIN'] as [Role, boolean]))(
    'as %s may change the translations: %s',
    async (role, may) => {
      const actor = staffAs(role);
      const save = saveInterfaceText(actor, { language: 'sw', key: 'nav.home', text: 'Nyumbani kwetu' });
      const imported = importPo(actor, 'sw', poFile('sw', { 'nav.about': 'Kutuhusu sisi' }));
      if (may) {
        await expect(save).resolves.toEqual({ changed: true });
        await expect(imported).resolves.toMatchObject({ updated: 1 });
        await expect(resetInterfaceText(actor, { language: 'sw', key: 'nav.home' })).resolves.toEqual({ changed: true });
      } else {
        await expect(save).rejects.toMatchObject({ status: 403, message: TRANSLATION_MESSAGES.forbidden });
        await expect(imported).rejects.toMatchObject({ status: 403 });
        await expect(resetInterfaceText(actor, { language: 'sw', key: 'nav.home' })).rejects.toMatchObject({ status: 403 });
        expect(await storedCount()).toBe(0);
      }
    },
  );

  it('exports a PO file a translator edits and imports back; the change shows on the pages', async () => {
    await getDb()
      .insertInto('interface_texts')
      .values({
        language: 'sw',
        key: 'nav.news',
        text: 'Habari',
        source_text: 'In the News',
        updated_by: 'x@example.org',
        updated_at: '2026-01-01T00:00:00.000Z',
      })
      .execute();
    const file = po.parse(await exportPo('sw'));
    expect(file.headers.Language).toBe('sw');
    const home = file.translations['nav.home']![EN['nav.home']]!;
    expect(home).toMatchObject({ msgctxt: 'nav.home', msgid: 'Home', msgstr: [CATALOGUES.sw['nav.home']] });
    expect(home.comments?.flag ?? '').not.toContain('fuzzy');
    // A staff text written against an older English is marked fuzzy.
    const news = file.translations['nav.news']![EN['nav.news']]!;
    expect(news).toMatchObject({ msgstr: ['Habari'], comments: { flag: 'fuzzy' } });
    expect(
      Object.keys(file.translations)
        .filter((k) => k !== '')
        .sort(),
    ).toEqual(Object.keys(EN).sort());

    home.msgstr = ['Nyumbani petu'];
    // The translator confirms the fuzzy text by removing the flag.
    delete news.comments!.flag;
    const result = await importPo(SUPER, 'sw', po.compile(file), '203.0.113.2');
    expect(result).toMatchObject({ updated: 2, message: '2 texts updated.' });
    expect(result.unchanged).toBe(Object.keys(EN).length - 2);
    publicContentChangedElsewhere();
    await applyStaffTexts('sw');
    expect(translator('sw')('nav.home')).toBe('Nyumbani petu');
    const rows = await listInterfaceTexts('sw');
    expect(rows.find((r) => r.key === 'nav.news')).toMatchObject({ state: 'staff', text: 'Habari' });
    expect(await auditActions()).toEqual(['translations.imported']);

    // The same file again changes nothing.
    expect(await importPo(SUPER, 'sw', po.compile(file))).toMatchObject({
      updated: 0,
      message: TRANSLATION_MESSAGES.nothingChanged,
    });
    await getDb().deleteFrom('interface_texts').execute();
    publicContentChangedElsewhere();
    await applyStaffTexts('sw');
  });

  it('imports all or nothing: one bad text, an unknown key or another language and nothing is saved', async () => {
    const bad = poFile('lg', {
      'nav.home': 'Awaka empya',
      'footer.rights': '© {year}',
      'nav.invented': 'Ekintu',
      'nav.about': '',
    });
    const refused = await importPo(SUPER, 'lg', bad).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ImportRefusedError);
    expect(refused).toMatchObject({ status: 400, message: TRANSLATION_MESSAGES.importRefused });
    expect((refused as ImportRefusedError).problems).toEqual([
      'footer.rights: Use exactly the placeholders of the English text: {year}, {name}. Missing: {name}.',
      'nav.invented: there is no interface text with this key (msgctxt).',
    ]);
    const other = await importPo(SUPER, 'lg', poFile('sw', { 'nav.home': 'Nyumbani' })).catch((error: unknown) => error);
    expect((other as ImportRefusedError).problems).toEqual([
      'The file is for the language "sw", not Oluganda (lg). Import it under its own language.',
    ]);
    await expect(importPo(SUPER, 'lg', Buffer.from('msgid "a\nmsgstr'))).rejects.toMatchObject({ status: 400 });
    expect(await storedCount()).toBe(0);
    expect(await auditActions()).toEqual([]);
  });

  it('lists at most the first problems of a long list', async () => {
    const texts = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`nav.made${i}`, 'x']));
    const refused = (await importPo(SUPER, 'lg', poFile('lg', texts)).catch((error: unknown) => error)) as ImportRefusedError;
    expect(refused.problems).toHaveLength(21);
    expect(refused.problems.at(-1)).toBe('…and 10 more.');
  });
});

function contextFor(role: Role) {
  const context = new RouterContextProvider();
  context.set(adminAccessContext, { current: { status: 'signed-in', user: staffAs(role) } });
  return context;
}

/** The screen's action, as the browser posts to it. */
async function post(url: string, body: FormData | string, role: Role = 'SUPER_ADMIN') {
  const request = new Request(
    `http://localhost${url}`,
    typeof body === 'string'
      ? {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(Buffer.byteLength(body)) },
          body,
        }
      : { method: 'POST', body },
  );
  if (typeof body !== 'string') {
    // Sent as a browser sends it: with its length.
    const sized = new Request(request.url, { method: 'POST', headers: request.headers, body: await request.arrayBuffer() });
    sized.headers.set('content-length', String((await sized.clone().arrayBuffer()).byteLength));
    return action({ request: sized, params: {}, context: contextFor(role) } as never);
  }
  return action({ request, params: {}, context: contextFor(role) } as never);
}

function statusOf(result: unknown): number {
  if (result instanceof Response) return result.status;
  return (result as { init?: { status?: number } }).init?.status ?? 200;
}

describe.each(ENGINES)('the Translations screen on %s', (engine) => {
  useTestDatabase(engine);
  beforeEach(clean);

  it('saves a text and answers a bad one with its message and a 400', async () => {
    const saved = await post('/admin/translations?lang=lg&do=save', 'key=nav.home&text=Awaka+ffe');
    expect(statusOf(saved)).toBe(303);
    const bad = await post('/admin/translations?lang=lg&do=save', 'key=footer.rights&text=%C2%A9');
    expect(statusOf(bad)).toBe(400);
    expect((bad as { data: { message: string } }).data.message).toContain('Missing: {year}, {name}.');
    expect(await storedCount()).toBe(1);
  });

  it('refuses an oversized PO file with 413 and a clear message, saving nothing', async () => {
    const form = new FormData();
    const big = Buffer.concat([poFile('lg', { 'nav.home': 'Awaka nnene' }), Buffer.alloc(PO_MAX_BYTES + 20_000, '#')]);
    form.set('file', new File([big], 'lg.po', { type: 'text/x-gettext-translation' }));
    const result = await post('/admin/translations?lang=lg&do=import', form);
    expect(statusOf(result)).toBe(413);
    expect((result as { data: { message: string } }).data.message).toBe(TRANSLATION_MESSAGES.tooLarge);
    expect(await storedCount()).toBe(0);
  });

  it('imports a PO file sent with the form and says how many texts changed', async () => {
    const form = new FormData();
    form.set(
      'file',
      new File([new Uint8Array(poFile('lg', { 'nav.home': 'Awaka empya', 'nav.about': CATALOGUES.lg['nav.about'] }))], 'lg.po'),
    );
    const result = await post('/admin/translations?lang=lg&do=import', form);
    expect(statusOf(result)).toBe(303);
    const flash = /tdg_flash=([^;]+)/.exec((result as Response).headers.get('set-cookie') ?? '')![1]!;
    expect(JSON.parse(Buffer.from(flash, 'base64url').toString())).toEqual({ type: 'success', message: '1 text updated.' });
    expect(await storedCount()).toBe(1);
  });

  it('lists the texts a page at a time, opens at the text being edited, and returns to its page after a save', async () => {
    const keys = interfaceTextKeys();
    const pages = Math.ceil(keys.length / TEXTS_PER_PAGE);
    expect(pages).toBeGreaterThan(2);
    const first = await show('/admin/translations?lang=lg');
    expect(first.rows.map((row) => row.key)).toEqual(keys.slice(0, TEXTS_PER_PAGE));
    expect(first).toMatchObject({ matching: keys.length, pageCount: pages, view: { page: 1 } });
    const second = await show('/admin/translations?lang=lg&page=2');
    expect(second.rows.map((row) => row.key)).toEqual(keys.slice(TEXTS_PER_PAGE, 2 * TEXTS_PER_PAGE));
    // Past the last page shows the last; what is not a page number shows the first.
    expect((await show('/admin/translations?lang=lg&page=9999')).view.page).toBe(pages);
    for (const page of ['0', '-1', '2.5', '1e3', '٣', '12345', ''])
      expect((await show(`/admin/translations?lang=lg&page=${encodeURIComponent(page)}`)).view.page).toBe(1);

    // A text on a later page, opened for editing without a page, opens on its own page.
    const index = 2 * TEXTS_PER_PAGE + 3;
    const key = keys[index]!;
    const editing = await show(`/admin/translations?lang=lg&edit=${key}`);
    expect(editing.view.page).toBe(3);
    expect(editing.rows.map((row) => row.key)).toContain(key);
    // A save from that page returns to it.
    const saved = await post(`/admin/translations?lang=lg&page=3&do=save`, `key=${key}&text=Ekigambo`);
    expect((saved as Response).headers.get('location')).toBe('/admin/translations?lang=lg&page=3');
    // A filter counts what it matches and pages within it.
    const staff = await show('/admin/translations?lang=lg&state=staff&page=2');
    expect(staff).toMatchObject({ matching: 1, pageCount: 1, view: { page: 1 } });
    expect(staff.rows.map((row) => row.key)).toEqual([key]);
  });
});

/** The screen's loader, as a browser asks for it. */
async function show(url: string) {
  return loader({ request: new Request(`http://localhost${url}`), params: {}, context: contextFor('SUPER_ADMIN') } as never);
}
