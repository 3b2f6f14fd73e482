import { describe, expect, it } from 'vitest';
import { ENGINES, useTestDatabase } from '../../../tests/support/databases';
import { staffAs as staff } from '../../../tests/support/staff';
import { createContent, deleteContent, getContentForAdmin, saveContent } from './content-admin.server';
import { createVersion, listVersions } from './content-versions.server';
import { listPublishedVersions } from './translated.server';
import { listContentPage, listRecentContent } from './content.server';
import { loadArticlePage } from './articles.server';
import { contentSchema, type ContentInput } from '../../lib/content-form';
import { VERSION_MESSAGES } from '../../lib/content-versions';

// Issue 26, items 4 and 5: versions of an item in Luganda and Swahili (docs/decisions/031-translated-content.md).

const IP = '198.51.100.26';

const input = (overrides: Partial<Record<string, string>> = {}): ContentInput =>
  contentSchema('blogs').parse({
    title: 'Learning to sign with my daughter',
    category: 'education',
    tags: 'family, sign language',
    summary: 'A mother in Wakiso learns Ugandan Sign Language.',
    content:
      '<p>When my daughter was two, I learned that she could not hear, and our family began to learn to sign together.</p>',
    ...overrides,
  });

const luganda = input({
  title: 'Okuyiga obubonero ne muwala wange',
  summary: 'Maama e Wakiso ayiga Olulimi lw’Obubonero.',
  content:
    '<p>Muwala wange bwe yali ng’aweza emyaka ebiri, nnakitegeera nti tawulira, amaka gonna ne gatandika okuyiga obubonero.</p>',
});

describe.each(ENGINES)('content versions on %s', (engine) => {
  const database = useTestDatabase(engine, { uploads: true });
  const editor = staff('EDITOR');

  async function english(title = 'Learning to sign with my daughter') {
    return createContent(editor, 'blogs', input({ title }), IP, { intent: 'publish' });
  }

  it('adds a draft version filled with the English words, once per language, audited', async () => {
    const item = await english();
    const version = await createVersion(editor, item.id, 'lg', IP);
    expect(version).toMatchObject({
      language: 'lg',
      translationOf: item.id,
      status: 'draft',
      title: item.title,
      content: item.content,
    });
    expect(version.id).not.toBe(item.id);
    await expect(createVersion(editor, item.id, 'lg', IP)).rejects.toMatchObject({
      status: 409,
      message: VERSION_MESSAGES.exists,
    });
    const audit = await database()
      .db.selectFrom('audit_log')
      .select(['action', 'target'])
      .where('action', '=', 'content.version_created')
      .execute();
    expect(audit).toEqual([{ action: 'content.version_created', target: version.id }]);
    expect((await listVersions(item.id)).map((v) => [v.language, v.state])).toEqual([
      ['lg', 'draft'],
      ['sw', 'none'],
    ]);
  });

  it('refuses an unknown language, a missing item, a version of a version and a staff member who may not edit it', async () => {
    const item = await english();
    const before = await database().db.selectFrom('content').select('id').execute();
    await expect(createVersion(editor, item.id, 'fr', IP)).rejects.toMatchObject({
      status: 400,
      message: VERSION_MESSAGES.unknownLanguage,
    });
    await expect(createVersion(editor, 'no-such-item', 'lg', IP)).rejects.toMatchObject({
      status: 404,
      message: VERSION_MESSAGES.missingItem,
    });
    const version = await createVersion(editor, item.id, 'sw', IP);
    await expect(createVersion(editor, version.id, 'lg', IP)).rejects.toMatchObject({
      status: 400,
      message: VERSION_MESSAGES.ofVersion,
    });
    // spec §6 with issue 13: an AUTHOR edits only their own unpublished items, so adds no version of a published one.
    await expect(createVersion(staff('AUTHOR', 'someone'), item.id, 'lg', IP)).rejects.toMatchObject({ status: 403 });
    const after = await database().db.selectFrom('content').select('id').execute();
    expect(after).toHaveLength(before.length + 1);
  });

  it('publishes one version on its own: the other stays a draft and the English item and lists are unchanged', async () => {
    const item = await english('Ramps at the taxi park');
    const lg = await createVersion(editor, item.id, 'lg', IP);
    const sw = await createVersion(editor, item.id, 'sw', IP);
    await saveContent(editor, lg.id, luganda, IP, { intent: 'publish' }, lg.version);
    expect((await getContentForAdmin(lg.id))!.status).toBe('published');
    expect((await getContentForAdmin(sw.id))!.status).toBe('draft');
    const englishNow = (await getContentForAdmin(item.id))!;
    expect(englishNow).toMatchObject({ status: 'published', title: item.title, version: item.version });

    // English lists hold each item once, in English.
    const list = await listContentPage({ collection: 'blogs' }, database().db, engine);
    expect(list.items.filter((i) => i.id === item.id)).toHaveLength(1);
    expect(list.items.some((i) => i.id === lg.id || i.id === sw.id)).toBe(false);
    expect(list.items.find((i) => i.id === item.id)).toMatchObject({ title: item.title, language: 'en' });

    // Under /lg the item is its Luganda version; under /sw (draft there) it is the English one, marked.
    const inLuganda = await listRecentContent('blogs', 10, 'lg');
    expect(inLuganda.find((i) => i.id === item.id)).toMatchObject({ title: luganda.title, language: 'lg' });
    const inSwahili = await listRecentContent('blogs', 10, 'sw');
    expect(inSwahili.find((i) => i.id === item.id)).toMatchObject({ title: item.title, language: 'en' });

    // The article page: the English one links to the Luganda version only; /lg shows it; /sw falls back.
    const page = await loadArticlePage('blogs', item.id);
    expect(page.status === 200 && page.article).toMatchObject({ language: 'en', versions: ['lg'], title: item.title });
    const lgPage = await loadArticlePage('blogs', item.id, undefined, 'lg');
    expect(lgPage.status === 200 && lgPage.article).toMatchObject({ language: 'lg', title: luganda.title });
    const swPage = await loadArticlePage('blogs', item.id, undefined, 'sw');
    expect(swPage.status === 200 && swPage.article).toMatchObject({ language: 'en', title: item.title });
    // A version has no address of its own.
    expect((await loadArticlePage('blogs', lg.id, undefined, 'lg')).status).toBe(404);
    expect((await loadArticlePage('blogs', lg.id)).status).toBe(404);

    expect((await listPublishedVersions('blogs', 'lg', 10)).map((row) => row.translation_of)).toEqual([item.id]);
    expect(await listPublishedVersions('blogs', 'sw', 10)).toEqual([]);
  });

  it('searches under a language by the version’s own words, and English items without one by theirs', async () => {
    const translated = await english('Captioned lessons in Kampala');
    const untranslated = await english('Interpreters at the market');
    const lg = await createVersion(editor, translated.id, 'lg', IP);
    await saveContent(
      editor,
      lg.id,
      input({
        title: 'Ebigambo wansi mu masomo',
        content: '<p>Abayizi bakiggala mu Kampala kati basoma nga vidiyo ziriko ebigambo wansi.</p>',
      }),
      IP,
      { intent: 'publish' },
      lg.version,
    );
    const search = (query: string, language: 'en' | 'lg') =>
      listContentPage({ collection: 'blogs', query, language }, database().db, engine).then((page) =>
        page.items.map((i) => i.id),
      );
    expect(await search('vidiyo', 'lg')).toEqual([translated.id]);
    expect(await search('vidiyo', 'en')).toEqual([]);
    // The translated item is no longer found by its English words in Luganda; the untranslated one is.
    expect(await search('captioned', 'lg')).toEqual([]);
    expect(await search('interpreters', 'lg')).toEqual([untranslated.id]);
    expect(await search('captioned', 'en')).toEqual([translated.id]);
  });

  it('deletes an English item’s versions with it, and a version alone', async () => {
    const item = await english('Job hunting with low vision');
    const lg = await createVersion(editor, item.id, 'lg', IP);
    const sw = await createVersion(editor, item.id, 'sw', IP);
    await deleteContent(staff('ADMIN'), sw.id, IP);
    expect(await getContentForAdmin(sw.id)).toBeUndefined();
    expect(await getContentForAdmin(item.id)).toBeDefined();
    await deleteContent(staff('ADMIN'), item.id, IP);
    expect(await getContentForAdmin(item.id)).toBeUndefined();
    expect(await getContentForAdmin(lg.id)).toBeUndefined();
  });
});
