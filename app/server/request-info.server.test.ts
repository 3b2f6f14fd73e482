import { describe, expect, it } from 'vitest';
import { CLOSE_CONNECTION, DRAIN_LIMIT_BYTES, FORM_TEXTS, readForm } from './request-info.server';

// readForm's refusals: what each says, and whether the connection can carry the next request.

function post(body: string | ReadableStream<Uint8Array>, headers: Record<string, string> = {}) {
  return new Request('http://localhost/admin', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body,
    duplex: 'half',
  } as RequestInit);
}

const withLength = (body: string, length = Buffer.byteLength(body)) => post(body, { 'content-length': String(length) });

async function refusal(request: Request, maxBytes: number): Promise<Response> {
  const thrown = await readForm(request, maxBytes, 'Too big.').catch((e: unknown) => e);
  expect(thrown).toBeInstanceOf(Response);
  return thrown as Response;
}

describe('readForm', () => {
  it('reads a form within the limit', async () => {
    const form = await readForm(withLength('email=a%40example.org&password=x'), 1024);
    expect(form.get('email')).toBe('a@example.org');
  });

  it('answers 413 after reading an oversized body to its end, keeping the connection', async () => {
    const request = withLength(`note=${'x'.repeat(10_000)}`);
    const response = await refusal(request, 1024);
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: 'Too big.' });
    expect(response.headers.get('connection')).toBeNull();
    expect(request.bodyUsed).toBe(true);
  });

  it('answers 413 at once to a length beyond the drain limit, closing the connection', async () => {
    const request = withLength('note=x', DRAIN_LIMIT_BYTES + 1);
    const response = await refusal(request, 1024);
    expect(response.status).toBe(413);
    expect(response.headers.get('connection')).toBe(CLOSE_CONNECTION.Connection);
    expect(request.bodyUsed).toBe(false);
  });

  it('answers 411 to a body without a length, after reading and dropping it', async () => {
    const request = post('note=x');
    const response = await refusal(request, 1024);
    expect(response.status).toBe(411);
    expect(await response.text()).toBe(FORM_TEXTS.lengthRequired);
    expect(response.headers.get('connection')).toBeNull();
  });

  it('answers 400 to a body that does not parse as the form it claims to be', async () => {
    const body = 'not a multipart body';
    const request = post(body, { 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(body.length) });
    const response = await refusal(request, 1024);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: FORM_TEXTS.unreadable });
  });
});
