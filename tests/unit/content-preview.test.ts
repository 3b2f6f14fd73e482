import { RouterContextProvider } from 'react-router';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { staffAs } from '../support/staff';
import { ENGINES, useTestDatabase } from '../support/databases';
import { action } from '~/routes/admin/content-preview';
import { ensureSuperAdmin } from '~/server/demo/seed.server';
import { sanitizeArticleHtml } from '~/server/platform/sanitize.server';
import { HTML_BUDGET_MESSAGE, resetHtmlBudgets } from '~/server/platform/html-budget.server';
import { adminAccessContext } from '~/server/http/staff-context.server';
import type { StaffUser } from '~/server/staff/auth.server';
import { createSession, sessionCookieName } from '~/server/staff/sessions.server';
import { CONTENT_MAX_BYTES, CONTENT_MESSAGES } from '~/lib/content-form';

// The dashboard's live preview shows unsaved input, so it still sanitises, but never at a cost
// beyond one linear pass: the size is checked first, and deep nesting stops the parser early.

describe.each(ENGINES)('the content preview on %s', (engine) => {
  const database = useTestDatabase(engine);
  let cookie: string;

  beforeAll(async () => {
    await ensureSuperAdmin(database().db, { email: 'boss@example.org', password: 'boss-passphrase' });
    const user = await database().db.selectFrom('system_users').select('id').executeTakeFirstOrThrow();
    cookie = `${sessionCookieName()}=${await createSession({ userId: user.id, remember: false, ip: '203.0.113.9', userAgent: null })}`;
  });

  beforeEach(() => resetHtmlBudgets());

  /** The request's signed-in staff member, as the admin middleware leaves it. */
  function contextFor(user: StaffUser) {
    const context = new RouterContextProvider();
    context.set(adminAccessContext, { current: { status: 'signed-in', user } });
    return context;
  }

  /** Posts `content` as the dashboard does (multipart form data), answering thrown responses too. */
  async function preview(
    content: string,
    user: StaffUser = staffAs('SUPER_ADMIN', 'boss'),
  ): Promise<{ status: number; body: { html?: string; error?: string }; ms: number; retryAfter: string | null }> {
    const form = new FormData();
    form.append('content', content);
    const encoded = new Response(form);
    const bytes = Buffer.from(await encoded.arrayBuffer());
    const request = new Request('http://localhost/admin/content/preview', {
      method: 'POST',
      body: bytes,
      headers: { cookie, 'content-type': encoded.headers.get('content-type')!, 'content-length': String(bytes.length) },
    });
    const start = performance.now();
    let response: Response;
    try {
      response = (await action({ request, params: {}, context: contextFor(user) } as never)) as Response;
    } catch (thrown) {
      if (!(thrown instanceof Response)) throw thrown;
      response = thrown;
    }
    const ms = performance.now() - start;
    const body = (await response.json()) as { html?: string; error?: string };
    return { status: response.status, body, ms, retryAfter: response.headers.get('retry-after') };
  }

  it('answers with the sanitised body', async () => {
    const unsafe = '<h1>Title</h1><p onclick="x()">Text <a href="javascript:go()">link</a></p><script>alert(1)</script>';
    expect(await preview(unsafe)).toMatchObject({ status: 200, body: { html: sanitizeArticleHtml(unsafe) } });
  });

  it('refuses a body over the size limit before parsing it', async () => {
    const answer = await preview('<'.repeat(CONTENT_MAX_BYTES + 1));
    expect(answer).toMatchObject({ status: 413, body: { error: CONTENT_MESSAGES.contentTooLong } });
    expect(answer.ms).toBeLessThan(5_000);
  });

  it('answers a megabyte of deep nesting at once, with its text', { timeout: 30_000 }, async () => {
    const answer = await preview(`${'<b>'.repeat((CONTENT_MAX_BYTES - 30) / 3)}Deep words`);
    expect(answer.status).toBe(200);
    expect(answer.body.html).toMatch(/^<p>\s*Deep words<\/p>$/);
    expect(answer.ms).toBeLessThan(5_000);
  });

  it('cleans only so much for one account at a time: 25 long previews at once get one answer, and the rest wait', async () => {
    const long = `<p>${'<'.repeat(CONTENT_MAX_BYTES - 100)}</p>`;
    const answers = await Promise.all(Array.from({ length: 25 }, () => preview(long)));
    const previewed = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 429);
    expect(previewed).toHaveLength(1);
    expect(refused).toHaveLength(24);
    for (const answer of refused) {
      expect(answer.body).toEqual({ error: HTML_BUDGET_MESSAGE });
      expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
    }
    // Another account's preview is not held up by it.
    expect(await preview('<p>Another writer</p>', staffAs('AUTHOR', 'writer'))).toMatchObject({
      status: 200,
      body: { html: '<p>Another writer</p>' },
    });
  });
});
