import { beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, useTestDatabase } from '../support/databases';
import { action } from '~/routes/admin/content-preview';
import { ensureSuperAdmin } from '~/server/demo/seed.server';
import { sanitizeArticleHtml } from '~/server/platform/sanitize.server';
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

  /** Posts `content` as the dashboard does (multipart form data), answering thrown responses too. */
  async function preview(content: string): Promise<{ status: number; body: { html?: string; error?: string }; ms: number }> {
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
      response = (await action({ request, params: {}, context: undefined } as never)) as Response;
    } catch (thrown) {
      if (!(thrown instanceof Response)) throw thrown;
      response = thrown;
    }
    const ms = performance.now() - start;
    return { status: response.status, body: (await response.json()) as { html?: string; error?: string }, ms };
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
});
