import type { RouterContextProvider } from 'react-router';
import { requestContext } from './request-context.server.ts';

/** The client's address as the HTTP server saw it (behind a proxy only when TRUST_PROXY is set). */
export function clientIp(context: Readonly<RouterContextProvider>): string {
  return context.get(requestContext).clientIp || 'unknown';
}

/** Reads a form body of at most `maxBytes`; larger or unsized bodies are refused with 413/411. */
export async function readForm(
  request: Request,
  maxBytes: number,
  tooLargeMessage = 'The form is too large to send.',
): Promise<FormData> {
  const length = Number(request.headers.get('content-length') ?? NaN);
  if (!Number.isFinite(length)) throw new Response('Please send the form with a known length.', { status: 411 });
  if (length > maxBytes) throw Response.json({ error: tooLargeMessage }, { status: 413 });
  try {
    return await request.formData();
  } catch {
    throw Response.json({ error: 'The form could not be read. Please try again.' }, { status: 400 });
  }
}
