import { describe, expect, it } from 'vitest';
import { createLogger, redactPath } from './logger.server';

function capture() {
  const lines: Record<string, any>[] = [];
  const logger = createLogger('info', { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, any>) });
  return { logger, lines };
}

describe('logger', () => {
  it('keeps the message and stack of a logged error, with its cause', () => {
    const { logger, lines } = capture();
    const error = new Error('The mail server did not accept the message', {
      cause: new Error('connect ECONNREFUSED 127.0.0.1:25'),
    });
    logger.error({ err: error, outboxId: 'm1' }, 'mail failed');
    logger.error(new TypeError('cannot read properties of undefined'), 'render failed');
    expect(lines[0]!.err.message).toBe('The mail server did not accept the message: connect ECONNREFUSED 127.0.0.1:25');
    expect(lines[0]!.err.stack).toContain('Error: The mail server did not accept the message');
    expect(lines[0]!.err.stack).toContain('caused by: Error: connect ECONNREFUSED');
    expect(lines[0]!.outboxId).toBe('m1');
    expect(lines[1]!.err).toMatchObject({ type: 'TypeError', message: 'cannot read properties of undefined' });
    expect(JSON.stringify(lines)).not.toContain('[redacted]');
  });

  it('still hides passwords, cookies, tokens and bodies', () => {
    const { logger, lines } = capture();
    logger.info(
      {
        password: 'hunter2-secret',
        form: { password: 'p1-secret', newPassword: 'p2-secret', token: 't1-secret' },
        token: 't2-secret',
        headers: { cookie: 'tdg_session=c1-secret', authorization: 'Bearer a1-secret' },
        req: { headers: { cookie: 'c2-secret' } },
        message: 'a visitor wrote this-secret',
        body: 'mail body-secret',
        mail: { body: 'another body-secret' },
      },
      'something happened',
    );
    const error = Object.assign(new Error('duplicate key value violates unique constraint'), {
      detail: 'Key (email)=(someone-secret@example.org) already exists.',
    });
    logger.error({ err: error }, 'insert failed');
    const text = JSON.stringify(lines);
    expect(text).not.toContain('-secret');
    expect(lines[0]).toMatchObject({ password: '[redacted]', token: '[redacted]', msg: 'something happened' });
    expect(lines[1]!.err).toMatchObject({ message: 'duplicate key value violates unique constraint', detail: '[redacted]' });
  });

  it('cuts the token out of a reset link path and drops query strings, on any line that names a path', () => {
    expect(redactPath('/admin/reset-password/Abc_123-xyz')).toBe('/admin/reset-password/[token]');
    expect(redactPath('/admin/reset-password/Abc_123-xyz.data')).toBe('/admin/reset-password/[token]');
    expect(redactPath('/admin/reset-password/a/b?x=1')).toBe('/admin/reset-password/[token]');
    expect(redactPath('/admin/reset-password')).toBe('/admin/reset-password');
    expect(redactPath('/search?q=my+name')).toBe('/search');
    expect(redactPath('/news/some-story')).toBe('/news/some-story');

    const { logger, lines } = capture();
    logger.info({ method: 'GET', path: '/admin/reset-password/Abc_123-xyz', status: 200 }, 'request');
    logger.error({ path: '/admin/reset-password/Abc_123-xyz.data' }, 'request error');
    expect(lines.map((l) => l.path)).toEqual(['/admin/reset-password/[token]', '/admin/reset-password/[token]']);
  });

  it("cuts out a preview link's token and every secret link's token in React Router's data addresses", () => {
    const secret = 'Zx9_preview-secret';
    const paths: [string, string][] = [
      [`/preview/${secret}`, '/preview/[token]'],
      [`/preview/${secret}.data`, '/preview/[token]'],
      [`/preview/${secret}/_.data?_routes=routes%2Fpublic%2Fpreview`, '/preview/[token]'],
      [`/preview/${secret}?_data=routes%2Fpublic%2Fpreview`, '/preview/[token]'],
      [`/PREVIEW/${secret}`, '/PREVIEW/[token]'],
      [`/preview%2F${secret}`, '/preview/[token]'],
      [`/newsletter/confirm/${secret}.data`, '/newsletter/confirm/[token]'],
      [`/newsletter/unsubscribe/${secret}.data?_routes=x`, '/newsletter/unsubscribe/[token]'],
      [`/Newsletter/Unsubscribe/${secret}`, '/Newsletter/Unsubscribe/[token]'],
      [`/admin/Reset-Password/${secret}.data`, '/admin/Reset-Password/[token]'],
    ];
    for (const [path, logged] of paths) expect(redactPath(path), path).toBe(logged);
    // The staff's live preview and a newsletter's preview carry no token: their paths stay readable.
    expect(redactPath('/admin/content/preview')).toBe('/admin/content/preview');
    expect(redactPath('/admin/newsletter/abc123/preview.data')).toBe('/admin/newsletter/abc123/preview.data');

    const { logger, lines } = capture();
    logger.info({ method: 'GET', path: `/preview/${secret}.data`, status: 200 }, 'request');
    logger.error({ path: `/preview/${secret}` }, 'request error');
    expect(JSON.stringify(lines)).not.toContain(secret);
  });
});
