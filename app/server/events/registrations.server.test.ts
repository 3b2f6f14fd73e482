import { describe, expect, it } from 'vitest';
import { ENGINES, useTestDatabase } from '../../../tests/support/databases';
import { eventFormSchema, registrationSchema } from '../../lib/events';
import type { Role } from '../../lib/permissions';
import { saveSiteSettings } from '../site/site-settings.server';
import type { StaffUser } from '../staff/auth.server';
import {
  createEvent,
  eventColumns,
  EventRuleError,
  getEventForAdmin,
  getPublicEvent,
  listPublicEvents,
  updateEvent,
} from './events.server';
import {
  cancelEvent,
  cancelRegistration,
  checkCancelToken,
  exportRegistrationsCsv,
  fillFreedPlaces,
  listRegistrations,
  messageRegistrants,
  RegistrationClosedError,
  registerForEvent,
  REGISTRATION_RESENDS_PER_DAY,
  sendDueReminders,
  setAttended,
} from './registrations.server';

// Issue 27: places never exceed capacity however many register at once, the waiting list moves up
// in order, cancellation links work once, reminders go once, on both engines.

const IP = '198.51.100.27';
const person = (role: Role, who = role.toLowerCase()): StaffUser => ({
  id: `id-${who}`,
  name: `${who} Person`,
  email: `${who}@example.org`,
  role,
  bio: '',
  profilePicture: null,
  sessionId: 's',
});

function day(offsetDays: number): string {
  return new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
}

function form(title: string, overrides: Record<string, string> = {}) {
  return eventFormSchema.parse({
    intent: 'publish',
    title,
    summary: 'Learn the basics of Ugandan Sign Language.',
    description: '<p>Two hours with a Deaf teacher.</p><script>alert(1)</script>',
    startDate: day(10),
    startTime: '09:00',
    endDate: day(10),
    endTime: '12:00',
    place: 'Kampala, Ntinda community hall',
    onlineUrl: '',
    capacity: '5',
    signLanguage: 'on',
    registrationOpen: 'on',
    ...overrides,
  });
}

async function newEvent(title: string, overrides: Record<string, string> = {}, actor = person('EDITOR')) {
  const parsed = form(title, overrides);
  const columns = eventColumns(parsed, 'Africa/Kampala');
  if (!columns.ok) throw new Error(JSON.stringify(columns.errors));
  return createEvent(actor, columns.columns, parsed.intent, IP);
}

const registrant = (n: number, extra: Record<string, string> = {}) =>
  registrationSchema.parse({ name: `Person ${n}`, email: `person${n}@example.org`, phone: '', accessNeeds: '', ...extra });

describe.each(ENGINES)('events on %s', (engine) => {
  const database = useTestDatabase(engine);

  it('saves an event in the organisation’s time zone with its description sanitised', async () => {
    const event = await newEvent('Sign language for parents');
    expect(event.startsAt).toBe(`${day(10)}T06:00:00.000Z`);
    expect(event.description).toBe('<p>Two hours with a Deaf teacher.</p>');
    expect(event.status).toBe('published');
    expect(event.slug).toBe(`sign-language-for-parents-${day(10)}`);
    expect((await getPublicEvent(event.slug))?.title).toBe('Sign language for parents');
  });

  it('lets an author draft but not publish, and edit only its own drafts', async () => {
    const author = person('AUTHOR');
    await expect(newEvent('Author publishes', {}, author)).rejects.toThrow(EventRuleError);
    const draft = await newEvent('Author draft', { intent: 'draft' }, author);
    expect(draft.status).toBe('draft');
    expect(await getPublicEvent(draft.slug)).toBeUndefined();
    const parsed = form('Author draft edited', { intent: 'draft' });
    const columns = eventColumns(parsed, 'Africa/Kampala');
    if (!columns.ok) throw new Error('invalid');
    expect((await updateEvent(author, draft.id, columns.columns, 'draft', IP)).title).toBe('Author draft edited');
    await expect(updateEvent(person('AUTHOR', 'other'), draft.id, columns.columns, 'draft', IP)).rejects.toMatchObject({
      status: 403,
    });
    await expect(updateEvent(author, draft.id, columns.columns, 'publish', IP)).rejects.toMatchObject({ status: 403 });
    await expect(newEvent('Viewer', { intent: 'draft' }, person('VIEWER'))).rejects.toMatchObject({ status: 403 });
  });

  it('refuses an end before the start, no place, and a deadline after the start', () => {
    const result = eventColumns(
      form('Bad', { endTime: '08:00', place: '', deadlineDate: day(11), deadlineTime: '10:00' }),
      'Africa/Kampala',
    );
    expect(result.ok).toBe(false);
    if (!result.ok) expect(Object.keys(result.errors).sort()).toEqual(['deadlineDate', 'endDate', 'place']);
  });

  it('gives 5 places to 5 of 25 registrations sent at once; the other 20 wait in order', async () => {
    const event = await newEvent('Twenty-five at once');
    const outcomes = await Promise.all(Array.from({ length: 25 }, (_, n) => registerForEvent(event.slug, registrant(n))));
    expect(outcomes.filter((o) => o.place === 'confirmed')).toHaveLength(5);
    expect(outcomes.filter((o) => o.place === 'waiting')).toHaveLength(20);
    const after = (await getEventForAdmin(event.id))!;
    expect(after.taken).toBe(5);
    expect(after.waiting).toBe(20);
    const rows = await listRegistrations(person('ADMIN'), event.id);
    expect(rows.filter((r) => r.status === 'confirmed')).toHaveLength(5);
    expect(new Set(rows.map((r) => r.seq)).size).toBe(25);
    // The places went to the first five numbers.
    expect(rows.filter((r) => r.status === 'confirmed').map((r) => r.seq)).toEqual([1, 2, 3, 4, 5]);
    const mails = await database()
      .db.selectFrom('mail_outbox')
      .select(['subject', 'attachments'])
      .where('subject', 'like', '%Twenty-five at once')
      .execute();
    expect(mails.filter((m) => m.subject.startsWith('Your place'))).toHaveLength(5);
    expect(mails.filter((m) => m.subject.startsWith('Your place')).every((m) => m.attachments?.includes('BEGIN:VCALENDAR'))).toBe(
      true,
    );
    expect(mails.filter((m) => m.subject.startsWith('Waiting list'))).toHaveLength(20);
  });

  it('moves the first waiting person up when someone cancels through their link, which works once', async () => {
    const event = await newEvent('One place', { capacity: '1' });
    await registerForEvent(event.slug, registrant(1));
    await registerForEvent(event.slug, registrant(2));
    await registerForEvent(event.slug, registrant(3));
    const db = database().db;
    const mail = await db
      .selectFrom('mail_outbox')
      .select('text_body')
      .where('to_address', '=', 'person1@example.org')
      .where('subject', '=', 'Your place: One place')
      .executeTakeFirstOrThrow();
    const token = /\/events\/cancel\/([A-Za-z0-9_-]{43})/.exec(mail.text_body)![1]!;
    expect(await checkCancelToken(token)).toEqual({ eventTitle: 'One place', eventCancelled: false, titleLanguage: 'en' });
    expect(await cancelRegistration(token)).toBe(true);
    expect(await cancelRegistration(token)).toBe(false);
    expect(await checkCancelToken(token)).toBeUndefined();
    const rows = await listRegistrations(person('ADMIN'), event.id);
    expect(rows.map((r) => r.status)).toEqual(['cancelled', 'confirmed', 'waiting']);
    const moved = await db.selectFrom('mail_outbox').select('subject').where('to_address', '=', 'person2@example.org').execute();
    expect(moved.map((m) => m.subject)).toContain('A place is yours: One place');
    expect((await getEventForAdmin(event.id))!.taken).toBe(1);
  });

  it('writes a registrant’s mails in the language of the page they registered on, while the site offers it', async () => {
    await saveSiteSettings(person('SUPER_ADMIN'), 'languages', { languageLg: 'on', languageSw: 'on' }, { ip: IP });
    const event = await newEvent('Languages', { capacity: '1' });
    await registerForEvent(event.slug, { ...registrant(1), language: 'lg' });
    await registerForEvent(event.slug, { ...registrant(2), language: 'sw' });
    const byPhone = await registerForEvent(event.slug, { ...registrant(3, { email: '', phone: '0772 000333' }), language: 'sw' });
    expect(byPhone.cancelUrl).toMatch(/\/sw\/events\/cancel\/[A-Za-z0-9_-]{43}$/);
    const db = database().db;
    const mailTo = async (n: number) =>
      db
        .selectFrom('mail_outbox')
        .select(['subject', 'text_body'])
        .where('to_address', '=', `person${n}@example.org`)
        .where('subject', 'like', '%: Languages')
        .orderBy('created_at')
        .execute();
    const [placed] = await mailTo(1);
    expect(placed!.subject).toBe('Ekifo kyo: Languages');
    expect(placed!.text_body).toContain('Oli otya Person 1,');
    expect(placed!.text_body).toContain('Ofunye ekifo ku mukolo guno.');
    expect(placed!.text_body).toContain(`/lg/events/${event.slug}`);
    expect(placed!.text_body).toMatch(/\/lg\/events\/cancel\/[A-Za-z0-9_-]{43}/);
    // The date in Luganda's words (its month names), not English.
    expect(placed!.text_body).not.toMatch(
      /January|February|March|April|May|June|July|August|September|October|November|December/,
    );
    const [waiting] = await mailTo(2);
    expect(waiting!.subject).toBe('Orodha ya kusubiri: Languages');
    expect(waiting!.text_body).toContain('/sw/events/cancel/');
    // The first cancels: the place goes to the second, who is told in Swahili.
    const token = /\/events\/cancel\/([A-Za-z0-9_-]{43})/.exec(placed!.text_body)![1]!;
    expect(await cancelRegistration(token)).toBe(true);
    expect((await mailTo(2)).map((m) => m.subject)).toContain('Nafasi ni yako: Languages');
    // Registered again from the English page: mailed in English, and so are later mails.
    await registerForEvent(event.slug, { ...registrant(2), language: 'en' });
    expect((await mailTo(2)).at(-1)!.subject).toBe('Your place: Languages');
    const stored = await db
      .selectFrom('event_registrations')
      .select('language')
      .where('email', '=', 'person2@example.org')
      .execute();
    expect(stored.map((r) => r.language)).toContain('en');
    await registerForEvent(event.slug, { ...registrant(2), language: 'sw' });
    // With Swahili turned off, the event's cancellation reaches its registrant in English, with English links.
    await saveSiteSettings(person('SUPER_ADMIN'), 'languages', { languageLg: 'on', languageSw: 'off' }, { ip: IP });
    await cancelEvent(person('ADMIN'), event.id, IP);
    const cancelled = (await mailTo(2)).find((m) => m.subject === 'Cancelled: Languages');
    expect(cancelled?.text_body).toContain('Hello Person 2,');
    expect(cancelled?.text_body).not.toContain('/sw/');
  });

  it('answers a second registration of the same address with its state, mailing a new link', async () => {
    const event = await newEvent('Twice', { capacity: '1' });
    expect((await registerForEvent(event.slug, registrant(1))).place).toBe('confirmed');
    expect((await registerForEvent(event.slug, registrant(1, { name: 'Again' }))).place).toBe('confirmed');
    expect((await getEventForAdmin(event.id))!.taken).toBe(1);
    const phoneOnly = await registerForEvent(event.slug, registrant(2, { email: '', phone: '+256 700 000000' }));
    expect(phoneOnly).toMatchObject({ place: 'waiting', mailed: false });
    expect(phoneOnly.cancelUrl).toMatch(/\/events\/cancel\//);
  });

  it('keeps one registration per phone number given without an address, however it is written or sent at once', async () => {
    const event = await newEvent('By phone', { capacity: '3' });
    const byPhone = (phone: string, name = 'Phone Only') => registrant(0, { name, email: '', phone });
    // A double tap, ten times over, sent together: one place, one link.
    const settled = await Promise.allSettled(
      Array.from({ length: 10 }, () => registerForEvent(event.slug, byPhone('+256 772 000111'))),
    );
    // Every one is answered, the ones that lost a race on PostgreSQL's unique index as repeats.
    expect(settled.map((outcome) => outcome.status)).toEqual(Array(10).fill('fulfilled'));
    const answered = settled.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
    expect(answered.filter((outcome) => outcome.cancelUrl)).toHaveLength(1);
    expect(answered.filter((outcome) => outcome.phoneAgain)).toHaveLength(9);
    // The same number in another form is the same person: no new place and no link, just its state.
    for (const written of ['0772 000111', '256772000111', '(0772) 000-111'])
      expect(await registerForEvent(event.slug, byPhone(written, 'Someone Else'))).toEqual({
        place: 'confirmed',
        mailed: false,
        cancelUrl: null,
        phoneAgain: true,
      });
    const live = () =>
      database()
        .db.selectFrom('event_registrations')
        .select(['name', 'phone_key'])
        .where('event_id', '=', event.id)
        .where('status', '!=', 'cancelled')
        .execute();
    expect(await live()).toEqual([{ name: 'Phone Only', phone_key: '0772000111' }]);
    expect((await getEventForAdmin(event.id))!.taken).toBe(1);
    // Another number, and the same number with an address, are other registrations.
    expect((await registerForEvent(event.slug, byPhone('0772 000112'))).phoneAgain).toBe(false);
    expect((await registerForEvent(event.slug, registrant(3, { phone: '0772 000111' }))).phoneAgain).toBe(false);
    expect(await live()).toHaveLength(3);
  });

  it('mails a repeat with the name stored first, and takes a name on one line only', async () => {
    const event = await newEvent('Named once');
    await registerForEvent(event.slug, registrant(4, { name: 'Apio Grace' }));
    await registerForEvent(event.slug, registrant(4, { name: 'Your account is locked visit evil.example' }));
    const mails = await database()
      .db.selectFrom('mail_outbox')
      .select('text_body')
      .where('to_address', '=', 'person4@example.org')
      .where('subject', '=', 'Your place: Named once')
      .execute();
    expect(mails.map((mail) => mail.text_body.split('\n')[0])).toEqual(['Hello Apio Grace,', 'Hello Apio Grace,']);
    for (const name of ['Ann\r\n\r\nYour account is locked', 'Ann\tTab', 'Ann\u202Eeert', 'Ann\u0000'])
      expect(registrationSchema.safeParse({ name, email: 'a@example.org' }).error?.issues.map((issue) => issue.message)).toEqual([
        'Please type your name on one line.',
      ]);
    expect(registrationSchema.safeParse({ name: '  Nakato Ssebunya-Okello  ', email: 'a@example.org' }).success).toBe(true);
  });

  it('mails an address its registration again at most three times a day, even when asked 25 times at once', async () => {
    const event = await newEvent('Asked often', { capacity: '3' });
    await registerForEvent(event.slug, registrant(7));
    const again = await Promise.all(Array.from({ length: 25 }, () => registerForEvent(event.slug, registrant(7))));
    expect(again.every((outcome) => outcome.place === 'confirmed')).toBe(true);
    expect(again.filter((outcome) => outcome.mailed)).toHaveLength(REGISTRATION_RESENDS_PER_DAY);
    const mails = await database()
      .db.selectFrom('mail_outbox')
      .select('text_body')
      .where('to_address', '=', 'person7@example.org')
      .where('subject', '=', 'Your place: Asked often')
      .execute();
    expect(mails).toHaveLength(1 + REGISTRATION_RESENDS_PER_DAY);
    // One link mailed still works: a refused repeat changes nothing.
    const links = mails.map((mail) => /\/events\/cancel\/([A-Za-z0-9_-]+)/.exec(mail.text_body)?.[1]);
    const working = [];
    for (const link of links) if (link && (await checkCancelToken(link))) working.push(link);
    expect(working).toHaveLength(1);
    // The first registration and its repeats sent together are held to the same limit.
    const together = await newEvent('Asked at once', { capacity: '3' });
    const first = await Promise.allSettled(Array.from({ length: 25 }, () => registerForEvent(together.slug, registrant(9))));
    expect(first.map((outcome) => outcome.status)).toEqual(Array(25).fill('fulfilled'));
    const live = await database()
      .db.selectFrom('event_registrations')
      .select('id')
      .where('event_id', '=', together.id)
      .where('status', '!=', 'cancelled')
      .execute();
    expect(live).toHaveLength(1);
    const sent = await database()
      .db.selectFrom('mail_outbox')
      .select('id')
      .where('to_address', '=', 'person9@example.org')
      .where('subject', '=', 'Your place: Asked at once')
      .execute();
    expect(sent.length).toBeGreaterThanOrEqual(1);
    expect(sent.length).toBeLessThanOrEqual(1 + REGISTRATION_RESENDS_PER_DAY);
    // Another address, and this address for another event, are not held back.
    expect((await registerForEvent(event.slug, registrant(8))).mailed).toBe(true);
    const other = await newEvent('Another day', { capacity: '3' });
    expect((await registerForEvent(other.slug, registrant(7))).mailed).toBe(true);
  });

  it('refuses registration once closed, past its deadline or for a draft', async () => {
    const draft = await newEvent('Draft only', { intent: 'draft' });
    await expect(registerForEvent(draft.slug, registrant(1))).rejects.toThrow(RegistrationClosedError);
    const closed = await newEvent('Closed', { registrationOpen: '' });
    await expect(registerForEvent(closed.slug, registrant(1))).rejects.toThrow(RegistrationClosedError);
  });

  it('does not lower the places below those taken, and moves waiting people up when places grow', async () => {
    const event = await newEvent('Growing', { capacity: '1' });
    await registerForEvent(event.slug, registrant(1));
    await registerForEvent(event.slug, registrant(2));
    const bigger = eventColumns(form('Growing', { capacity: '2' }), 'Africa/Kampala');
    if (!bigger.ok) throw new Error('invalid');
    await updateEvent(person('EDITOR'), event.id, bigger.columns, 'publish', IP);
    expect(await fillFreedPlaces(event.id)).toBe(1);
    const moved = await database()
      .db.selectFrom('mail_outbox')
      .select('subject')
      .where('to_address', '=', 'person2@example.org')
      .execute();
    expect(moved.map((m) => m.subject)).toContain('A place is yours: Growing');
    await registerForEvent(event.slug, registrant(3));
    const smaller = eventColumns(form('Growing', { capacity: '1' }), 'Africa/Kampala');
    if (!smaller.ok) throw new Error('invalid');
    await expect(updateEvent(person('EDITOR'), event.id, smaller.columns, 'publish', IP)).rejects.toMatchObject({
      status: 400,
      field: 'capacity',
    });
  });

  it('lets staff mark attendance, message, export and cancel; only those who manage events', async () => {
    const event = await newEvent('Managed', { capacity: '2' });
    // Published an hour ago: the confirmations' calendar files carry that time.
    await database()
      .db.updateTable('events')
      .set({ updated_at: new Date(Date.now() - 3_600_000).toISOString() })
      .where('id', '=', event.id)
      .execute();
    await registerForEvent(event.slug, registrant(1));
    await registerForEvent(event.slug, registrant(2, { accessNeeds: '=HYPERLINK("x")' }));
    await registerForEvent(event.slug, registrant(3));
    const byPhone = await registerForEvent(event.slug, registrant(4, { email: '', phone: '0772 000444' }));
    const phoneToken = byPhone.cancelUrl!.split('/').pop()!;
    const admin = person('ADMIN');
    await expect(listRegistrations(person('AUTHOR'), event.id)).rejects.toMatchObject({ status: 403 });
    const rows = await listRegistrations(admin, event.id);
    await setAttended(admin, event.id, rows[0]!.id, true, IP);
    await expect(setAttended(admin, event.id, rows[2]!.id, true, IP)).rejects.toMatchObject({ status: 404 });
    expect(await messageRegistrants(admin, event.id, { subject: 'Room change', message: 'Room 4 now.' }, IP)).toBe(3);
    const before = await listRegistrations(admin, event.id);
    const csv = await exportRegistrationsCsv(admin, event.id, IP);
    expect(csv.split('\r\n')[0]).toBe('Number,Name,Email,Phone,Access needs,Status,Attended,Registered at,Language');
    expect(csv.split('\r\n')[1]).toMatch(/,English$/);
    expect(csv).toContain(`'=HYPERLINK(""x"")`);
    expect(await cancelEvent(admin, event.id, IP)).toBe(3);
    await expect(cancelEvent(admin, event.id, IP)).rejects.toMatchObject({ status: 400 });
    const db = database().db;
    expect(await db.selectFrom('mail_outbox').select('id').where('subject', '=', 'Cancelled: Managed').execute()).toHaveLength(3);
    // The cancellation's calendar file is newer than the confirmation's: a calendar holding the event replaces it.
    const calendarOf = async (subject: string) => {
      const mail = await db
        .selectFrom('mail_outbox')
        .select('attachments')
        .where('to_address', '=', 'person1@example.org')
        .where('subject', '=', subject)
        .executeTakeFirstOrThrow();
      const [file] = JSON.parse(mail.attachments!) as { content: string }[];
      const field = (name: string) => new RegExp(`^${name}:(.+)$`, 'm').exec(file!.content)?.[1]?.trim();
      return { stamp: field('DTSTAMP')!, sequence: Number(field('SEQUENCE')), status: field('STATUS') };
    };
    const [booked, cancelled] = [await calendarOf('Your place: Managed'), await calendarOf('Cancelled: Managed')];
    expect(cancelled.status).toBe('CANCELLED');
    expect(cancelled.stamp > booked.stamp).toBe(true);
    expect(cancelled.sequence).toBeGreaterThan(booked.sequence);
    expect((await getPublicEvent(event.slug))?.status).toBe('cancelled');
    await expect(registerForEvent(event.slug, registrant(9))).rejects.toThrow(RegistrationClosedError);
    // A registrant's link now says the event is cancelled, and using it changes nothing.
    expect(await checkCancelToken(phoneToken)).toEqual({ eventTitle: 'Managed', eventCancelled: true, titleLanguage: 'en' });
    expect(await cancelRegistration(phoneToken)).toBe(false);
    expect(await listRegistrations(admin, event.id)).toEqual(before);
    expect(await checkCancelToken(phoneToken)).toEqual({ eventTitle: 'Managed', eventCancelled: true, titleLanguage: 'en' });
    const audit = await db.selectFrom('audit_log').select('action').where('target', '=', event.id).execute();
    expect(audit.map((a) => a.action)).toEqual(
      expect.arrayContaining([
        'event.published',
        'event.attendance_marked',
        'event.messaged',
        'event.registrations_exported',
        'event.cancelled',
      ]),
    );
  });

  it('sends the reminder the day before once, however often the job runs', async () => {
    const soon = new Date(Date.now() + 20 * 3_600_000);
    const zoned = new Intl.DateTimeFormat('en-CA', {
      timeZone: 'Africa/Kampala',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).formatToParts(soon);
    const part = (t: string) => zoned.find((p) => p.type === t)!.value;
    const event = await newEvent('Tomorrow', {
      startDate: `${part('year')}-${part('month')}-${part('day')}`,
      startTime: `${part('hour')}:${part('minute')}`,
      endDate: day(3),
      endTime: '12:00',
    });
    // One registered days ago; one registered now, whose confirmation has just gone out.
    await registerForEvent(event.slug, registrant(1));
    await database()
      .db.updateTable('event_registrations')
      .set({ updated_at: new Date(Date.now() - 3 * 86_400_000).toISOString() })
      .where('email', '=', 'person1@example.org')
      .execute();
    await registerForEvent(event.slug, registrant(2));
    const runs = await Promise.all([sendDueReminders(), sendDueReminders(), sendDueReminders()]);
    expect(runs.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await sendDueReminders()).toBe(0);
    const mailed = (to: string) =>
      database()
        .db.selectFrom('mail_outbox')
        .select(['subject', 'text_body'])
        .where('to_address', '=', to)
        .where('subject', 'like', '%: Tomorrow')
        .execute();
    // Today or tomorrow as it is in Kampala, where the event is.
    const kampalaDate = (at: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Kampala' }).format(at);
    const when = kampalaDate(soon) === kampalaDate(new Date()) ? 'today' : 'tomorrow';
    const reminders = (await mailed('person1@example.org')).filter((mail) => !mail.subject.startsWith('Your place'));
    expect(reminders.map((mail) => mail.subject)).toEqual([`${when === 'today' ? 'Today' : 'Tomorrow'}: Tomorrow`]);
    expect(reminders[0]!.text_body).toContain(`the event you registered for is ${when}.`);
    expect((await mailed('person2@example.org')).map((mail) => mail.subject)).toEqual(['Your place: Tomorrow']);
    const later = await listPublicEvents();
    expect(later.map((e) => e.title)).toContain('Tomorrow');
  });
});
