import { describe, expect, it } from 'vitest';
import { ENGINES, createTestDatabase, useTestDatabase } from '../../../tests/support/databases';
import { createMigrator, migrateToLatest } from '../db/migrations.server';
import {
  discardAutosave,
  getAutosave,
  getRevision,
  listRevisions,
  pruneStaleAutosaves,
  recordRevision,
  revisionForRestore,
  saveAutosave,
  AUTOSAVE_KEPT_DAYS,
  type RevisionSnapshot,
} from './revisions.server';
import { REVISIONS_KEPT, type AutosaveValues } from '../../lib/revisions';

const grace = { email: 'grace@example.org', name: 'Nakato Grace' };
const peter = { email: 'peter@example.org', name: 'Okello Peter' };

const snapshot = (overrides: Partial<RevisionSnapshot> = {}): RevisionSnapshot => ({
  title: 'Captioned lessons',
  category: 'education',
  tags: ['captions'],
  summary: 'Lessons with captions.',
  imageUrl: null,
  imageAlt: '',
  content: '<p>Deaf students in Kampala now follow every recorded lesson with captions.</p>',
  status: 'published',
  scheduledAt: null,
  ...overrides,
});

const values = (title: string): AutosaveValues => ({
  title,
  category: 'education',
  tags: 'captions',
  summary: 'Lessons with captions.',
  imageUrl: '',
  imageAlt: '',
  content: '<p>Typed but not saved.</p>',
  easyRead: 'Deaf students now see captions.',
});

describe.each(ENGINES)('revisions on %s', (engine) => {
  const database = useTestDatabase(engine);

  async function addItem(id: string, collection: 'news' | 'blogs' = 'news') {
    const now = new Date().toISOString();
    await database()
      .db.insertInto('content')
      .values({
        id,
        collection,
        title: 'Captioned lessons',
        summary: collection === 'news' ? 'Lessons with captions.' : null,
        excerpt: collection === 'blogs' ? 'Lessons with captions.' : null,
        content: '<p>Deaf students in Kampala now follow every recorded lesson with captions.</p>',
        category: 'education',
        author: grace.name,
        author_email: grace.email,
        status: 'published',
        created_at: now,
        published_at: now,
        updated_at: now,
      })
      .execute();
  }

  it('keeps every save as a snapshot, newest first, with who saved it; history is never rewritten', async () => {
    await addItem('history-1');
    const { db } = database();
    await db.transaction().execute(async (trx) => {
      await recordRevision(trx, { contentId: 'history-1', kind: 'published', actor: grace, snapshot: snapshot() });
    });
    await recordRevision(db, { contentId: 'history-1', kind: 'updated', actor: peter, snapshot: snapshot({ title: 'Second' }) });
    await recordRevision(db, { contentId: 'history-1', kind: 'published', actor: null, snapshot: snapshot({ title: 'Third' }) });

    const list = await listRevisions('history-1');
    expect(list.map((r) => [r.number, r.kind, r.actorName, r.actorEmail])).toEqual([
      [3, 'published', null, null],
      [2, 'updated', peter.name, peter.email],
      [1, 'published', grace.name, grace.email],
    ]);
    const second = await getRevision('history-1', list[1]!.id);
    expect(second?.snapshot).toEqual(snapshot({ title: 'Second' }));
    // A revision is only found through its own item.
    await addItem('history-other');
    expect(await getRevision('history-other', list[1]!.id)).toBeUndefined();
    expect(await getRevision('history-1', 'not-an-id')).toBeUndefined();
  });

  it('keeps the description of the video a save had, and knows a revision saved before videos were recorded', async () => {
    await addItem('with-video');
    const { db } = database();
    const video = { id: '0b4a9c1e-1111-4a2b-8c3d-123456789abc', name: 'Our club.mp4', durationSeconds: 95.2, captions: true };
    await recordRevision(db, { contentId: 'with-video', kind: 'published', actor: grace, snapshot: snapshot({ video }) });
    await recordRevision(db, { contentId: 'with-video', kind: 'updated', actor: grace, snapshot: snapshot({ video: null }) });
    await recordRevision(db, { contentId: 'with-video', kind: 'updated', actor: grace, snapshot: snapshot() });
    const [older, none, withIt] = await Promise.all(
      (await listRevisions('with-video')).map(async (r) => (await getRevision('with-video', r.id))!.snapshot),
    );
    expect(withIt!.video).toEqual(video);
    expect(none!.video).toBeNull();
    expect(older).not.toHaveProperty('video');
  });

  it(`keeps the newest ${REVISIONS_KEPT} and the first`, async () => {
    await addItem('capped');
    const { db } = database();
    for (let i = 1; i <= REVISIONS_KEPT + 10; i++)
      await recordRevision(db, {
        contentId: 'capped',
        kind: i === 1 ? 'published' : 'updated',
        actor: grace,
        snapshot: snapshot({ title: `Version ${i}` }),
      });
    const list = await listRevisions('capped');
    expect(list).toHaveLength(REVISIONS_KEPT + 1);
    expect(list[0]!.number).toBe(REVISIONS_KEPT + 10);
    expect(list.at(-2)!.number).toBe(11);
    expect(list.at(-1)!.number).toBe(1);
    expect((await getRevision('capped', list.at(-1)!.id))?.snapshot.title).toBe('Version 1');
  });

  it('keeps one autosave slot per staff member and item, emptied by their next save', async () => {
    await addItem('autosaved');
    const { db } = database();
    await saveAutosave(grace.email, { contentId: 'autosaved' }, values('First typing'));
    await saveAutosave(grace.email, { contentId: 'autosaved' }, values('Second typing'));
    await saveAutosave(peter.email, { contentId: 'autosaved' }, values('Peter typing'));
    const slots = await db.selectFrom('content_autosaves').selectAll().where('content_id', '=', 'autosaved').execute();
    expect(slots).toHaveLength(2);
    expect((await getAutosave(grace.email, 'autosaved'))?.values.title).toBe('Second typing');
    // The contract's 'autosave' kind writes the same slot, never a revision.
    await recordRevision(db, {
      contentId: 'autosaved',
      kind: 'autosave',
      actor: grace,
      snapshot: snapshot({ title: 'From the form' }),
    });
    expect((await getAutosave(grace.email, 'autosaved'))?.values.title).toBe('From the form');
    expect(await listRevisions('autosaved')).toEqual([]);

    await recordRevision(db, { contentId: 'autosaved', kind: 'updated', actor: grace, snapshot: snapshot() });
    expect(await getAutosave(grace.email, 'autosaved')).toBeUndefined();
    expect((await getAutosave(peter.email, 'autosaved'))?.values.title).toBe('Peter typing');
    await discardAutosave(peter.email, 'autosaved');
    expect(await getAutosave(peter.email, 'autosaved')).toBeUndefined();
  });

  it('forgets slots nobody came back to for a month, and keeps the rest', async () => {
    await saveAutosave(grace.email, { newType: 'news' }, values('Left long ago'));
    await saveAutosave(peter.email, { newType: 'news' }, values('Still typing'));
    const monthAgo = new Date(Date.now() - (AUTOSAVE_KEPT_DAYS + 1) * 86_400_000).toISOString();
    await database()
      .db.updateTable('content_autosaves')
      .set({ saved_at: monthAgo })
      .where('staff_email', '=', grace.email)
      .execute();
    await pruneStaleAutosaves(database().db);
    expect(await getAutosave(grace.email, 'new-news')).toBeUndefined();
    expect((await getAutosave(peter.email, 'new-news'))?.values.title).toBe('Still typing');
  });

  it("empties a new item's slot when that item is first saved", async () => {
    await saveAutosave(grace.email, { newType: 'blogs' }, values('A new blog'));
    expect((await getAutosave(grace.email, 'new-blogs'))?.values.title).toBe('A new blog');
    await addItem('new-blog-saved', 'blogs');
    await recordRevision(database().db, { contentId: 'new-blog-saved', kind: 'draft', actor: grace, snapshot: snapshot() });
    expect(await getAutosave(grace.email, 'new-blogs')).toBeUndefined();
  });

  it('removes revisions and autosave slots with their item', async () => {
    await addItem('goes');
    const { db } = database();
    await recordRevision(db, { contentId: 'goes', kind: 'published', actor: grace, snapshot: snapshot() });
    await saveAutosave(peter.email, { contentId: 'goes' }, values('Peter typing'));
    await db.deleteFrom('content').where('id', '=', 'goes').execute();
    expect(await listRevisions('goes')).toEqual([]);
    expect(await getAutosave(peter.email, 'goes')).toBeUndefined();
  });

  it('restores a version whose uploaded image is gone without the image, and says so', async () => {
    await addItem('pictured');
    const { db } = database();
    await recordRevision(db, {
      contentId: 'pictured',
      kind: 'published',
      actor: grace,
      snapshot: snapshot({ imageUrl: '/media/news/1_gone.webp', imageAlt: 'A classroom' }),
    });
    await recordRevision(db, {
      contentId: 'pictured',
      kind: 'updated',
      actor: grace,
      snapshot: snapshot({ imageUrl: '/images/hero.webp', imageAlt: 'Hero' }),
    });
    const [kept, gone] = await listRevisions('pictured');
    const restoredGone = await revisionForRestore('pictured', gone!.id);
    expect(restoredGone?.imageGone).toBe(true);
    expect(restoredGone?.values).toMatchObject({ imageUrl: '', imageAlt: '', title: 'Captioned lessons', tags: 'captions' });
    // An address that is not an upload (the site's own pictures) is never "gone".
    const restoredKept = await revisionForRestore('pictured', kept!.id);
    expect(restoredKept).toMatchObject({ imageGone: false, values: { imageUrl: '/images/hero.webp', imageAlt: 'Hero' } });
  });
});

describe.each(ENGINES)('migration 0009 on %s', (engine) => {
  it('starts the history of every story and news item with the version it has', async () => {
    const database = await createTestDatabase(engine, { migrate: false });
    try {
      const migrator = await createMigrator(database.db, database.engine);
      const before = await migrator.migrateTo('0008_editorial_states');
      expect(before.error).toBeUndefined();
      const row = {
        category: 'education',
        content: '<p>Body</p>',
        author: grace.name,
        author_email: grace.email,
        tags: '["captions"]',
        status: 'published' as const,
        created_at: '2026-01-01T00:00:00.000Z',
        published_at: '2026-01-01T00:00:00.000Z',
      };
      await database.db
        .insertInto('content')
        .values([
          {
            ...row,
            id: 'never-edited',
            collection: 'blogs',
            title: 'Never edited',
            excerpt: 'An excerpt',
            updated_at: row.published_at,
          },
          {
            ...row,
            id: 'edited',
            collection: 'news',
            title: 'Edited',
            summary: 'A summary',
            updated_at: '2026-02-01T00:00:00.000Z',
          },
          {
            ...row,
            id: 'a-resource',
            collection: 'resources',
            title: 'A resource',
            summary: 'A guide',
            updated_at: row.published_at,
          },
        ])
        .execute();
      await migrateToLatest(database.db, database.engine);
      const rows = await database.db.selectFrom('content_revisions').selectAll().orderBy('content_id').execute();
      expect(rows.map((r) => [r.content_id, Number(r.number), r.kind, r.actor_email, r.created_at])).toEqual([
        ['edited', 1, 'updated', null, '2026-02-01T00:00:00.000Z'],
        ['never-edited', 1, 'published', grace.email, '2026-01-01T00:00:00.000Z'],
      ]);
      expect(JSON.parse(rows[1]!.snapshot)).toMatchObject({ title: 'Never edited', summary: 'An excerpt', tags: ['captions'] });
      expect(JSON.parse(rows[0]!.snapshot)).toMatchObject({ summary: 'A summary', status: 'published', scheduledAt: null });
    } finally {
      await database.drop();
    }
  });
});
