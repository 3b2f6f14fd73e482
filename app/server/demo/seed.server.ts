import fs from 'node:fs';
import path from 'node:path';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { SEED_ARTICLES, SEED_AUTHORS, type SeedImage } from './seed-data.ts';
import { COLLECTION_INFO, isDashboardCollection, type Collection } from '../../lib/collections.ts';
import { DEFAULT_FOUNDER } from '../site/site-defaults.server.ts';
import { renderSeedImageSvg } from './seed-images.ts';
import { newContentId, newId, nowIso } from '../platform/ids.server.ts';
import { generatePassword, hashPassword } from '../staff/passwords.server.ts';
import { storedBody } from '../platform/sanitize.server.ts';
import type { RevisionSnapshot } from '../../lib/revisions.ts';
import { loadSharp, storeImage, type StoredImage } from '../media/storage.server.ts';
import { SETTING_KEYS, writeSetting } from '../platform/settings.server.ts';
import { settingKey } from '../../lib/site-settings.ts';
import { defaultServices } from '../content/services.server.ts';
import { SEED_TRANSLATIONS } from './seed-translations.ts';

export interface SuperAdminResult {
  created: boolean;
  email: string;
  /** Only when the password was generated here; start-up hands it over through `passwordFile`, never the log. */
  generatedPassword?: string;
}

/** Creates the super admin account on first start; later starts leave it as it is. */
export async function ensureSuperAdmin(
  db: Kysely<Database>,
  options: {
    email: string;
    password?: string | undefined;
    /** Where a generated password is written (owner-only), before the account exists, so it is never lost. */
    passwordFile?: string;
  },
): Promise<SuperAdminResult> {
  const email = options.email.toLowerCase();
  const existing = await db.selectFrom('system_users').select(['id', 'role']).where('email', '=', email).executeTakeFirst();
  if (existing) {
    if (existing.role !== 'SUPER_ADMIN') {
      await db
        .updateTable('system_users')
        .set({ role: 'SUPER_ADMIN', updated_at: nowIso() })
        .where('id', '=', existing.id)
        .execute();
    }
    return { created: false, email };
  }
  const generatedPassword = options.password ? undefined : generatePassword();
  if (generatedPassword && options.passwordFile) writePasswordFile(options.passwordFile, email, generatedPassword);
  const now = nowIso();
  try {
    await db
      .insertInto('system_users')
      .values({
        id: newId(),
        name: 'Super Admin',
        email,
        role: 'SUPER_ADMIN',
        bio: '',
        title: '',
        full_bio: '',
        social_links: '{}',
        profile_picture: null,
        password_hash: await hashPassword(options.password ?? generatedPassword!),
        disabled: 0,
        created_at: now,
        updated_at: now,
        updated_by: null,
        last_login: null,
      })
      .execute();
  } catch (error) {
    // A password for an account that was never made would only mislead.
    if (generatedPassword && options.passwordFile) fs.rmSync(options.passwordFile, { force: true });
    throw error;
  }
  await writeSetting(db, SETTING_KEYS.superAdminEmail, email);
  return generatedPassword ? { created: true, email, generatedPassword } : { created: true, email };
}

/** Only the owner may read it (0600): it holds a password until the operator has used it and deleted it. */
function writePasswordFile(file: string, email: string, password: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // A file left from an earlier database may have looser permissions; a new one gets 0600 from the start.
  fs.rmSync(file, { force: true });
  fs.writeFileSync(
    file,
    [
      `The first super admin account of this website was created on ${nowIso()} with this password:`,
      '',
      `  email:    ${email}`,
      `  password: ${password}`,
      '',
      'Sign in at /admin, change the password, then DELETE THIS FILE.',
      '',
    ].join('\n'),
    { mode: 0o600, flag: 'wx' },
  );
}

async function seedImage(db: Kysely<Database>, folder: Collection, name: string, image: SeedImage) {
  const svg = renderSeedImageSvg(image, 1200, 675);
  const sharp = await loadSharp();
  const bytes = await sharp(Buffer.from(svg)).png().toBuffer();
  return storeImage(db, { folder, originalName: `${name}.png`, bytes });
}

/** The settings flag that says the built-in services were stored (once per database). */
export const BUILT_IN_SERVICES_STORED = 'built_in_services_stored_at';

/**
 * spec §3's four built-in services become stored services on first start, whatever DEMO_CONTENT says:
 * they are the organisation's own (demo = 0), which staff then edit, reorder or delete on the
 * Services screen, with their static pictures (public/images/services). Runs once per database (a
 * flag in settings); a database that already stores services (an earlier demo seed stored these
 * four) only gets the flag. An empty table later still shows the built-in ones (spec §3's fallback).
 */
export async function storeBuiltInServices(db: Kysely<Database>): Promise<{ stored: number }> {
  return db.transaction().execute(async (trx) => {
    const done = await trx.selectFrom('settings').select('key').where('key', '=', BUILT_IN_SERVICES_STORED).executeTakeFirst();
    if (done) return { stored: 0 };
    const existing = await trx.selectFrom('services').select('id').limit(1).executeTakeFirst();
    let stored = 0;
    if (!existing) {
      const now = nowIso();
      for (const [position, service] of defaultServices().entries()) {
        const result = await trx
          .insertInto('services')
          .values({
            id: service.id,
            title: service.title,
            description: service.description,
            features: JSON.stringify(service.features),
            image_url: service.imageUrl,
            image_alt: service.imageAlt,
            easy_read: service.easyRead || null,
            position,
            demo: 0,
            created_at: now,
            updated_at: now,
          })
          // Two processes starting at once: the second finds them stored.
          .onConflict((oc) => oc.column('id').doNothing())
          .executeTakeFirst();
        stored += Number(result.numInsertedOrUpdatedRows ?? 0);
      }
    }
    await writeSetting(trx, BUILT_IN_SERVICES_STORED, nowIso());
    return { stored };
  });
}

/**
 * Fills an empty site with demo stories, news and resources and the demo staff who "wrote" them, so
 * it is alive on first start; start-up calls it only when DEMO_CONTENT is on. Every row it adds is
 * marked demo = 1, so the super admin can remove the demo in one action (demo.server.ts). Runs once
 * per database: a flag in settings stops it from running again, even after staff delete the demo.
 */
/** Issue 27: the demo's upcoming trainings (times in UTC: 06:00Z is 09:00 in Kampala). */
const SEED_EVENTS = [
  {
    slug: 'sign-language-for-parents',
    title: 'Ugandan Sign Language for parents: first steps',
    summary:
      'Four hours with a Deaf teacher for parents and carers of deaf children: greetings, family signs and everyday conversation.',
    description:
      '<p>A relaxed morning for parents, grandparents and carers of deaf and hard-of-hearing children. A Deaf teacher of Ugandan Sign Language leads it, with a hearing interpreter for questions.</p><ul><li>Greetings, names and family signs</li><li>Signs for home, school and feelings</li><li>How to keep learning together at home</li></ul><p>Children are welcome; there is a play corner with a signing volunteer.</p>',
    daysAhead: 14,
    startUtc: '06:00',
    endUtc: '10:00',
    place: 'TDG Uganda training room, Mukono',
    onlineUrl: '',
    capacity: 20,
    captioning: false,
    stepFree: true,
  },
  {
    slug: 'deaf-awareness-for-employers',
    title: 'Deaf awareness for employers',
    summary: 'A half-day course for managers and HR teams: recruiting, interviewing and working alongside deaf colleagues.',
    description:
      '<p>What employers in Uganda need to know to recruit and keep deaf and hard-of-hearing staff: the law, reasonable adjustments, booking interpreters and simple changes to meetings.</p><p>Led by Deaf trainers who have worked in banking, retail and NGOs.</p>',
    daysAhead: 30,
    startUtc: '07:00',
    endUtc: '11:00',
    place: 'Kampala, Nakasero (address sent with your place)',
    onlineUrl: 'https://meet.example.org/tdg-employers',
    capacity: 30,
    captioning: true,
    stepFree: true,
  },
  {
    slug: 'sign-language-for-teachers',
    title: 'Sign language in the classroom: a course for teachers',
    summary: 'Classroom signs, visual teaching and working with an interpreter, for primary and secondary teachers.',
    description:
      '<p>For teachers with deaf or hard-of-hearing pupils in an ordinary class. You will learn the signs a lesson needs, how to make teaching visual, and how to work with an interpreter or a note-taker.</p>',
    daysAhead: 45,
    startUtc: '06:00',
    endUtc: '13:00',
    place: 'Mukono Teachers College, Hall B',
    onlineUrl: '',
    capacity: 25,
    captioning: false,
    stepFree: false,
  },
] as const;

/** The first version in a demo item's history: the one its author published. */
async function storeFirstRevision(
  trx: Transaction<Database>,
  contentId: string,
  author: { email: string; name: string },
  at: string,
  snapshot: RevisionSnapshot,
) {
  await trx
    .insertInto('content_revisions')
    .values({
      id: newId(),
      content_id: contentId,
      number: 1,
      kind: 'published',
      actor_email: author.email,
      actor_name: author.name,
      snapshot: JSON.stringify(snapshot),
      created_at: at,
    })
    .execute();
}

export async function seedDemoContent(db: Kysely<Database>): Promise<{ seeded: boolean; articles: number }> {
  const already = await db.selectFrom('settings').select('key').where('key', '=', SETTING_KEYS.demoSeededAt).executeTakeFirst();
  if (already) return { seeded: false, articles: 0 };
  const existing = await db.selectFrom('content').select(db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  if (Number(existing.n) > 0) {
    await writeSetting(db, SETTING_KEYS.demoSeededAt, nowIso());
    return { seeded: false, articles: 0 };
  }

  // Images are written to disk first; the rows go in one transaction.
  const articleImages: StoredImage[] = [];
  for (const article of SEED_ARTICLES) {
    articleImages.push(await seedImage(db, article.collection, article.title.slice(0, 40), article.image));
  }

  const now = Date.now();
  await db.transaction().execute(async (trx) => {
    for (const author of SEED_AUTHORS) {
      const found = await trx.selectFrom('system_users').select('id').where('email', '=', author.email).executeTakeFirst();
      if (found) continue;
      const at = new Date(now - 200 * 86_400_000).toISOString();
      await trx
        .insertInto('system_users')
        .values({
          id: newId(),
          name: author.name,
          email: author.email,
          role: author.role,
          bio: author.bio,
          title: author.title,
          full_bio: author.fullBio,
          social_links: JSON.stringify({ twitter: author.twitter, linkedin: author.linkedin }),
          profile_picture: null,
          // Demo authors cannot sign in until the super admin sends them a password reset.
          password_hash: null,
          disabled: 0,
          demo: 1,
          created_at: at,
          updated_at: at,
          updated_by: null,
          last_login: null,
        })
        .execute();
    }

    const authors = new Map(SEED_AUTHORS.map((a) => [a.email, a]));
    const stored = new Map<string, { id: string; at: string; image: StoredImage; article: (typeof SEED_ARTICLES)[number] }>();
    for (const [index, article] of SEED_ARTICLES.entries()) {
      const author = authors.get(article.authorEmail)!;
      const at = new Date(now - article.daysAgo * 86_400_000).toISOString();
      const image = articleImages[index]!;
      const id = newContentId(article.title);
      stored.set(article.title, { id, at, image, article });
      const body = storedBody(article.content);
      await trx
        .insertInto('content')
        .values({
          id,
          collection: article.collection,
          title: article.title,
          summary: COLLECTION_INFO[article.collection].summaryColumn === 'summary' ? article.summary : null,
          excerpt: COLLECTION_INFO[article.collection].summaryColumn === 'excerpt' ? article.summary : null,
          // Stored sanitised like every body (decision 202): pages show it as it is.
          ...body,
          category: article.category,
          author: author.name,
          author_email: author.email,
          author_role: author.role,
          image_url: image.url,
          image_alt: article.image.alt,
          tags: JSON.stringify(article.tags),
          easy_read: article.easyRead ?? null,
          status: 'published',
          demo: 1,
          created_at: at,
          published_at: at,
          updated_at: at,
        })
        .execute();
      // A story's history starts with the version its author published (decision 016), as
      // migration 0009 started it for every item stored before it.
      if (isDashboardCollection(article.collection))
        await storeFirstRevision(trx, id, author, at, {
          title: article.title,
          category: article.category,
          tags: article.tags,
          summary: article.summary,
          imageUrl: image.url,
          imageAlt: article.image.alt,
          content: body.content,
          easyRead: article.easyRead ?? '',
          status: 'published',
          scheduledAt: null,
        });
    }
    // Issue 26: the demo's translated stories, each a published version of its English story.
    for (const translation of SEED_TRANSLATIONS) {
      const english = stored.get(translation.of);
      if (!english) continue;
      const author = authors.get(english.article.authorEmail)!;
      const id = newContentId(`${translation.title} ${translation.language}`);
      const summaryColumn = COLLECTION_INFO[english.article.collection].summaryColumn;
      const body = storedBody(translation.content);
      await trx
        .insertInto('content')
        .values({
          id,
          collection: english.article.collection,
          title: translation.title,
          summary: summaryColumn === 'summary' ? translation.summary : null,
          excerpt: summaryColumn === 'excerpt' ? translation.summary : null,
          ...body,
          category: english.article.category,
          author: author.name,
          author_email: author.email,
          author_role: author.role,
          image_url: english.image.url,
          image_alt: translation.imageAlt,
          tags: JSON.stringify(english.article.tags),
          status: 'published',
          demo: 1,
          language: translation.language,
          translation_of: english.id,
          created_at: english.at,
          published_at: english.at,
          updated_at: english.at,
        })
        .execute();
      // Its history starts with the version its translator published, as every demo story's does.
      if (isDashboardCollection(english.article.collection))
        await storeFirstRevision(trx, id, author, english.at, {
          title: translation.title,
          category: english.article.category,
          tags: english.article.tags,
          summary: translation.summary,
          imageUrl: english.image.url,
          imageAlt: translation.imageAlt,
          content: body.content,
          status: 'published',
          scheduledAt: null,
        });
    }
    // Issue 27: a few upcoming trainings, weeks ahead of the first start, 09:00 in Kampala (UTC+3).
    for (const event of SEED_EVENTS) {
      const day = new Date(now + event.daysAhead * 86_400_000).toISOString().slice(0, 10);
      const at = new Date(now).toISOString();
      await trx
        .insertInto('events')
        .values({
          id: newId(),
          slug: `${event.slug}-${day}`,
          title: event.title,
          summary: event.summary,
          description: storedBody(event.description).content,
          starts_at: `${day}T${event.startUtc}:00.000Z`,
          ends_at: `${day}T${event.endUtc}:00.000Z`,
          place: event.place,
          online_url: event.onlineUrl,
          capacity: event.capacity,
          sign_language: 1,
          captioning: event.captioning ? 1 : 0,
          step_free: event.stepFree ? 1 : 0,
          image_url: null,
          image_alt: null,
          registration_open: 1,
          registration_deadline: null,
          status: 'published',
          demo: 1,
          author_email: null,
          created_at: at,
          updated_at: at,
          updated_by: null,
        })
        .execute();
    }
    await writeSetting(trx, SETTING_KEYS.founderEmail, DEFAULT_FOUNDER.email);
    // Issue 26: the demo shows the site in Luganda and Swahili too (the Super Admin can turn them off).
    await writeSetting(trx, settingKey('languageLg'), 'on');
    await writeSetting(trx, settingKey('languageSw'), 'on');
    await writeSetting(trx, SETTING_KEYS.demoSeededAt, nowIso());
  });
  return { seeded: true, articles: SEED_ARTICLES.length };
}
