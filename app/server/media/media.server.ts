import { getDb } from '../db/db.server.ts';
import { getLogger } from '../platform/logger.server.ts';
import { isSafeKey } from './object-store.server.ts';
import { addMissingWidths, getMediaStore, MEDIA_URL_PREFIX } from './storage.server.ts';
import { pruneUnusedVideos } from './video.server.ts';
import { variantUrl } from '../../lib/images.ts';
import { IMAGE_SETTING_KEYS } from '../../lib/site-settings.ts';

// Uploaded images are kept while something shows them: a story, news item or resource, a service,
// a staff member's profile, or a site setting (the founder's photo). Replacing or deleting the owner removes an image nobody else uses;
// images uploaded in a form that was never saved are removed by `pruneUnusedUploads` a day later.

/** How long an upload may wait for its form to be saved before it counts as abandoned. */
export const ABANDONED_AFTER_MS = 24 * 60 * 60 * 1000;

/** The pictures site settings show (their values are JSON strings). */
function settingImages() {
  return getDb().selectFrom('settings').select('value').where('key', 'in', IMAGE_SETTING_KEYS);
}

function settingUrl(json: string): string | undefined {
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

async function isInUse(url: string): Promise<boolean> {
  const db = getDb();
  const [content, service, user, setting, event] = await Promise.all([
    db.selectFrom('content').select('id').where('image_url', '=', url).limit(1).executeTakeFirst(),
    db.selectFrom('services').select('id').where('image_url', '=', url).limit(1).executeTakeFirst(),
    db.selectFrom('system_users').select('id').where('profile_picture', '=', url).limit(1).executeTakeFirst(),
    settingImages().where('value', '=', JSON.stringify(url)).limit(1).executeTakeFirst(),
    // Issue 27: an event's picture.
    db.selectFrom('events').select('id').where('image_url', '=', url).limit(1).executeTakeFirst(),
  ]);
  return Boolean(content || service || user || setting || event);
}

async function removeMedia(media: { id: string; key: string; variants: string }): Promise<void> {
  let widths: number[] = [];
  try {
    const parsed: unknown = JSON.parse(media.variants);
    if (Array.isArray(parsed)) widths = parsed.map(Number).filter(Number.isFinite);
  } catch {
    widths = [];
  }
  const url = MEDIA_URL_PREFIX + media.key;
  const files = [media.key, ...widths.map((w) => variantUrl(url, w).slice(MEDIA_URL_PREFIX.length))];
  const store = getMediaStore();
  for (const file of files) {
    if (!isSafeKey(file)) continue;
    await store.delete(file).catch((error: unknown) => getLogger().warn({ err: error, file }, 'could not remove an image file'));
  }
  await getDb().deleteFrom('media').where('id', '=', media.id).execute();
}

/** The stored record of an uploaded image, by its public URL. */
function findMedia(url: string) {
  if (!url.startsWith(MEDIA_URL_PREFIX)) return Promise.resolve(undefined);
  return getDb()
    .selectFrom('media')
    .select(['id', 'key', 'variants'])
    .where('key', '=', url.slice(MEDIA_URL_PREFIX.length))
    .executeTakeFirst();
}

/** Whether an uploaded image is still stored (a form open for days may name one since removed). */
export async function isStoredImage(url: string): Promise<boolean> {
  return Boolean(await findMedia(url));
}

/** Removes an uploaded image and its responsive copies once nothing shows it any more. */
export async function removeImageIfUnused(url: string | null | undefined): Promise<boolean> {
  if (!url?.startsWith(MEDIA_URL_PREFIX) || (await isInUse(url))) return false;
  const media = await findMedia(url);
  if (!media) return false;
  await removeMedia(media);
  return true;
}

/**
 * Removes uploads older than a day that nothing shows: pictures chosen in a form that was then
 * abandoned. Returns how many were removed.
 */
export async function pruneUnusedUploads(now = Date.now()): Promise<number> {
  const db = getDb();
  const cutoff = new Date(now - ABANDONED_AFTER_MS).toISOString();
  const [media, content, services, users, settings, events] = await Promise.all([
    db.selectFrom('media').select(['id', 'key', 'variants']).where('created_at', '<', cutoff).execute(),
    db.selectFrom('content').select('image_url as url').distinct().where('image_url', 'is not', null).execute(),
    db.selectFrom('services').select('image_url as url').distinct().where('image_url', 'is not', null).execute(),
    db.selectFrom('system_users').select('profile_picture as url').distinct().where('profile_picture', 'is not', null).execute(),
    settingImages().execute(),
    db.selectFrom('events').select('image_url as url').distinct().where('image_url', 'is not', null).execute(),
  ]);
  const shown = new Set([
    ...[...content, ...services, ...users, ...events].map((row) => row.url),
    ...settings.map((row) => settingUrl(row.value)),
  ]);
  let removed = 0;
  for (const item of media) {
    const url = MEDIA_URL_PREFIX + item.key;
    // Asked again one by one: a form may have been saved with it since the list was read.
    if (shown.has(url) || (await isInUse(url))) continue;
    await removeMedia(item);
    removed += 1;
  }
  if (removed > 0) getLogger().info({ removed }, 'removed abandoned uploads');
  return removed;
}

/**
 * The clean-up of abandoned uploads, as a recurring job (bootstrap.server.ts registers it): one row
 * in `jobs`, so it runs once every six hours across all processes and instances, not once in each.
 */
export const UPLOAD_PRUNING_JOB = 'media.prune-abandoned';
export const UPLOAD_PRUNING_EVERY_MS = 6 * 60 * 60 * 1000;

export async function runUploadPruning(): Promise<void> {
  await pruneUnusedUploads();
  // Issue 14: sign-language videos follow the same rule (decision 020).
  await pruneUnusedVideos();
}

/** The `media.widths` job: pictures stored before a responsive width existed are given it (issue 24). */
export async function runResponsiveWidths(): Promise<void> {
  const completed = await addMissingWidths(getDb());
  if (completed > 0) getLogger().info({ completed }, 'gave stored pictures their missing responsive widths');
}
