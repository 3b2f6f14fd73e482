import { describe, expect, it } from 'vitest';
import { ENGINES, useTestDatabase } from '../../../tests/support/databases';
import {
  ContentConflictError,
  ContentRuleError,
  createContent,
  deleteContent,
  getContentForAdmin,
  listContentForAdmin,
  mayEditContent,
  saveContent,
} from './content-admin.server';
import { publishDueContent, readEditorialTimeZone } from './scheduled-publishing.server';
import { createPreviewLink, openPreviewLink, PREVIEW_LINK_DAYS } from './preview-links.server';
import { onPublicContentChanged } from '../platform/public-changes.server';
import { loadArticlePage, listRelatedArticles } from './articles.server';
import { listContentPage, listUsedCategories } from './content.server';
import { searchContent } from './search.server';
import { listLatestPublished } from '../overview.server';
import { getSendableItem } from '../newsletter/newsletter-send.server';
import { listRevisions } from './revisions.server';
import type { StaffUser } from '../staff/auth.server';
import { CONTENT_MESSAGES, contentSchema, draftSchema, type ContentInput } from '../../lib/content-form';
import type { Role } from '../../lib/permissions';
import { formatInTimeZone, utcToZoned, zonedToUtc } from '../../lib/schedule';

// Issue 13: drafts, scheduled publishing, preview links and no silent overwrites, on both engines.

const IP = '198.51.100.31';
const person = (role: Role, who = role.toLowerCase()): StaffUser => ({
  id: `id-${who}`,
  name: `${who} Person`,
  email: `${who}@example.org`,
  role,
  bio: '',
  profilePicture: null,
  sessionId: 's',
});
const body = '<p>Deaf and hard-of-hearing pupils in Gulu now have a sign language interpreter in every class they attend.</p>';
const story = (title: string, overrides: Record<string, string> = {}): ContentInput =>
  contentSchema('news').parse({
    title,
    category: 'education',
    tags: 'schools',
    summary: 'Interpreters in class.',
    content: body,
    ...overrides,
  });
const inAnHour = () => new Date(Date.now() + 60 * 60_000).toISOString();

describe('schedule times in the organisation’s time zone', () => {
  it('turns a Kampala date and time into UTC and back (EAT is UTC+3, no daylight saving)', () => {
    expect(zonedToUtc('2026-12-05', '09:00', 'Africa/Kampala')).toBe('2026-12-05T06:00:00.000Z');
    expect(utcToZoned('2026-12-05T06:00:00.000Z', 'Africa/Kampala')).toEqual({ date: '2026-12-05', time: '09:00' });
    expect(formatInTimeZone('2026-12-05T06:00:00.000Z', 'Africa/Kampala')).toBe('December 5, 2026 at 9:00 AM (Africa/Kampala)');
  });

  it('follows a zone with daylight saving, and refuses dates that do not exist', () => {
    expect(zonedToUtc('2026-07-01', '12:00', 'Europe/London')).toBe('2026-07-01T11:00:00.000Z');
    expect(zonedToUtc('2026-01-15', '12:00', 'Europe/London')).toBe('2026-01-15T12:00:00.000Z');
    expect(zonedToUtc('2026-02-30', '12:00', 'Africa/Kampala')).toBeUndefined();
    expect(zonedToUtc('2026-12-05', '25:00', 'Africa/Kampala')).toBeUndefined();
    expect(zonedToUtc('05/12/2026', '09:00', 'Africa/Kampala')).toBeUndefined();
  });

  it('lets a draft be half-written but still bounds its fields', () => {
    expect(draftSchema('news').safeParse({ title: 'Only a title' }).success).toBe(true);
    expect(draftSchema('news').safeParse({ title: '' }).error?.issues[0]?.message).toBe(CONTENT_MESSAGES.titleRequired);
    expect(draftSchema('news').safeParse({ title: 'x', summary: 'y'.repeat(201) }).success).toBe(false);
    expect(draftSchema('news').safeParse({ title: 'x', category: 'not-a-category' }).success).toBe(false);
    expect(contentSchema('news').safeParse({ title: 'Only a title' }).success).toBe(false);
  });
});

describe.each(ENGINES)('drafts, schedules and preview links on %s', (engine) => {
  const database = useTestDatabase(engine);

  /** Everything a visitor can reach, by id: lists, search, categories, the article page, related, overview, newsletter. */
  async function publicSees(id: string, title: string): Promise<Record<string, boolean>> {
    const db = database().db;
    const page = await listContentPage({ collection: 'news' }, db, engine);
    const search = await searchContent({ collection: 'news', query: title, limit: 50 }, db, engine);
    const article = await loadArticlePage('news', id, db);
    const related = await listRelatedArticles({ id: 'another', collection: 'news', category: 'education' }, db);
    const latest = await listLatestPublished(db, 50);
    return {
      list: page.items.some((i) => i.id === id),
      search: search.rows.some((r) => r.id === id),
      page: article.status === 200,
      related: related.some((r) => r.id === id),
      overview: latest.some((i) => i.id === id),
      newsletter: (await getSendableItem(id, db)) !== undefined,
    };
  }
  const nowhere = { list: false, search: false, page: false, related: false, overview: false, newsletter: false };
  const everywhere = { list: true, search: true, page: true, related: true, overview: true, newsletter: true };

  it('keeps a draft off every public path until it is published, which dates it then', async () => {
    const author = person('AUTHOR', 'draft-writer');
    const draft = await createContent(author, 'news', story('Zebra crossing draft'), IP, { intent: 'draft' });
    expect(draft).toMatchObject({ status: 'draft', version: 1, action: 'content.draft_saved', scheduledAt: null });
    expect(await publicSees(draft.id, 'Zebra crossing')).toEqual(nowhere);
    // A draft's own category counts for nothing public either.
    const half = await createContent(
      author,
      'news',
      draftSchema('news').parse({ title: 'Half written', category: 'inspiration' }),
      IP,
      {
        intent: 'draft',
      },
    );
    expect(half.content).toBe('');
    expect(await listUsedCategories('news', database().db)).not.toContain('inspiration');

    const published = await saveContent(author, draft.id, story('Zebra crossing draft'), IP, { intent: 'publish' }, 1);
    expect(published).toMatchObject({ status: 'published', version: 2, action: 'content.published' });
    expect(published.createdAt).toBe(published.publishedAt);
    expect(published.createdAt > draft.createdAt).toBe(true);
    expect(await publicSees(draft.id, 'Zebra crossing')).toEqual(everywhere);

    // spec §3: an update after that keeps createdAt and publishedAt.
    const updated = await saveContent(person('EDITOR'), draft.id, story('Zebra crossing, updated'), IP, { intent: 'publish' }, 2);
    expect(updated).toMatchObject({
      action: 'content.updated',
      createdAt: published.createdAt,
      publishedAt: published.publishedAt,
    });
    const audit = await database()
      .db.selectFrom('audit_log')
      .select('action')
      .where('target', '=', draft.id)
      .orderBy('at')
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['content.draft_saved', 'content.published', 'content.updated']);
    const history = await listRevisions(draft.id, database().db);
    expect(history.map((r) => r.kind).sort()).toEqual(['draft', 'published', 'updated']);

    // Saving a form filled from a revision is a restore: a new revision of its own, never a rewrite,
    // and the audit log names the revision it came from. An unknown revision is a plain update.
    const first = history.find((r) => r.kind === 'draft')!;
    const restored = await saveContent(
      person('EDITOR'),
      draft.id,
      story('Zebra crossing draft'),
      IP,
      { intent: 'publish' },
      3,
      first.id,
    );
    expect(restored).toMatchObject({
      action: 'content.restored',
      title: 'Zebra crossing draft',
      publishedAt: published.publishedAt,
    });
    const after = await listRevisions(draft.id, database().db);
    expect(after.map((r) => r.kind)).toEqual(['restored', 'updated', 'published', 'draft']);
    const restoreAudit = await database()
      .db.selectFrom('audit_log')
      .select(['action', 'detail'])
      .where('target', '=', draft.id)
      .where('action', '=', 'content.restored')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(restoreAudit.detail)).toMatchObject({ restoredFrom: first.number });
    const plain = await saveContent(
      person('EDITOR'),
      draft.id,
      story('Zebra crossing again'),
      IP,
      { intent: 'publish' },
      4,
      'rev-unknown',
    );
    expect(plain.action).toBe('content.updated');
  });

  it('lets an AUTHOR work on their own items until published, and no one else’s', async () => {
    const author = person('AUTHOR', 'own-author');
    const other = person('AUTHOR', 'other-author');
    const mine = await createContent(author, 'news', story('Author own draft'), IP, { intent: 'draft' });
    const theirs = await createContent(other, 'news', story('Someone else draft'), IP, { intent: 'draft' });
    expect(mayEditContent(author, mine)).toBe(true);
    expect(mayEditContent(author, theirs)).toBe(false);
    expect(mayEditContent(person('EDITOR'), theirs)).toBe(true);
    expect(mayEditContent(person('VIEWER'), mine)).toBe(false);

    await expect(saveContent(author, theirs.id, story('Taken over'), IP, { intent: 'draft' })).rejects.toMatchObject({
      status: 403,
    });
    await expect(createContent(person('VIEWER'), 'news', story('Viewer draft'), IP, { intent: 'draft' })).rejects.toMatchObject({
      status: 403,
    });
    const scheduled = await saveContent(author, mine.id, story('Author own draft'), IP, {
      intent: 'schedule',
      scheduledAt: inAnHour(),
    });
    expect(scheduled.status).toBe('scheduled');
    const live = await saveContent(author, mine.id, story('Author own draft'), IP, { intent: 'publish' });
    expect(live.status).toBe('published');
    // spec §6: once published, edits are for EDITOR and above; deleting is ADMIN's, even of one's own draft.
    await expect(saveContent(author, mine.id, story('Author edits live'), IP, { intent: 'publish' })).rejects.toMatchObject({
      status: 403,
      message: CONTENT_MESSAGES.forbidden,
    });
    await expect(deleteContent(other, theirs.id, IP)).rejects.toMatchObject({ status: 403 });
    expect(
      (await listContentForAdmin({ type: 'news', limit: 50, status: 'unpublished', authorEmail: other.email })).items,
    ).toHaveLength(1);
  });

  it('never unpublishes: a published item cannot become a draft or be scheduled', async () => {
    const editor = person('EDITOR');
    const item = await createContent(editor, 'news', story('Always public'), IP);
    for (const request of [{ intent: 'draft' as const }, { intent: 'schedule' as const, scheduledAt: inAnHour() }]) {
      const refusal = saveContent(editor, item.id, story('Always public'), IP, request);
      await expect(refusal).rejects.toBeInstanceOf(ContentRuleError);
      await expect(refusal).rejects.toMatchObject({ status: 400, message: CONTENT_MESSAGES.neverUnpublished });
    }
    expect((await getContentForAdmin(item.id))!.status).toBe('published');
  });

  it('schedules, reschedules and unschedules, refusing a time in the past', async () => {
    const editor = person('EDITOR');
    await expect(
      createContent(editor, 'news', story('Past schedule'), IP, { intent: 'schedule', scheduledAt: '2020-01-01T00:00:00.000Z' }),
    ).rejects.toMatchObject({ status: 400, field: 'scheduleAt', message: CONTENT_MESSAGES.schedulePast });
    const first = inAnHour();
    const item = await createContent(editor, 'news', story('Launch of the sign language app'), IP, {
      intent: 'schedule',
      scheduledAt: first,
    });
    expect(item).toMatchObject({ status: 'scheduled', scheduledAt: first, publishedAt: first, action: 'content.scheduled' });
    expect(await publicSees(item.id, 'sign language app')).toEqual(nowhere);
    const later = new Date(Date.now() + 2 * 60 * 60_000).toISOString();
    const moved = await saveContent(editor, item.id, story('Launch of the sign language app'), IP, {
      intent: 'schedule',
      scheduledAt: later,
    });
    expect(moved).toMatchObject({ scheduledAt: later, action: 'content.rescheduled' });
    const back = await saveContent(editor, item.id, story('Launch of the sign language app'), IP, { intent: 'draft' });
    expect(back).toMatchObject({ status: 'draft', scheduledAt: null, action: 'content.unscheduled' });
    const details = await database()
      .db.selectFrom('audit_log')
      .select(['action', 'detail'])
      .where('target', '=', item.id)
      .orderBy('at')
      .execute();
    expect(details.map((d) => d.action)).toEqual(['content.scheduled', 'content.rescheduled', 'content.unscheduled']);
    expect(JSON.parse(details[1]!.detail)).toMatchObject({ from: first, to: later });
  });

  it('publishes due items exactly once, at their scheduled time, and tells the page cache', async () => {
    const editor = person('EDITOR');
    const due = await createContent(editor, 'news', story('Due on schedule'), IP, {
      intent: 'schedule',
      scheduledAt: inAnHour(),
    });
    const notYet = await createContent(editor, 'news', story('Not yet due'), IP, {
      intent: 'schedule',
      scheduledAt: new Date(Date.now() + 3 * 60 * 60_000).toISOString(),
    });
    let told = 0;
    const stop = onPublicContentChanged(() => told++);
    try {
      const later = Date.now() + 90 * 60_000;
      // Two runs at once (two processes): the one conditional UPDATE lets only one publish it.
      const [a, b] = await Promise.all([publishDueContent(later, database().db), publishDueContent(later, database().db)]);
      expect([...a, ...b].filter((id) => id === due.id)).toEqual([due.id]);
      expect(await publishDueContent(later, database().db)).toEqual([]);
      expect(told).toBe(1);
    } finally {
      stop();
    }
    const published = (await getContentForAdmin(due.id))!;
    expect(published).toMatchObject({ status: 'published', scheduledAt: null, updatedBy: null, version: 2 });
    expect(published.createdAt).toBe(due.scheduledAt);
    expect(published.publishedAt).toBe(due.scheduledAt);
    expect((await getContentForAdmin(notYet.id))!.status).toBe('scheduled');
    const entries = await database().db.selectFrom('audit_log').selectAll().where('target', '=', due.id).execute();
    expect(entries.filter((e) => e.action === 'content.published_by_schedule')).toEqual([
      expect.objectContaining({ actor_email: null }),
    ]);
    const revisions = await listRevisions(due.id, database().db);
    expect(revisions.filter((r) => r.kind === 'published')).toEqual([expect.objectContaining({ actorName: null })]);
  });

  it('answers 409 with who saved and when instead of overwriting, and overwrites when asked with the new version', async () => {
    const ann = person('EDITOR', 'ann');
    await database()
      .db.insertInto('system_users')
      .values({
        id: 'u-ann',
        name: 'Ann Editor',
        email: ann.email,
        role: 'EDITOR',
        created_at: '2026-01-01T00:00:00.000Z',
        updated_at: '2026-01-01T00:00:00.000Z',
        profile_picture: null,
        password_hash: null,
        updated_by: null,
        last_login: null,
      })
      .execute();
    const ben = person('ADMIN', 'ben');
    const item = await createContent(ben, 'news', story('Two editors'), IP, { intent: 'draft' });
    await saveContent(ann, item.id, story('Ann’s title'), IP, { intent: 'draft' }, 1);
    const lost = saveContent(ben, item.id, story('Ben’s title'), IP, { intent: 'draft' }, 1);
    await expect(lost).rejects.toBeInstanceOf(ContentConflictError);
    const error = (await lost.catch((e: unknown) => e)) as ContentConflictError;
    expect(error.status).toBe(409);
    expect(error.by).toBe('Ann Editor');
    expect(error.current).toMatchObject({ title: 'Ann’s title', version: 2 });
    expect((await getContentForAdmin(item.id))!.title).toBe('Ann’s title');
    const overwritten = await saveContent(ben, item.id, story('Ben’s title'), IP, { intent: 'draft' }, 2);
    expect(overwritten).toMatchObject({ title: 'Ben’s title', version: 3 });
  });

  it('makes preview links for unpublished items only, valid 7 days or until published (then the public page)', async () => {
    const author = person('AUTHOR', 'previewer');
    const item = await createContent(author, 'blogs', draftSchema('blogs').parse({ title: 'Preview me', content: body }), IP, {
      intent: 'draft',
    });
    await expect(createPreviewLink(person('AUTHOR', 'stranger'), item.id, IP, database().db)).rejects.toMatchObject({
      status: 403,
    });
    const link = await createPreviewLink(author, item.id, IP, database().db);
    const token = link.url.split('/preview/')[1]!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Only the hash is stored.
    const stored = await database().db.selectFrom('preview_links').selectAll().execute();
    expect(stored.map((row) => row.token_hash)).not.toContain(token);
    expect(Date.parse(link.expiresAt) - Date.now()).toBeGreaterThan((PREVIEW_LINK_DAYS * 24 - 1) * 60 * 60_000);

    const open = await openPreviewLink(token, database().db);
    expect(open).toMatchObject({ kind: 'preview', article: { title: 'Preview me' } });
    expect(await openPreviewLink(token, database().db, Date.parse(link.expiresAt) + 1)).toEqual({ kind: 'missing' });
    expect(await openPreviewLink('x'.repeat(43), database().db)).toEqual({ kind: 'missing' });

    await saveContent(
      author,
      item.id,
      contentSchema('blogs').parse({ title: 'Preview me', category: 'news', summary: 'Now live.', content: body }),
      IP,
    );
    expect(await openPreviewLink(token, database().db)).toEqual({ kind: 'published', path: `/blog/${item.id}` });
    await expect(createPreviewLink(author, item.id, IP, database().db)).rejects.toMatchObject({ status: 403 });
    await expect(createPreviewLink(person('EDITOR'), item.id, IP, database().db)).rejects.toMatchObject({
      status: 400,
      message: CONTENT_MESSAGES.previewOnlyUnpublished,
    });
    const audit = await database().db.selectFrom('audit_log').select('action').where('target', '=', item.id).execute();
    expect(audit.map((a) => a.action)).toContain('content.preview_link_created');
  });

  it('reads the time zone from Site settings, Africa/Kampala until changed', async () => {
    expect(await readEditorialTimeZone(database().db)).toBe('Africa/Kampala');
    await database()
      .db.insertInto('settings')
      .values({ key: 'site.timeZone', value: JSON.stringify('Europe/London'), updated_at: new Date().toISOString() })
      .execute();
    expect(await readEditorialTimeZone(database().db)).toBe('Europe/London');
    await database()
      .db.updateTable('settings')
      .set({ value: JSON.stringify('Not/AZone') })
      .where('key', '=', 'site.timeZone')
      .execute();
    expect(await readEditorialTimeZone(database().db)).toBe('Africa/Kampala');
    await database().db.deleteFrom('settings').where('key', '=', 'site.timeZone').execute();
  });
});
