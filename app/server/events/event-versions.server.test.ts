import { describe, expect, it } from 'vitest';
import { ENGINES, useTestDatabase } from '../../../tests/support/databases';
import { eventVersionSchema } from '../../lib/event-versions';
import { eventFormSchema, registrationSchema } from '../../lib/events';
import { saveSiteSettings } from '../site/site-settings.server';
import type { StaffUser } from '../staff/auth.server';
import { staffAs } from '../../../tests/support/staff';
import { eventsInLanguage, getEventVersion, listEventVersions, saveEventVersion } from './event-versions.server';
import { createEvent, eventColumns, EventRuleError, getPublicEvent } from './events.server';
import { cancelEvent, checkCancelToken, registerForEvent } from './registrations.server';

// Decision 051: an event's Luganda and Swahili versions, drafted and published on their own, shown on
// the pages in their language and written into the mails of those who registered in it.

const IP = '198.51.100.51';
const editor = staffAs('EDITOR');

function day(offsetDays: number): string {
  return new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
}

async function newEvent(title: string, overrides: Record<string, string> = {}) {
  const parsed = eventFormSchema.parse({
    intent: 'publish',
    title,
    summary: 'Learn the basics of Ugandan Sign Language.',
    description: '<p>Two hours with a Deaf teacher.</p>',
    startDate: day(10),
    startTime: '09:00',
    endDate: day(10),
    endTime: '12:00',
    place: 'Ntinda community hall',
    onlineUrl: '',
    capacity: '5',
    registrationOpen: 'on',
    imageUrl: '',
    ...overrides,
  });
  const columns = eventColumns(parsed, 'Africa/Kampala');
  if (!columns.ok) throw new Error(JSON.stringify(columns.errors));
  return createEvent(editor, columns.columns, parsed.intent, IP);
}

const luganda = (overrides: Record<string, string> = {}) =>
  eventVersionSchema.parse({
    title: 'Olulimi lwa bakiggala',
    summary: 'Yiga olulimi lwa bakiggala olw’e Uganda.',
    description: '<p>Essaawa bbiri n’omusomesa.</p><script>alert(1)</script>',
    place: '',
    imageAlt: '',
    ...overrides,
  });

describe.each(ENGINES)('event versions on %s', (engine) => {
  const database = useTestDatabase(engine);

  it('shows a published version on the pages in its language, and English elsewhere and before', async () => {
    const event = await newEvent('Sign language basics');
    const found = (await getPublicEvent(event.slug))!;
    const draft = await saveEventVersion({
      actor: editor,
      eventId: event.id,
      language: 'lg',
      intent: 'draft',
      input: luganda(),
      expectedVersion: undefined,
      ip: IP,
    });
    expect(draft).toMatchObject({ status: 'draft', version: 1, description: '<p>Essaawa bbiri n’omusomesa.</p>' });
    // A draft is not on the website.
    expect((await eventsInLanguage([found], 'lg'))[0]).toMatchObject({ title: 'Sign language basics', textLanguage: 'en' });

    const published = await saveEventVersion({
      actor: editor,
      eventId: event.id,
      language: 'lg',
      intent: 'publish',
      input: luganda(),
      expectedVersion: 1,
      ip: IP,
    });
    const [lg] = await eventsInLanguage([found], 'lg');
    // Read in Luganda, the event changed when it or its version last did (its calendar file's SEQUENCE).
    const changedAt = async (updatedAt: string) => (await eventsInLanguage([{ ...found, updatedAt }], 'lg'))[0]!.updatedAt;
    expect(await changedAt('2026-01-01T00:00:00.000Z')).toBe(published.updatedAt);
    expect(await changedAt('2099-01-01T00:00:00.000Z')).toBe('2099-01-01T00:00:00.000Z');
    expect(lg).toMatchObject({
      title: 'Olulimi lwa bakiggala',
      summary: 'Yiga olulimi lwa bakiggala olw’e Uganda.',
      description: '<p>Essaawa bbiri n’omusomesa.</p>',
      // No place of its own: the event's.
      place: 'Ntinda community hall',
      textLanguage: 'lg',
      startsAt: found.startsAt,
      capacity: 5,
    });
    expect((await eventsInLanguage([found], 'sw'))[0]).toMatchObject({ title: 'Sign language basics', textLanguage: 'en' });
    expect((await eventsInLanguage([found], 'en'))[0]).toEqual(found);

    // Unpublished: English again, and every step is in the audit log.
    await saveEventVersion({ actor: editor, eventId: event.id, language: 'lg', intent: 'unpublish', expectedVersion: 2, ip: IP });
    expect((await eventsInLanguage([found], 'lg'))[0]!.title).toBe('Sign language basics');
    expect((await listEventVersions(event.id)).map((v) => [v.language, v.status, v.version])).toEqual([['lg', 'draft', 3]]);
    const audit = await database()
      .db.selectFrom('audit_log')
      .select('action')
      .where('target', '=', event.id)
      .where('action', 'like', 'event.version%')
      .execute();
    expect(audit.map((row) => row.action).sort()).toEqual([
      'event.version_published',
      'event.version_saved',
      'event.version_unpublished',
    ]);
  });

  it('refuses a role that may not publish events, a language the site has no versions in, a cancelled event, and an empty description', async () => {
    const event = await newEvent('Refusals');
    const save = (actor: StaffUser, language: string, input = luganda(), eventId = event.id) =>
      saveEventVersion({ actor, eventId, language, intent: 'publish', input, expectedVersion: undefined, ip: IP });
    await expect(save(staffAs('AUTHOR'), 'lg')).rejects.toMatchObject({ status: 403 });
    await expect(save(staffAs('VIEWER'), 'lg')).rejects.toMatchObject({ status: 403 });
    await expect(save(editor, 'fr')).rejects.toMatchObject({ status: 404 });
    await expect(save(editor, 'en')).rejects.toMatchObject({ status: 404 });
    await expect(save(editor, 'lg', luganda(), 'no-such-event')).rejects.toMatchObject({ status: 404 });
    await expect(save(editor, 'lg', luganda({ description: '<p> </p><script>x</script>' }))).rejects.toMatchObject({
      status: 400,
      field: 'description',
    });
    expect(await getEventVersion(event.id, 'lg')).toBeUndefined();
    await cancelEvent(staffAs('ADMIN'), event.id, IP);
    await expect(save(editor, 'lg')).rejects.toBeInstanceOf(EventRuleError);
    expect(await getEventVersion(event.id, 'lg')).toBeUndefined();
  });

  it('saves one of 25 edits sent at once from the same form; the others are told someone saved first', async () => {
    const event = await newEvent('At once');
    const results = await Promise.allSettled(
      Array.from({ length: 25 }, (_, n) =>
        saveEventVersion({
          actor: editor,
          eventId: event.id,
          language: 'sw',
          intent: 'publish',
          input: luganda({ title: `Toleo ${n}` }),
          expectedVersion: undefined,
          ip: IP,
        }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(refused).toHaveLength(24);
    expect(refused.every((r) => (r.reason as EventRuleError).status === 409)).toBe(true);
    expect((await getEventVersion(event.id, 'sw'))!.version).toBe(1);
  });

  it('writes the mails, the calendar file and the cancellation page of those who registered in a language in its version', async () => {
    await saveSiteSettings(staffAs('SUPER_ADMIN'), 'languages', { languageLg: 'on', languageSw: 'on' }, { ip: IP });
    const event = await newEvent('Mail words');
    await saveEventVersion({
      actor: editor,
      eventId: event.id,
      language: 'lg',
      intent: 'publish',
      input: luganda({ place: 'Ekisenge ky’e Ntinda' }),
      expectedVersion: undefined,
      ip: IP,
    });
    const registrant = (n: number, language: 'en' | 'lg' | 'sw') => ({
      ...registrationSchema.parse({ name: `Person ${n}`, email: `versions${n}@example.org`, phone: '', accessNeeds: '' }),
      language,
    });
    await registerForEvent(event.slug, registrant(1, 'lg'));
    await registerForEvent(event.slug, registrant(2, 'sw'));
    await registerForEvent(event.slug, registrant(3, 'en'));
    const db = database().db;
    const mailTo = (n: number) =>
      db
        .selectFrom('mail_outbox')
        .select(['subject', 'text_body', 'attachments'])
        .where('to_address', '=', `versions${n}@example.org`)
        .orderBy('created_at')
        .execute();
    const [lg] = await mailTo(1);
    expect(lg!.subject).toBe('Ekifo kyo: Olulimi lwa bakiggala');
    expect(lg!.text_body).toContain('Ekisenge ky’e Ntinda');
    expect(lg!.text_body).not.toContain('Ntinda community hall');
    expect(lg!.attachments).toContain('SUMMARY:Olulimi lwa bakiggala');
    expect(lg!.attachments).toContain(`/lg/events/${event.slug}`);
    // No Swahili version: the English words, in a Swahili mail.
    const [sw] = await mailTo(2);
    expect(sw!.subject).toBe('Nafasi yako: Mail words');
    const [en] = await mailTo(3);
    expect(en!.subject).toBe('Your place: Mail words');
    expect(en!.attachments).toContain('SUMMARY:Mail words');

    const token = /\/events\/cancel\/([A-Za-z0-9_-]{43})/.exec(lg!.text_body)![1]!;
    expect(await checkCancelToken(token, 'lg')).toEqual({
      eventTitle: 'Olulimi lwa bakiggala',
      eventCancelled: false,
      titleLanguage: 'lg',
    });
    expect(await checkCancelToken(token, 'sw')).toEqual({ eventTitle: 'Mail words', eventCancelled: false, titleLanguage: 'en' });

    await cancelEvent(staffAs('ADMIN'), event.id, IP);
    expect((await mailTo(1)).at(-1)!.subject).toContain('Olulimi lwa bakiggala');
    expect((await mailTo(3)).at(-1)!.subject).toContain('Mail words');
  });
});
