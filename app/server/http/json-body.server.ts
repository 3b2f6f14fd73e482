// Issue 25: the passkey endpoints' JSON bodies (the browser's WebAuthn answers), read with a size
// bound; anything else is a 400 or 413 with words, never a 500.

export const JSON_BODY_MAX = 16_384;

export async function readJsonBody(request: Request): Promise<Record<string, unknown>> {
  if (!(request.headers.get('content-type') ?? '').startsWith('application/json'))
    throw Response.json({ error: 'Send the request as JSON.' }, { status: 415 });
  const text = await request.text();
  if (text.length > JSON_BODY_MAX) throw Response.json({ error: 'The request is too large.' }, { status: 413 });
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // answered below
  }
  throw Response.json({ error: 'The request could not be read.' }, { status: 400 });
}
