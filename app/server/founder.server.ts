import type { Kysely } from 'kysely';
import { articlePath } from '../lib/collections.ts';
import { getDb } from './db/db.server.ts';
import type { Database } from './db/schema.ts';
import { getLogger } from './logger.server.ts';
import { readSetting, SETTING_KEYS } from './settings.server.ts';
import { DEFAULT_FOUNDER } from './site-defaults.server.ts';

/** The founder as the home and About pages show them (spec §1 founder story, §2 founder profile). */
export interface FounderProfile {
  name: string;
  email: string;
  title: string;
  bio: string;
  fullBio: string;
  pictureUrl: string | null;
  social: { twitter?: string; linkedin?: string };
}

function builtInFounder(): FounderProfile {
  const { name, email, title, bio, fullBio, twitter, linkedin } = DEFAULT_FOUNDER;
  return { name, email, title, bio, fullBio, pictureUrl: null, social: { twitter, linkedin } };
}

function parseSocial(json: string): FounderProfile['social'] {
  try {
    const value = JSON.parse(json) as Record<string, unknown>;
    const social: FounderProfile['social'] = {};
    if (typeof value.twitter === 'string' && /^https?:\/\//.test(value.twitter)) social.twitter = value.twitter;
    if (typeof value.linkedin === 'string' && /^https?:\/\//.test(value.linkedin)) social.linkedin = value.linkedin;
    return social;
  } catch {
    return {};
  }
}

/**
 * The staff account named by the 'founder_email' setting; the built-in profile of the demo founder
 * when the setting or the account is missing or cannot be read, so the page never breaks.
 */
export async function getFounderProfile(db: Kysely<Database> = getDb()): Promise<FounderProfile> {
  try {
    const email = await readSetting<string>(db, SETTING_KEYS.founderEmail);
    if (typeof email === 'string' && email) {
      const row = await db
        .selectFrom('system_users')
        .select(['name', 'email', 'title', 'bio', 'full_bio', 'profile_picture', 'social_links'])
        .where('email', '=', email.toLowerCase())
        .executeTakeFirst();
      if (row) {
        return {
          name: row.name,
          email: row.email,
          title: row.title,
          bio: row.bio,
          fullBio: row.full_bio || row.bio,
          pictureUrl: row.profile_picture,
          social: parseSocial(row.social_links),
        };
      }
    }
  } catch (error) {
    getLogger().error({ err: error }, 'the founder profile could not be read; showing the built-in profile');
  }
  return builtInFounder();
}

/**
 * The path of the founder's own story: their newest personal-experience story; null when they have
 * none or it cannot be read (docs/decisions/301).
 */
export async function findFounderStoryPath(
  founder: Pick<FounderProfile, 'email'>,
  db: Kysely<Database> = getDb(),
): Promise<string | null> {
  try {
    const story = await db
      .selectFrom('content')
      .select('id')
      .where('collection', '=', 'blogs')
      .where('author_email', '=', founder.email)
      .where('category', '=', 'personal-experience')
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (story) return articlePath('blogs', encodeURIComponent(story.id));
  } catch (error) {
    getLogger().error({ err: error }, "the founder's story could not be read");
  }
  return null;
}
