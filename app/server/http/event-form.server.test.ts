import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { captureLogLines } from '../../../tests/support/log-lines';
import { ENGINES, useTestDatabase } from '../../../tests/support/databases';
import { formPost } from '../../../tests/support/requests';
import { EVENT_TEXT, eventFormSchema, REGISTRATION_RATE_LIMIT } from '~/lib/events';
import type { StaffUser } from '../staff/auth.server';
import { createEvent, eventColumns } from '../events/events.server';
import sharp from 'sharp';
import { isStoredImage } from '../media/media.server';
import { saveEventForm, submitRegistration } from './event-form.server';

// Issue 27: the registration form has the contact form's protections: a honeypot, the per-address
// limit, a size cap, neutral errors, and logs without the person's name or address.

const VALID = { name: 'Nakato Grace', email: 'grace@example.org', phone: '', accessNeeds: 'An interpreter', website: '' };
const admin: StaffUser = {
  id: 'a',
  name: 'Admin',
  email: 'admin@example.org',
  role: 'ADMIN',
  bio: '',
  profilePicture: null,
  sessionId: 's',
};

const logLines = captureLogLines();

/** The staff form as the browser posts it without JavaScript (multipart, with a Content-Length). */
async function eventPost(fields: Record<string, string>, file?: { name: string; bytes: Uint8Array }): Promise<Request> {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  if (file) form.append('imageFile', new File([new Uint8Array(file.bytes)], file.name, { type: 'image/png' }));
  const built = new Request('http://localhost/admin/events/new', { method: 'POST', body: form });
  const type = built.headers.get('content-type')!;
  const body = new Uint8Array(await built.arrayBuffer());
  return new Request('http://localhost/admin/events/new', {
    method: 'POST',
    headers: { 'content-type': type, 'content-length': String(body.byteLength) },
    body,
  });
}

describe.each(ENGINES)('the staff event form on %s', (engine) => {
  useTestDatabase(engine, { uploads: true });
  const day = new Date(Date.now() + 12 * 86_400_000).toISOString().slice(0, 10);
  const fields = {
    intent: 'publish',
    title: 'Sign language for teachers',
    summary: 'Classroom signs.',
    description: '<p>Classroom signs.</p>',
    startDate: day,
    startTime: '09:00',
    endDate: day,
    endTime: '12:00',
    place: 'Mukono',
    onlineUrl: '',
    capacity: '12',
    registrationOpen: 'on',
    imageUrl: '',
    imageAlt: '',
  };

  it('keeps a picture sent without JavaScript, asks for its description, then saves', async () => {
    const png = await sharp({ create: { width: 640, height: 360, channels: 3, background: '#1e3a8a' } })
      .png()
      .toBuffer();
    const missingAlt = await saveEventForm(
      await eventPost(fields, { name: 'class.png', bytes: png }),
      admin,
      { mode: 'create' },
      '127.0.0.1',
    );
    if (missingAlt.ok) throw new Error('expected a failure');
    expect(missingAlt.status).toBe(400);
    expect(missingAlt.failure.errors.imageAlt).toBe(EVENT_TEXT.altRequired);
    const kept = missingAlt.failure.values.imageUrl!;
    expect(kept).toMatch(/^\/media\/events\//);
    expect(await isStoredImage(kept)).toBe(true);
    const saved = await saveEventForm(
      await eventPost({ ...fields, imageUrl: kept, imageAlt: 'A teacher signing' }),
      admin,
      { mode: 'create' },
      '127.0.0.1',
    );
    expect(saved).toMatchObject({ ok: true, event: { imageUrl: kept, capacity: 12, status: 'published' } });
  });

  it('words what is wrong: missing title, end before start, a link that is not a web address', async () => {
    const answer = await saveEventForm(
      await eventPost({ ...fields, title: '', endTime: '08:00', onlineUrl: 'javascript:alert(1)' }),
      admin,
      { mode: 'create' },
      '127.0.0.1',
    );
    if (answer.ok) throw new Error('expected a failure');
    expect(answer.status).toBe(400);
    expect(answer.failure.errors).toMatchObject({ title: EVENT_TEXT.titleRequired, onlineUrl: EVENT_TEXT.onlineUrlInvalid });
    const times = await saveEventForm(await eventPost({ ...fields, endTime: '08:00' }), admin, { mode: 'create' }, '127.0.0.1');
    if (times.ok) throw new Error('expected a failure');
    expect(times.failure.errors.endDate).toBe(EVENT_TEXT.endBeforeStart);
  });

  it('refuses an author who publishes (403) and saves the author’s draft', async () => {
    const author = { ...admin, role: 'AUTHOR' as const, email: 'author@example.org' };
    const refused = await saveEventForm(await eventPost(fields), author, { mode: 'create' }, '127.0.0.1');
    expect(refused).toMatchObject({ ok: false, status: 403 });
    const draft = await saveEventForm(await eventPost({ ...fields, intent: 'draft' }), author, { mode: 'create' }, '127.0.0.1');
    expect(draft).toMatchObject({ ok: true, event: { status: 'draft', authorEmail: 'author@example.org' } });
  });
});

describe.each(ENGINES)('the registration form on %s', (engine) => {
  const database = useTestDatabase(engine);
  let slug = '';
  const submit = (fields: Record<string, string>, clientIp = '203.0.113.9') =>
    submitRegistration({ request: formPost(`http://localhost/events/${slug}`, fields), clientIp, slug });

  beforeAll(async () => {
    const day = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
    const input = eventFormSchema.parse({
      intent: 'publish',
      title: 'Form protections',
      summary: 'An event.',
      description: '<p>An event.</p>',
      startDate: day,
      startTime: '09:00',
      endDate: day,
      endTime: '10:00',
      place: 'Kampala',
      capacity: '100',
      registrationOpen: 'on',
    });
    const columns = eventColumns(input, 'Africa/Kampala');
    if (!columns.ok) throw new Error('invalid');
    slug = (await createEvent(admin, columns.columns, 'publish', '127.0.0.1')).slug;
  });

  beforeEach(async () => {
    await database().db.deleteFrom('rate_limits').execute();
    logLines.length = 0;
  });

  it('registers a person, and logs neither their name nor their address', async () => {
    const answer = await submit(VALID);
    expect(answer.status).toBe(200);
    expect(answer.result).toMatchObject({ status: 'registered', place: 'confirmed', mailed: true, cancelUrl: null });
    expect(logLines.join('')).not.toMatch(/grace@example\.org|Nakato/);
  });

  it('keeps the language of the page a registration was made on, for its mails and links', async () => {
    const answer = await submitRegistration({
      request: formPost(`http://localhost/sw/events/${slug}`, { ...VALID, email: '', phone: '0772 111222' }),
      clientIp: '203.0.113.12',
      slug,
    });
    expect(answer.result).toMatchObject({ status: 'registered', cancelUrl: expect.stringContaining('/sw/events/cancel/') });
    const row = await database()
      .db.selectFrom('event_registrations')
      .select('language')
      .where('phone', '=', '0772 111222')
      .executeTakeFirstOrThrow();
    expect(row.language).toBe('sw');
    await submit({ ...VALID, email: 'english@example.org' });
    const english = await database()
      .db.selectFrom('event_registrations')
      .select('language')
      .where('email', '=', 'english@example.org')
      .executeTakeFirstOrThrow();
    expect(english.language).toBe('en');
  });

  it('turns away a filled honeypot and a missing one, storing nothing', async () => {
    expect((await submit({ ...VALID, email: 'bot@example.org', website: 'http://spam' })).result).toMatchObject({
      status: 'refused',
      message: EVENT_TEXT.automated,
    });
    const { website: _, ...noHoneypot } = VALID;
    expect((await submit({ ...noHoneypot, email: 'bot2@example.org' })).status).toBe(400);
    const bots = await database().db.selectFrom('event_registrations').select('id').where('email', 'like', 'bot%').execute();
    expect(bots).toHaveLength(0);
  });

  it('says which fields to fix, keeping what was typed', async () => {
    const answer = await submit({ ...VALID, name: '', email: '', phone: '' });
    expect(answer.status).toBe(400);
    expect(answer.result).toMatchObject({
      status: 'invalid',
      errors: { name: EVENT_TEXT.nameRequired, email: EVENT_TEXT.contactRequired },
      values: { accessNeeds: 'An interpreter' },
    });
  });

  it('refuses a post too large to read with 413', async () => {
    const answer = await submit({ ...VALID, accessNeeds: 'x'.repeat(40_000) });
    expect(answer.status).toBe(413);
    expect(answer.result).toMatchObject({ status: 'refused', message: EVENT_TEXT.tooLarge });
  });

  it('limits one address to its registrations in the window (429 with Retry-After)', async () => {
    for (let n = 0; n < REGISTRATION_RATE_LIMIT.limit; n++)
      expect((await submit({ ...VALID, email: `limit${n}@example.org` }, '198.51.100.1')).status).toBe(200);
    const limited = await submit({ ...VALID, email: 'limit-over@example.org' }, '198.51.100.1');
    expect(limited.status).toBe(429);
    expect(limited.headers?.['Retry-After']).toMatch(/^\d+$/);
    expect((await submit({ ...VALID, email: 'other@example.org' }, '198.51.100.2')).status).toBe(200);
  });

  it('answers a neutral message when registration is closed (409) or no event has the address (404)', async () => {
    const answer = await submitRegistration({
      request: formPost('http://localhost/events/none', VALID),
      clientIp: '203.0.113.10',
      slug: 'none',
    });
    expect(answer.status).toBe(404);
    expect(answer.result).toMatchObject({ status: 'closed', message: EVENT_TEXT.closed });
    await database().db.updateTable('events').set({ registration_open: 0 }).where('slug', '=', slug).execute();
    const closed = await submit({ ...VALID, email: 'late@example.org' }, '203.0.113.11');
    expect(closed.status).toBe(409);
    expect(closed.result).toMatchObject({ status: 'closed', message: EVENT_TEXT.closed });
    await database().db.updateTable('events').set({ registration_open: 1 }).where('slug', '=', slug).execute();
  });
});
