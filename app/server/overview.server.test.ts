import { beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, useTestDatabase } from '../../tests/support/databases';
import type { Collection } from '../lib/collections';
import type { ContactStatus } from './db/schema';
import { getOverview, listLatestPublished } from './overview.server';
import { SETTING_KEYS, writeSetting } from './platform/settings.server';

// Issue 11: the overview shows each role what is theirs, and nothing else.

const NOW = Date.parse('2026-11-24T12:00:00.000Z');
const daysAgo = (days: number) => new Date(NOW - days * 86_400_000).toISOString();

describe.each(ENGINES)('the overview on %s', (engine) => {
  const database = useTestDatabase(engine);

  beforeAll(async () => {
    const db = database().db;
    const statuses: ContactStatus[] = ['new', 'new', 'new', 'read', 'replied', 'archived', 'spam'];
    for (const [i, status] of statuses.entries())
      await db
        .insertInto('contacts')
        .values({
          id: `c${i}`,
          name: 'N',
          email: 'n@example.org',
          phone: null,
          subject: 'S',
          message: 'M',
          created_at: daysAgo(i),
          read_at: null,
          status,
          status_changed_at: null,
          status_changed_by: null,
        })
        .execute();
    for (const [i, days] of [1, 5, 29, 31, 200].entries())
      await db
        .insertInto('newsletter_subscribers')
        .values({
          id: `s${i}`,
          email: `s${i}@example.org`,
          source: null,
          created_at: daysAgo(days),
          status: 'confirmed',
          confirmed_at: daysAgo(days),
        })
        .execute();
    // Issue 12: only confirmed subscribers count; waiting and unsubscribed addresses do not.
    await db
      .insertInto('newsletter_subscribers')
      .values([
        {
          id: 'w1',
          email: 'waiting@example.org',
          source: null,
          created_at: daysAgo(2),
          status: 'pending',
          confirm_sent_at: daysAgo(2),
        },
        {
          id: 'u1',
          email: 'left@example.org',
          source: null,
          created_at: daysAgo(3),
          status: 'unsubscribed',
          unsubscribed_at: daysAgo(1),
        },
      ])
      .execute();
    const items: [string, Collection, number][] = [
      ['old-news', 'news', 40],
      ['newest-blog', 'blogs', 1],
      ['resource', 'resources', 3],
      ['news-2', 'news', 2],
      ['blog-5', 'blogs', 5],
      ['blog-6', 'blogs', 6],
      ['blog-4', 'blogs', 4],
      ['news-7', 'news', 7],
    ];
    for (const [id, collection, days] of items)
      await db
        .insertInto('content')
        .values({
          id,
          collection,
          title: `Title ${id}`,
          summary: null,
          excerpt: null,
          content: '<p>x</p>',
          category: 'advocacy',
          author: 'Ann',
          author_email: null,
          author_role: null,
          image_url: null,
          image_alt: null,
          created_at: daysAgo(days),
          published_at: daysAgo(days),
          updated_at: daysAgo(days),
        })
        .execute();
  });

  it('lists the five newest published items across stories, news and resources', async () => {
    const latest = await listLatestPublished(database().db);
    expect(latest.map((item) => item.id)).toEqual(['newest-blog', 'news-2', 'resource', 'blog-4', 'blog-5']);
    expect(latest[2]).toEqual({
      id: 'resource',
      collection: 'resources',
      title: 'Title resource',
      author: 'Ann',
      publishedAt: daysAgo(3),
    });
  });

  it('gives each role only its own figures', async () => {
    const db = database().db;
    const full = {
      unreadMessages: 3,
      subscribers: { recent: 3, total: 5, days: 30 },
      latest: expect.arrayContaining([expect.objectContaining({ id: 'newest-blog' })]),
      // Issue 27: the events' figures, for those who manage events.
      events: { upcoming: 0, taken: 0, waiting: 0 },
    };
    expect(await getOverview('SUPER_ADMIN', db, NOW)).toEqual({ ...full, demoContent: false });
    expect(await getOverview('ADMIN', db, NOW)).toEqual(full);
    expect(await getOverview('EDITOR', db, NOW)).toEqual({ latest: full.latest, events: full.events });
    expect(await getOverview('AUTHOR', db, NOW)).toEqual({ latest: full.latest });
    expect(await getOverview('VIEWER', db, NOW)).toEqual({});
  });

  it('tells the super admin when demo content is left', async () => {
    const db = database().db;
    await db.updateTable('content').set({ demo: 1 }).where('id', '=', 'old-news').execute();
    // The demo was seeded on this database (a site started with DEMO_CONTENT=false never asks).
    await writeSetting(db, SETTING_KEYS.demoSeededAt, daysAgo(50));
    expect((await getOverview('SUPER_ADMIN', db, NOW)).demoContent).toBe(true);
    expect((await getOverview('ADMIN', db, NOW)).demoContent).toBeUndefined();
    await db.updateTable('content').set({ demo: 0 }).execute();
  });
});
