import { describe, expect, it, vi } from 'vitest';
import { ENGINES, useTestDatabase } from '../../tests/support/databases';
import { DEFAULT_SERVICE_IDS, FEATURES_SHOWN } from '../lib/services';
import { getLogger } from './logger.server';
import { getService, listServices } from './services.server';

const DEFAULT_IDS = ['digital-skills', 'inclusion-talks', 'comm-services', 'merchandise'];

it('the built-in services are the four of spec §3', () => {
  expect(DEFAULT_SERVICE_IDS).toEqual(DEFAULT_IDS);
});

describe.each(ENGINES)('services on %s', (engine) => {
  const database = useTestDatabase(engine);

  it('falls back to the four built-in services when none are stored', async () => {
    const services = await listServices(database().db);
    expect(services.map((s) => s.id)).toEqual(DEFAULT_IDS);
    for (const service of services) {
      expect(service.title).not.toBe('');
      expect(service.description).not.toBe('');
      expect(service.features.length).toBeGreaterThan(FEATURES_SHOWN);
      expect(service.imageUrl).toBe(`/images/services/${service.id}.svg`);
      expect(service.imageAlt).not.toBe('');
    }
    expect((await getService('inclusion-talks', database().db))?.title).toBe('Disability Inclusion Talks');
    expect(await getService('no-such-service', database().db)).toBeUndefined();
  });

  it('lists stored services in their position, newest first among equals, instead of the defaults', async () => {
    const rows = [
      ['sign-club', 'Sign Club', 1, '2026-01-01T00:00:00.000Z', '["Weekly meetings","Games"]'],
      ['mentoring', 'Mentoring', 0, '2026-01-02T00:00:00.000Z', '["One mentor per learner"]'],
      ['radio', 'Radio Show', 1, '2026-01-03T00:00:00.000Z', 'not json'],
    ] as const;
    for (const [id, title, position, at, features] of rows) {
      await database()
        .db.insertInto('services')
        .values({
          id,
          title,
          description: `${title} description`,
          features,
          image_url: null,
          image_alt: null,
          position,
          created_at: at,
          updated_at: at,
        })
        .execute();
    }
    const services = await listServices(database().db);
    expect(services.map((s) => s.id)).toEqual(['mentoring', 'radio', 'sign-club']);
    expect(services[2]).toEqual({
      id: 'sign-club',
      title: 'Sign Club',
      description: 'Sign Club description',
      features: ['Weekly meetings', 'Games'],
      imageUrl: null,
      imageAlt: '',
    });
    expect(services[1]?.features).toEqual([]);

    expect((await getService('mentoring', database().db))?.features).toEqual(['One mentor per learner']);
    // Once services are stored, the built-in ones are no longer offered.
    expect(await getService('digital-skills', database().db)).toBeUndefined();
  });
});

describe.each(ENGINES)('services on %s when the table cannot be read', (engine) => {
  // No migrations: the services table does not exist, so every read fails.
  const database = useTestDatabase(engine, { migrate: false });

  it('shows the built-in services instead of failing, and logs the failure', async () => {
    const logged = vi.spyOn(getLogger(), 'error').mockImplementation(() => undefined);
    expect((await listServices(database().db)).map((s) => s.id)).toEqual(DEFAULT_IDS);
    expect(logged).toHaveBeenCalledTimes(1);
    expect((await getService('merchandise', database().db))?.title).toBe('Awareness Merchandise');
    expect(await getService('nothing', database().db)).toBeUndefined();
    logged.mockRestore();
  });
});
