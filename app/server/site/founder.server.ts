import type { Kysely } from 'kysely';
import { articlePath, type Collection } from '../../lib/collections.ts';
import { normaliseStoryLink, type SettingField } from '../../lib/site-settings.ts';
import { getDb } from '../db/db.server.ts';
import type { Database } from '../db/schema.ts';
import { getLogger } from '../platform/logger.server.ts';
import { readSiteSettings } from './site-settings.server.ts';
import { DEFAULT_FOUNDER } from './site-defaults.server.ts';

/**
 * The founder as the home and About pages show them (spec §1 founder story, §2 founder profile), and
 * as the author of articles that name none.
 */
export interface FounderProfile {
  name: string;
  /** The founder's staff account (whose stories are theirs), or the built-in founder's address. */
  email: string;
  title: string;
  /** The short story on the home page. */
  bio: string;
  /** The full profile on About Us (and "About the Author"). Plain text; a blank line separates paragraphs. */
  fullBio: string;
  pictureUrl: string | null;
  social: { twitter?: string; linkedin?: string };
  /** The story "Read {name}'s story" leads to, as chosen in Site settings; null: their newest own story. */
  storyLink: string | null;
}

const FOUNDER_FIELDS = [
  'founderName',
  'founderTitle',
  'founderPhoto',
  'founderStory',
  'founderProfile',
  'founderStoryLink',
  'founderX',
  'founderLinkedin',
] as const satisfies readonly SettingField[];

function builtInFounder(): FounderProfile {
  const { name, email, title, fullBio, twitter, linkedin } = DEFAULT_FOUNDER;
  return { name, email, title, bio: fullBio, fullBio, pictureUrl: null, social: { twitter, linkedin }, storyLink: null };
}

/**
 * Site settings' founder (docs/decisions/502-site-settings.md): each field as staff saved it, else as
 * the staff account named by the 'founder_email' setting gives it, else the built-in profile. When
 * the database cannot be read, the built-in profile, so the page never breaks.
 */
export async function getFounderProfile(db: Kysely<Database> = getDb()): Promise<FounderProfile> {
  try {
    const { values: v, founder } = await readSiteSettings(FOUNDER_FIELDS, db);
    const social: FounderProfile['social'] = {};
    if (v.founderX) social.twitter = String(v.founderX);
    if (v.founderLinkedin) social.linkedin = String(v.founderLinkedin);
    return {
      name: String(v.founderName),
      email: founder?.email ?? DEFAULT_FOUNDER.email,
      title: String(v.founderTitle),
      bio: String(v.founderStory),
      fullBio: String(v.founderProfile),
      pictureUrl: v.founderPhoto ? String(v.founderPhoto) : null,
      social,
      storyLink: v.founderStoryLink ? String(v.founderStoryLink) : null,
    };
  } catch (error) {
    getLogger().error({ err: error }, 'the founder profile could not be read; showing the built-in profile');
  }
  return builtInFounder();
}

const ROUTE_COLLECTION: Record<string, Collection> = { blog: 'blogs', news: 'news', resources: 'resources' };

/**
 * The path of the founder's story (docs/decisions/301, 502): the story chosen in Site settings while
 * it exists, else their newest personal-experience story; null when there is none or it cannot be read.
 */
export async function findFounderStoryPath(
  founder: Pick<FounderProfile, 'email'> & { storyLink?: string | null },
  db: Kysely<Database> = getDb(),
): Promise<string | null> {
  try {
    const chosen = founder.storyLink ? normaliseStoryLink(founder.storyLink) : undefined;
    if (chosen) {
      const [, route = '', id = ''] = chosen.split('/');
      const collection = ROUTE_COLLECTION[route];
      const story = collection
        ? await db
            .selectFrom('content')
            .select('id')
            .where('collection', '=', collection)
            .where('id', '=', id)
            .where('status', '=', 'published')
            .where('language', '=', 'en')
            .executeTakeFirst()
        : undefined;
      if (story) return articlePath(collection!, encodeURIComponent(story.id));
    }
    const story = await db
      .selectFrom('content')
      .select('id')
      .where('collection', '=', 'blogs')
      .where('author_email', '=', founder.email)
      .where('category', '=', 'personal-experience')
      .where('status', '=', 'published')
      .where('language', '=', 'en')
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (story) return articlePath('blogs', encodeURIComponent(story.id));
  } catch (error) {
    getLogger().error({ err: error }, "the founder's story could not be read");
  }
  return null;
}
