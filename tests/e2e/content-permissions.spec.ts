import type { APIRequestContext, APIResponse } from '@playwright/test';
import {
  CONTENT_MAX_BYTES,
  CONTENT_MESSAGES,
  failedMessage,
  publishedMessage,
  type ContentType,
} from '../../app/lib/content-form';
import { CONTENT_UPLOAD_MESSAGES } from '../../app/lib/uploads';
import type { Role } from '../../app/lib/permissions';
import {
  BODY,
  contentByTitle,
  contentRow,
  cookieOf,
  formAnswerOf,
  insertContent,
  pngBytes,
  postAnnouncingSize,
  postSave,
  publish,
  type ContentRow,
} from './content-fixtures';
import { expect, test, type Fixtures } from './fixtures';
import { db, superAdmin, type Staff } from './staff';

// Issue 5, items 8 and 10: spec §6 for content, enforced by the server. Every role (and a signed-out
// visitor) against every content action: allowed means it happens and is in the database; refused
// means 403 and the database unchanged. Then the bad input of the issue: never a 500.

type Actor = Role | 'visitor';
const ACTORS: Actor[] = ['SUPER_ADMIN', 'ADMIN', 'EDITOR', 'AUTHOR', 'VIEWER', 'visitor'];

/** spec §6, written out: ADMIN creates, edits, deletes; EDITOR creates and edits; AUTHOR creates; VIEWER views the dashboard only. */
const MAY: Record<'create' | 'edit' | 'delete' | 'list', readonly Actor[]> = {
  create: ['SUPER_ADMIN', 'ADMIN', 'EDITOR', 'AUTHOR'],
  edit: ['SUPER_ADMIN', 'ADMIN', 'EDITOR'],
  delete: ['SUPER_ADMIN', 'ADMIN'],
  // Manage Content is a section of SUPER_ADMIN, ADMIN and EDITOR only.
  list: ['SUPER_ADMIN', 'ADMIN', 'EDITOR'],
};

interface Session {
  actor: Actor;
  user: Staff | null;
  request: APIRequestContext;
}

/** The actor's API client: the test's own `request` (no session) for the visitor, the real super admin for SUPER_ADMIN. */
async function sessionOf(
  actor: Actor,
  { request, staffRequest }: { request: APIRequestContext; staffRequest: Fixtures['staffRequest'] },
): Promise<Session> {
  if (actor === 'visitor') return { actor, user: null, request };
  return { actor, ...(await staffRequest(actor === 'SUPER_ADMIN' ? superAdmin() : actor)) };
}

/** The form the content form posts, as multipart. */
function form(title: string, extra: Record<string, string> = {}) {
  return {
    title,
    category: 'advocacy',
    tags: 'rights, access',
    summary: 'A summary.',
    content: BODY,
    imageUrl: '',
    imageAlt: '',
    ...extra,
  };
}

function expectPublishedBy(row: ContentRow | undefined, session: Session) {
  expect(row).toBeDefined();
  expect(row).toMatchObject({
    collection: 'news',
    author: session.user!.name,
    author_email: session.user!.email,
    author_role: session.actor,
    status: 'published',
  });
}

function expectUnchanged(before: ContentRow) {
  expect(contentRow(before.id)).toEqual(before);
}

interface Action {
  name: string;
  permission: keyof typeof MAY;
  run(session: Session, tag: string): Promise<void>;
}

/**
 * The content form's two ways into the same action: its fetcher's request with JavaScript (the
 * route's .data address, answered in React Router's own encoding) and the plain form post (an HTML page).
 */
const WAYS = [
  {
    publish: 'publish a story (the fetcher’s POST /admin/content/new/news.data)',
    update: 'update a story (the fetcher’s POST /admin/content/:id/edit.data)',
    post: (session: Session, title: string, id?: string) =>
      session.request.post(id ? `/admin/content/${id}/edit.data` : '/admin/content/new/news.data', {
        multipart: form(title),
        maxRedirects: 0,
      }),
    said: async (response: APIResponse, message: string) => expect(await response.text()).toContain(JSON.stringify(message)),
  },
  {
    publish: 'publish a story without JavaScript (POST /admin/content/new/news)',
    update: 'update a story without JavaScript (POST /admin/content/:id/edit)',
    post: (session: Session, title: string, id?: string) => postSave(session.request, 'news', form(title), id),
    said: async (response: APIResponse, message: string) => expect((await formAnswerOf(response)).message).toBe(message),
  },
];

const ACTIONS: Action[] = [
  ...WAYS.map((way): Action => ({
    name: way.publish,
    permission: 'create',
    async run(session, tag) {
      const title = `${tag} published by ${session.actor}`;
      const response = await way.post(session, title);
      if (MAY.create.includes(session.actor)) {
        expect(response.status()).toBe(200);
        await way.said(response, publishedMessage('news', 'create'));
        expectPublishedBy(contentByTitle(title), session);
      } else {
        expect(response.status()).toBe(403);
        expect(contentByTitle(title)).toBeUndefined();
      }
    },
  })),
  ...WAYS.map((way): Action => ({
    name: way.update,
    permission: 'edit',
    async run(session, tag) {
      const before = insertContent({ type: 'news', title: `${tag} to update`, author: 'Original Author' });
      const title = `${tag} updated by ${session.actor}`;
      const response = await way.post(session, title, before.id);
      if (MAY.edit.includes(session.actor)) {
        expect(response.status()).toBe(200);
        await way.said(response, publishedMessage('news', 'edit'));
        expectUpdated(before, title);
      } else {
        expect(response.status()).toBe(403);
        expectUnchanged(before);
      }
    },
  })),
  {
    name: 'delete a story (POST /admin/content/:id/delete)',
    permission: 'delete',
    async run(session, tag) {
      const before = insertContent({ type: 'news', title: `${tag} to delete` });
      const response = await session.request.post(`/admin/content/${before.id}/delete`, { maxRedirects: 0 });
      if (MAY.delete.includes(session.actor)) {
        expect(response.status()).toBe(303);
        expect(response.headers()['location']).toBe('/admin/content?type=news');
        expect(contentRow(before.id)).toBeUndefined();
      } else {
        expect(response.status()).toBe(403);
        expectUnchanged(before);
      }
    },
  },
  {
    name: 'upload an image (POST /admin/uploads/content)',
    permission: 'create',
    async run(session, tag) {
      const name = `${tag}-${session.actor}.png`;
      const response = await session.request.post('/admin/uploads/content', {
        multipart: { type: 'news', file: { name, mimeType: 'image/png', buffer: await pngBytes() } },
      });
      const stored = () =>
        db().prepare('SELECT key, uploaded_by FROM media WHERE original_name = ?').all(name) as {
          key: string;
          uploaded_by: string;
        }[];
      if (MAY.create.includes(session.actor)) {
        expect(response.status()).toBe(200);
        const { url } = (await response.json()) as { url: string };
        expect(stored()).toEqual([{ key: url.replace(/^\/media\//, ''), uploaded_by: session.user!.email }]);
        expect((await session.request.get(url)).status()).toBe(200);
      } else {
        expect(response.status()).toBe(403);
        expect(stored()).toEqual([]);
      }
    },
  },
  {
    name: 'preview a body (POST /admin/content/preview)',
    permission: 'create',
    async run(session) {
      const response = await session.request.post('/admin/content/preview', {
        multipart: {
          content:
            '<h1>Preview heading</h1><p onclick="alert(1)">Preview body<script>alert(2)</script></p><a href="javascript:alert(3)">x</a>',
        },
      });
      if (MAY.create.includes(session.actor)) {
        expect(response.status()).toBe(200);
        expect(await response.json()).toEqual({ html: '<h2>Preview heading</h2><p>Preview body</p><a>x</a>' });
      } else {
        expect(response.status()).toBe(403);
        expect(await response.text()).not.toContain('Preview body');
      }
    },
  },
  {
    name: 'read the Manage Content list (GET /admin/content?type=news)',
    permission: 'list',
    async run(session, tag) {
      const item = insertContent({ type: 'news', title: `${tag} listed item` });
      const response = await session.request.get(`/admin/content?type=news&q=${tag}`, { maxRedirects: 0 });
      const body = await response.text();
      if (MAY.list.includes(session.actor)) {
        expect(response.status()).toBe(200);
        expect(body).toContain(item.title);
      } else if (session.actor === 'visitor') {
        expect(response.status()).toBe(302);
        expect(response.headers()['location']).toMatch(/^\/admin\?redirectTo=/);
        expect(body).not.toContain(item.title);
      } else {
        expect(response.status()).toBe(403);
        expect(body).toContain(`Access Restricted - Your current role (${session.actor})`);
        expect(body).not.toContain(item.title);
        // Not even the newest seeded titles.
        const seeded = db()
          .prepare(
            "SELECT title FROM content WHERE collection = 'news' AND author_email IS NULL ORDER BY created_at DESC LIMIT 3",
          )
          .all() as { title: string }[];
        for (const { title } of seeded) expect(body).not.toContain(title);
      }
    },
  },
];

function expectUpdated(before: ContentRow, title: string) {
  const after = contentRow(before.id)!;
  expect(after.title).toBe(title);
  // spec §3: createdAt, publishedAt and the author are kept; updatedAt moves.
  expect(after).toMatchObject({ created_at: before.created_at, published_at: before.published_at, author: 'Original Author' });
  expect(after.updated_at > before.updated_at).toBe(true);
}

test.describe('who may do what with content (spec §6)', () => {
  for (const action of ACTIONS) {
    for (const actor of ACTORS) {
      const allowed = MAY[action.permission].includes(actor);
      test(`${actor} ${allowed ? 'may' : 'may not'} ${action.name}`, async ({ tag, request, staffRequest }) => {
        await action.run(await sessionOf(actor, { request, staffRequest }), tag);
      });
    }
  }
});

test.describe('bad input: a clear message, nothing stored, never a 500', () => {
  let admin: { user: Staff; request: APIRequestContext };
  // The hook shares the test's fixtures: the client is disposed, and the account removed, after each test.
  test.beforeEach(async ({ staffRequest }) => {
    admin = await staffRequest('ADMIN');
  });

  test('a forged author, role, status or date is ignored: the row has the session’s', async ({ tag, staffRequest }) => {
    const forged = {
      author: 'Forged Name',
      authorEmail: 'forged@evil.example',
      authorRole: 'SUPER_ADMIN',
      author_email: 'forged@evil.example',
      status: 'draft',
      createdAt: '2000-01-01T00:00:00.000Z',
      id: 'chosen-id',
    };
    const row = await publish(admin.request, 'news', form(`${tag} forged plainly`, forged));
    const fetched = await admin.request.post('/admin/content/new/news.data', {
      multipart: form(`${tag} forged by the fetcher`, forged),
    });
    expect(fetched.status()).toBe(200);
    for (const stored of [row, contentByTitle(`${tag} forged by the fetcher`)]) {
      expect(stored).toMatchObject({
        author: admin.user.name,
        author_email: admin.user.email,
        author_role: 'ADMIN',
        status: 'published',
      });
      expect(stored!.id).not.toBe('chosen-id');
      expect(Date.now() - Date.parse(stored!.created_at)).toBeLessThan(60_000);
    }
    // An Editor's update keeps the original author.
    const editor = await staffRequest('EDITOR');
    const response = await postSave(editor.request, 'news', form(`${tag} forged plainly, edited`, forged), row.id);
    expect(response.status()).toBe(200);
    expect(contentRow(row.id)).toMatchObject({ author: admin.user.name, author_email: admin.user.email, author_role: 'ADMIN' });
  });

  test('a category outside the type’s list is refused with 400 and its message', async ({ tag }) => {
    for (const [type, category] of [
      ['news', 'technology'],
      ['news', 'news'],
      ['blogs', 'personal-experience'],
      ['blogs', '<script>alert(1)</script>'],
    ] as [ContentType, string][]) {
      const title = `${tag} ${type} in ${category}`;
      const response = await postSave(admin.request, type, form(title, { category }));
      expect(response.status(), category).toBe(400);
      const answer = await formAnswerOf(response);
      expect(answer.message).toBe(CONTENT_MESSAGES.fixErrors);
      expect(answer.errors.category).toBe(CONTENT_MESSAGES.categoryInvalid);
      expect(contentByTitle(title)).toBeUndefined();
    }
    // An edit is checked against the item's own type, whatever the form says.
    const blog = insertContent({ type: 'blogs', title: `${tag} a blog`, category: 'technology' });
    const response = await postSave(
      admin.request,
      'news',
      form(`${tag} a blog as news`, { category: 'inspiration', type: 'news' }),
      blog.id,
    );
    expect(response.status()).toBe(400);
    expect((await formAnswerOf(response)).errors.category).toBe(CONTENT_MESSAGES.categoryInvalid);
    expectUnchanged(blog);
  });

  test('a picture no longer on file is asked for again instead of being published broken', async ({ tag }) => {
    const title = `${tag} with a removed picture`;
    const response = await postSave(
      admin.request,
      'news',
      form(title, { imageUrl: '/media/news/1700000000000_removed.webp', imageAlt: 'A picture removed since' }),
    );
    expect(response.status()).toBe(400);
    expect((await formAnswerOf(response)).errors).toEqual({ imageUrl: CONTENT_MESSAGES.imageInvalid });
    expect(contentByTitle(title)).toBeUndefined();
  });

  test('fields left out get the spec’s messages; an unknown type is refused', async ({ tag }) => {
    const response = await admin.request.post('/admin/content/new/news', { multipart: { title: `${tag} only a title` } });
    expect(response.status()).toBe(400);
    expect((await formAnswerOf(response)).errors).toEqual({
      category: CONTENT_MESSAGES.categoryRequired,
      summary: CONTENT_MESSAGES.summaryRequired,
      content: CONTENT_MESSAGES.contentRequired,
    });
    const blogs = await admin.request.post('/admin/content/new/blogs', { multipart: { title: '' } });
    expect((await formAnswerOf(blogs)).errors).toMatchObject({
      title: CONTENT_MESSAGES.titleRequired,
      summary: CONTENT_MESSAGES.excerptRequired,
    });

    for (const type of ['resources', 'profiles', 'news%00', 'NEWS']) {
      const refused = await admin.request.post(`/admin/content/new/${type}`, { multipart: form(`${tag} ${type}`) });
      expect(refused.status(), type).toBe(404);
    }
    // The JSON endpoints that once stood beside the forms are gone: the forms' own actions are the one way in.
    for (const gone of ['/admin/content/save?type=news', '/admin/session']) {
      const response = await admin.request.post(gone, { multipart: form(`${tag} through ${gone}`), maxRedirects: 0 });
      expect(response.status(), gone).toBe(404);
    }
    expect(db().prepare('SELECT count(*) AS n FROM content WHERE instr(title, ?) > 0').get(tag)).toEqual({ n: 0 });
  });

  test('a body over 1 MB is refused (400 when read, 413 when even the post is too large) and nothing is stored', async ({
    tag,
  }) => {
    const title = `${tag} too long`;
    const big = `<p>${'Long story. '.repeat(Math.ceil(CONTENT_MAX_BYTES / 12) + 10)}</p>`;
    expect(big.length).toBeGreaterThan(CONTENT_MAX_BYTES);
    const response = await postSave(admin.request, 'news', form(title, { content: big }));
    expect(response.status()).toBe(400);
    expect((await formAnswerOf(response)).errors.content).toBe(CONTENT_MESSAGES.contentTooLong);
    expect(contentByTitle(title)).toBeUndefined();

    const huge = await postSave(admin.request, 'news', form(title, { content: big.repeat(7) }));
    expect(huge.status()).toBe(413);
    expect((await formAnswerOf(huge)).message).toBe(failedMessage('news', 'create', CONTENT_MESSAGES.contentTooLong));
    expect(contentByTitle(title)).toBeUndefined();

    const preview = await admin.request.post('/admin/content/preview', { multipart: { content: big.repeat(2) } });
    expect(preview.status()).toBe(413);

    // 50 MB announced: refused from the length alone.
    const announced = await postAnnouncingSize('/admin/content/new/news', await cookieOf(admin.request), 50 * 1024 * 1024);
    expect(announced.status).toBe(413);
    expect(announced.ms).toBeLessThan(5_000);
  });

  test('an id that does not exist (or cannot) is a 404, for every way in', async () => {
    const missing = 'no-such-story-123456';
    const save = await postSave(admin.request, 'news', form('Nothing to update'), missing);
    expect(save.status()).toBe(404);
    expect(await save.text()).toContain(CONTENT_MESSAGES.notFound);
    const fetched = await admin.request.post(`/admin/content/${missing}/edit.data`, { multipart: form('Nothing') });
    expect(fetched.status()).toBe(404);
    expect((await admin.request.get(`/admin/content/${missing}/edit`)).status()).toBe(404);
    expect((await admin.request.get(`/admin/content/${missing}/delete`)).status()).toBe(404);
    for (const odd of ['..%2F..%2Fetc%2Fpasswd', 'x'.repeat(400), '%00', 'a%20b', '%F0%9F%98%80', "1'%20OR%20'1'%3D'1"]) {
      expect((await admin.request.get(`/admin/content/${odd}/edit`)).status(), odd).toBe(404);
      expect((await admin.request.post(`/admin/content/${odd}/edit`, { multipart: form('Odd') })).status(), odd).toBe(404);
    }
    // spec §8: a delete that fails reloads the list and says why.
    const deleted = await admin.request.post(`/admin/content/${missing}/delete`, { maxRedirects: 0 });
    expect(deleted.status()).toBe(303);
    expect(deleted.headers()['location']).toBe('/admin/content?type=news');
    const list = await admin.request.get('/admin/content?type=news');
    expect(list.status()).toBe(200);
    expect(await list.text()).toContain(CONTENT_MESSAGES.deleteFailed(CONTENT_MESSAGES.notFound));
  });

  test('refused uploads name the problem and store nothing', async ({ tag }) => {
    const name = `${tag}-not-really.png`;
    const response = await admin.request.post('/admin/uploads/content', {
      multipart: {
        type: 'news',
        file: { name, mimeType: 'image/png', buffer: Buffer.from('<html><script>alert(1)</script></html>') },
      },
    });
    expect(response.status()).toBe(400);
    expect(await response.json()).toEqual({ error: CONTENT_UPLOAD_MESSAGES.type });
    const wrongType = await admin.request.post('/admin/uploads/content', {
      multipart: { type: 'profiles', file: { name, mimeType: 'image/png', buffer: await pngBytes() } },
    });
    expect(wrongType.status()).toBe(400);
    expect(db().prepare('SELECT count(*) AS n FROM media WHERE original_name = ?').get(name)).toEqual({ n: 0 });
  });
});
