import { describe, expect, it, vi } from 'vitest';
import { ENGINES, useTestDatabase } from '../../../tests/support/databases';
import { findFounderStoryPath, getFounderProfile } from './founder.server';
import { getLogger } from '../platform/logger.server';
import { SETTING_KEYS, writeSetting } from '../platform/settings.server';

const AT = '2026-01-01T00:00:00.000Z';

describe.each(ENGINES)('founder profile on %s', (engine) => {
  const database = useTestDatabase(engine);

  it('uses the built-in founder while no founder is set, with no story of their own', async () => {
    const founder = await getFounderProfile(database().db);
    expect(founder.name).toBe('Grace Nakato');
    expect(founder.title).toBe('Founder & Executive Director');
    // The home page's story and the About page's profile both start as the full biography they showed before Site settings.
    expect(founder.fullBio).toContain('discovered Ugandan Sign Language as a teenager');
    expect(founder.bio).toBe(founder.fullBio);
    expect(founder.storyLink).toBeNull();
    expect(await findFounderStoryPath(founder, database().db)).toBeNull();
  });

  it("reads the staff account named by the founder_email setting, and the founder's own story", async () => {
    await database()
      .db.insertInto('system_users')
      .values({
        id: 'u1',
        name: 'Ruth Akello',
        email: 'ruth@example.org',
        bio: 'Short bio.',
        title: 'Founder',
        full_bio: 'A longer biography of Ruth.',
        social_links: JSON.stringify({ twitter: 'https://x.example/ruth', linkedin: 'javascript:alert(1)' }),
        profile_picture: '/media/profiles/1_ruth.webp',
        password_hash: null,
        created_at: AT,
        updated_at: AT,
        updated_by: null,
        last_login: null,
      })
      .execute();
    await writeSetting(database().db, SETTING_KEYS.founderEmail, 'Ruth@Example.org');
    const founder = await getFounderProfile(database().db);
    expect(founder).toEqual({
      name: 'Ruth Akello',
      email: 'ruth@example.org',
      title: 'Founder',
      bio: 'A longer biography of Ruth.',
      fullBio: 'A longer biography of Ruth.',
      pictureUrl: '/media/profiles/1_ruth.webp',
      social: { twitter: 'https://x.example/ruth' },
      storyLink: null,
    });

    const story = (id: string, category: string, at: string, email = 'ruth@example.org') => ({
      id,
      collection: 'blogs' as const,
      title: id,
      summary: null,
      excerpt: 'x',
      content: '<p>x</p>',
      category,
      author: 'Ruth Akello',
      author_email: email,
      created_at: at,
      published_at: at,
      updated_at: at,
    });
    await database()
      .db.insertInto('content')
      .values([
        story('advocacy-piece', 'advocacy', '2026-03-01T00:00:00.000Z'),
        story('older-story', 'personal-experience', '2026-01-01T00:00:00.000Z'),
        story('my-story', 'personal-experience', '2026-02-01T00:00:00.000Z'),
        story('someone-else', 'personal-experience', '2026-04-01T00:00:00.000Z', 'other@example.org'),
      ])
      .execute();
    expect(await findFounderStoryPath(founder, database().db)).toBe('/blog/my-story');
  });

  it('falls back to the built-in founder when the account is gone', async () => {
    await writeSetting(database().db, SETTING_KEYS.founderEmail, 'nobody@example.org');
    expect((await getFounderProfile(database().db)).name).toBe('Grace Nakato');
  });
});

describe.each(ENGINES)('founder profile on %s when the database cannot be read', (engine) => {
  const database = useTestDatabase(engine, { migrate: false });

  it('shows the built-in founder and no story, and logs', async () => {
    const logged = vi.spyOn(getLogger(), 'error').mockImplementation(() => undefined);
    const founder = await getFounderProfile(database().db);
    expect(founder.name).toBe('Grace Nakato');
    expect(await findFounderStoryPath(founder, database().db)).toBeNull();
    expect(logged).toHaveBeenCalledTimes(2);
    logged.mockRestore();
  });
});
