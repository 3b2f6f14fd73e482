import { beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, useTestDatabase } from '../../../tests/support/databases';
import { staffAs } from '../../../tests/support/staff';
import { SERVICE_MESSAGES } from '../../lib/services';
import { SERVICE_VERSION_MESSAGES, serviceVersionSchema } from '../../lib/service-versions';
import { getService, listServices, ServiceRuleError } from './services.server';
import { getServiceVersion, listServiceVersions, saveServiceVersion, servicesInLanguage } from './service-versions.server';

const IP = '203.0.113.5';
const words = serviceVersionSchema.parse({
  title: 'Okutendeka mu kompyuta',
  description: 'Tuyigiriza abavubuka abalina obulemu okukozesa kompyuta.',
  features: 'Email\nDizayini',
  easyRead: 'Tuyigiriza kompyuta.',
});

describe.each(ENGINES)('service versions on %s', (engine) => {
  const database = useTestDatabase(engine);
  const admin = staffAs('ADMIN');

  beforeAll(async () => {
    const at = new Date().toISOString();
    await database()
      .db.insertInto('services')
      .values([
        {
          id: 'skills',
          title: 'Digital Skills',
          description: 'English words.',
          features: '["Email"]',
          position: 0,
          created_at: at,
          updated_at: at,
        },
        {
          id: 'talks',
          title: 'Inclusion Talks',
          description: 'English talks.',
          features: '[]',
          position: 1,
          created_at: at,
          updated_at: at,
        },
      ])
      .execute();
  });

  const save = (intent: 'draft' | 'publish' | 'unpublish', expectedVersion: number | undefined, language = 'lg', actor = admin) =>
    saveServiceVersion({ actor, serviceId: 'skills', language, intent, input: words, expectedVersion, ip: IP });

  it('drafts, publishes and unpublishes a version on its own, audited, each save checked against the version opened', async () => {
    const draft = await save('draft', undefined);
    expect(draft).toMatchObject({ language: 'lg', status: 'draft', version: 1, features: ['Email', 'Dizayini'] });
    // A draft is not on the website: the Luganda page shows the English words, marked.
    const [shown] = await servicesInLanguage([(await getService('skills', database().db))!], 'lg', database().db);
    expect(shown).toMatchObject({ title: 'Digital Skills', textLanguage: 'en' });

    const published = await save('publish', 1);
    expect(published).toMatchObject({ status: 'published', version: 2 });
    const listed = await servicesInLanguage(await listServices(database().db), 'lg', database().db);
    expect(listed.map((s) => [s.id, s.title, s.textLanguage])).toEqual([
      ['skills', 'Okutendeka mu kompyuta', 'lg'],
      ['talks', 'Inclusion Talks', 'en'],
    ]);
    // Publishing Luganda publishes nothing else.
    expect(await getServiceVersion('skills', 'sw', database().db)).toBeUndefined();
    const swahili = await servicesInLanguage(await listServices(database().db), 'sw', database().db);
    expect(swahili.every((s) => s.textLanguage === 'en')).toBe(true);
    // English pages are untouched.
    expect((await servicesInLanguage(await listServices(database().db), 'en', database().db))[0]?.title).toBe('Digital Skills');

    // A form opened at version 1 is refused now: 409, nothing changes.
    await expect(save('draft', 1)).rejects.toMatchObject({ status: 409, message: SERVICE_VERSION_MESSAGES.conflict });
    expect((await getServiceVersion('skills', 'lg', database().db))?.status).toBe('published');

    const unpublished = await save('unpublish', 2);
    expect(unpublished).toMatchObject({ status: 'draft', version: 3, title: 'Okutendeka mu kompyuta' });
    const audit = await database()
      .db.selectFrom('audit_log')
      .select(['action', 'detail'])
      .where('target', '=', 'skills')
      .orderBy('at')
      .execute();
    expect(audit.map((a) => a.action)).toEqual([
      'service.version_saved',
      'service.version_published',
      'service.version_unpublished',
    ]);
    expect(JSON.parse(audit[0]!.detail)).toMatchObject({ language: 'lg' });
    expect((await listServiceVersions('skills', database().db)).map((v) => v.language)).toEqual(['lg']);
  });

  it('refuses an unknown language, a missing service and a role that may not edit services', async () => {
    await expect(save('draft', undefined, 'fr')).rejects.toMatchObject({
      status: 404,
      message: SERVICE_VERSION_MESSAGES.unknownLanguage,
    });
    await expect(
      saveServiceVersion({
        actor: admin,
        serviceId: 'nothing',
        language: 'sw',
        intent: 'draft',
        input: words,
        expectedVersion: undefined,
        ip: IP,
      }),
    ).rejects.toMatchObject({ status: 404, message: SERVICE_MESSAGES.notFound });
    await expect(save('draft', undefined, 'sw', staffAs('AUTHOR'))).rejects.toBeInstanceOf(ServiceRuleError);
    await expect(save('unpublish', undefined, 'sw')).rejects.toMatchObject({ status: 400 });
    expect(await getServiceVersion('skills', 'sw', database().db)).toBeUndefined();
  });

  it('keeps one of 25 first saves sent at once and answers the others 409, on both engines', async () => {
    const results = await Promise.allSettled(Array.from({ length: 25 }, () => save('publish', undefined, 'sw')));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(refused.map((r) => (r.reason as ServiceRuleError).status)).toEqual(Array(24).fill(409));
    expect((await getServiceVersion('skills', 'sw', database().db))!.version).toBe(1);
  });

  it('checks a version as the service form is checked, easy read cap included', () => {
    const refused = serviceVersionSchema.safeParse({ title: '', description: '', features: '', easyRead: 'word '.repeat(401) });
    expect(refused.error?.issues.map((i) => i.path.join('.')).sort()).toEqual(['description', 'easyRead', 'title']);
  });
});
