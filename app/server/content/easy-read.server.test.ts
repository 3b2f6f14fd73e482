import { beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, useTestDatabase } from '../../../tests/support/databases';
import { staffAs } from '../../../tests/support/staff';
import { EASY_READ_MAX_CHARS, EASY_READ_MESSAGES } from '../../lib/easy-read';
import { loadContentList } from './content.server';
import { readEasyReadPage } from './easy-read.server';
import { saveContentPost } from './content-save.server';
import { getContentForAdmin } from './content-admin.server';
import { getRevision, listRevisions } from './revisions.server';
import { readArticle } from './articles.server';

const at = (day: number) => new Date(Date.UTC(2026, 0, day)).toISOString();
const body = '<p>Deaf students in Kampala now follow every recorded lesson with captions and interpreters.</p>';

describe.each(ENGINES)('easy read on %s', (engine) => {
  const database = useTestDatabase(engine);

  beforeAll(async () => {
    const row = (id: string, day: number, extra: Record<string, unknown> = {}) => ({
      id,
      collection: 'blogs' as const,
      title: `Story ${id}`,
      summary: null,
      excerpt: `Summary ${id}.`,
      content: `<p>Body ${id}</p>`,
      search_text: `Body ${id} zebra`,
      category: 'education',
      author: 'Test Author',
      status: 'published' as 'published' | 'draft',
      easy_read: null as string | null,
      created_at: at(day),
      published_at: at(day),
      updated_at: at(day),
      ...extra,
    });
    await database()
      .db.insertInto('content')
      .values([
        row('plain-one', 1),
        row('easy-one', 2, { easy_read: 'We help Deaf children learn.\n\n- Signs\n- Captions' }),
        row('plain-two', 3),
        row('easy-two', 4, { easy_read: 'Come and learn signs.' }),
        row('easy-draft', 5, { easy_read: 'Not public yet.', status: 'draft' }),
      ])
      .execute();
    await database()
      .db.insertInto('services')
      .values([
        {
          id: 'with-easy',
          title: 'Training',
          description: 'D',
          features: '[]',
          position: 0,
          easy_read: 'We train you.',
          created_at: at(1),
          updated_at: at(1),
        },
        {
          id: 'without',
          title: 'Talks',
          description: 'D',
          features: '[]',
          position: 1,
          easy_read: null,
          created_at: at(1),
          updated_at: at(1),
        },
      ])
      .execute();
    await database()
      .db.insertInto('service_translations')
      .values({
        service_id: 'with-easy',
        language: 'lg',
        title: 'Okutendeka',
        description: 'D',
        easy_read: 'Tukutendeka.',
        status: 'published',
        created_at: at(1),
        updated_at: at(1),
      })
      .execute();
  });

  const list = (search: string) => loadContentList('blogs', new URL(`http://x/blog${search}`), database().db, engine);

  it('filters a list to the published items that have an easy read (?easy=1), with search and without', async () => {
    const all = await list('');
    expect(all.data.easyRead).toBe(false);
    expect(all.data.list.items.map((i) => i.id)).toEqual(['easy-two', 'plain-two', 'easy-one', 'plain-one']);
    const easy = await list('?easy=1');
    expect(easy.data.easyRead).toBe(true);
    expect(easy.data.list.items.map((i) => i.id)).toEqual(['easy-two', 'easy-one']);
    expect(easy.data.list.total).toBe(2);
    const searched = await list('?easy=1&q=easy-one');
    expect(searched.data.list.items.map((i) => i.id)).toEqual(['easy-one']);
    // Only "1" turns it on; anything else is the whole list.
    expect((await list('?easy=yes')).data.list.total).toBe(4);
  });

  it('reads the easy-read page of a published item and a service, and nothing else', async () => {
    const db = database().db;
    expect(await readEasyReadPage({ kind: 'content', collection: 'blogs', id: 'easy-one' }, 'en', db)).toEqual({
      title: 'Story easy-one',
      text: 'We help Deaf children learn.\n\n- Signs\n- Captions',
      textLanguage: 'en',
      fullPath: '/blog/easy-one',
    });
    expect(await readEasyReadPage({ kind: 'content', collection: 'news', id: 'easy-one' }, 'en', db)).toBeUndefined();
    expect(await readEasyReadPage({ kind: 'content', collection: 'blogs', id: 'plain-one' }, 'en', db)).toBeUndefined();
    expect(await readEasyReadPage({ kind: 'content', collection: 'blogs', id: 'easy-draft' }, 'en', db)).toBeUndefined();
    expect(await readEasyReadPage({ kind: 'content', collection: 'blogs', id: '../x' }, 'en', db)).toBeUndefined();
    expect(await readEasyReadPage({ kind: 'service', id: 'with-easy' }, 'en', db)).toMatchObject({
      text: 'We train you.',
      fullPath: '/services/with-easy',
    });
    // A published Luganda version shows its own; Swahili has none, so the English one shows.
    expect(await readEasyReadPage({ kind: 'service', id: 'with-easy' }, 'lg', db)).toMatchObject({
      title: 'Okutendeka',
      text: 'Tukutendeka.',
      textLanguage: 'lg',
    });
    expect(await readEasyReadPage({ kind: 'service', id: 'with-easy' }, 'sw', db)).toMatchObject({ textLanguage: 'en' });
    expect(await readEasyReadPage({ kind: 'service', id: 'without' }, 'en', db)).toBeUndefined();
  });

  it('tells the article page whether to offer the easy read', async () => {
    expect((await readArticle('blogs', 'easy-one', database().db))?.article.easyRead).toBe(true);
    expect((await readArticle('blogs', 'plain-one', database().db))?.article.easyRead).toBe(false);
    const draft = await readArticle('blogs', 'easy-draft', database().db, { includeUnpublished: true });
    expect(draft?.article.easyRead).toBe(false);
  });

  it('saves the easy read through the content form, keeps it in the revision, and refuses one over the cap', async () => {
    const editor = staffAs('EDITOR');
    const post = (values: Record<string, string>) => ({
      ok: true as const,
      values: {
        imageFile: undefined,
        captionsFile: undefined,
        title: 'Captioned lessons',
        category: 'education',
        tags: '',
        summary: 'Lessons.',
        content: body,
        ...values,
      },
    });
    const saved = await saveContentPost(
      post({ easyRead: 'We show captions.\r\n\r\n- In class' }),
      editor,
      { mode: 'create', type: 'news' },
      '203.0.113.9',
    );
    if (!saved.ok) throw new Error(saved.message);
    const stored = await getContentForAdmin(saved.item.id);
    expect(stored?.easyRead).toBe('We show captions.\n\n- In class');
    const [revision] = await listRevisions(saved.item.id);
    expect((await getRevision(saved.item.id, revision!.id))?.snapshot.easyRead).toBe('We show captions.\n\n- In class');

    const tooLong = Array.from({ length: 401 }, () => 'word').join(' ');
    const refused = await saveContentPost(
      post({ easyRead: tooLong, version: String(stored!.version) }),
      editor,
      { mode: 'edit', type: 'news', id: saved.item.id },
      '203.0.113.9',
    );
    expect(refused).toMatchObject({ ok: false, status: 400, errors: { easyRead: EASY_READ_MESSAGES.tooManyWords(401) } });
    expect((await getContentForAdmin(saved.item.id))?.easyRead).toBe('We show captions.\n\n- In class');

    // Emptied, it is no easy read at all.
    const emptied = await saveContentPost(
      post({ easyRead: '  ', version: String(stored!.version) }),
      editor,
      { mode: 'edit', type: 'news', id: saved.item.id },
      '203.0.113.9',
    );
    expect(emptied.ok).toBe(true);
    const row = await database().db.selectFrom('content').select('easy_read').where('id', '=', saved.item.id).executeTakeFirst();
    expect(row?.easy_read).toBeNull();
  });

  it('shows a refused form its whole easy read, and a pasted document cut at twice its cap', async () => {
    const refusedWith = async (values: Record<string, string>) => {
      const answer = await saveContentPost(
        {
          ok: true,
          values: {
            imageFile: undefined,
            captionsFile: undefined,
            title: '',
            category: 'education',
            tags: '',
            summary: 'Lessons.',
            content: body,
            ...values,
          },
        },
        staffAs('EDITOR'),
        { mode: 'create', type: 'news' },
        '203.0.113.9',
      );
      if (answer.ok) throw new Error('saved without a title');
      return answer.values;
    };
    // Within its caps (400 words and 8,000 characters), longer than the short fields' echo.
    const easyRead = Array.from({ length: 350 }, (_, i) => `Captioned${String(i).padStart(10, '0')}`).join(' ');
    expect(easyRead.length).toBeGreaterThan(6_000);
    expect(easyRead.length).toBeLessThanOrEqual(EASY_READ_MAX_CHARS);
    expect((await refusedWith({ easyRead })).easyRead).toBe(easyRead);
    // A megabyte pasted into it comes back at twice its cap, to be shortened.
    expect((await refusedWith({ easyRead: 'x'.repeat(1_000_000) })).easyRead).toHaveLength(EASY_READ_MAX_CHARS * 2);
  });
});
