import type { Kysely, Selectable, Transaction } from 'kysely';
import { z } from 'zod';
import {
  DEFAULT_SERVICE_IDS,
  defaultServiceImage,
  isServiceId,
  SERVICE_FIELDS,
  SERVICE_MESSAGES,
  type AdminService,
  type Service,
  type ServiceErrors,
  type ServiceFormFailure,
  type ServiceView,
} from '../../lib/services.ts';
import { serviceSchema, type ServiceInput } from '../../lib/service-schema.ts';
import { can } from '../../lib/permissions.ts';
import { CONTENT_IMAGE_MAX_BYTES, CONTENT_UPLOAD_MESSAGES } from '../../lib/uploads.ts';
import { TRANSCRIPT_MAX, VIDEO_MESSAGES } from '../../lib/video-upload.ts';
import { CAPTIONS_MAX_BYTES, CAPTIONS_MESSAGES, captionsMissing } from '../../lib/webvtt.ts';
import type { StaffUser } from '../staff/auth.server.ts';
import { recordAudit } from '../platform/audit.server.ts';
import { parseList } from './content.server.ts';
import { getDb } from '../db/db.server.ts';
import type { Database, ServiceTable } from '../db/schema.ts';
import { optionalFile } from '../../lib/forms.ts';
import { nowIso } from '../platform/ids.server.ts';
import { getLogger } from '../platform/logger.server.ts';
import { isStoredImage, removeImageIfUnused } from '../media/media.server.ts';
import { RuleError } from '../platform/rule-error.server.ts';
import { DEFAULT_SERVICES } from '../site/site-defaults.server.ts';
import { storeUploadedImage, UploadRefusedError } from '../media/uploads.server.ts';
import { readSignLanguageMarkup } from '../media/sign-language-markup.server.ts';
import {
  claimVideo,
  postedVideoFormState,
  prepareVideoForSave,
  removeVideoIfUnused,
  stageVideoWrite,
  VIDEO_FORM_FIELDS,
  videoHasCaptions,
  VideoRuleError,
  type PreparedVideo,
} from '../media/video.server.ts';

/** spec §3: the four built-in services, used when none are stored; their pictures are static files. */
export function defaultServices(): Service[] {
  return DEFAULT_SERVICE_IDS.map((id) => {
    const { title, description, features, imageAlt, easyRead = '' } = DEFAULT_SERVICES[id];
    return {
      id,
      title,
      description,
      features: [...features],
      imageUrl: defaultServiceImage(id),
      imageAlt,
      signLanguage: false,
      easyRead,
    };
  });
}

function toService(row: Selectable<ServiceTable>): Service {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    features: parseList(row.features),
    imageUrl: row.image_url,
    imageAlt: row.image_alt ?? '',
    easyRead: row.easy_read ?? '',
  };
}

/**
 * spec §3: the stored services in their set position (newest first among equals); the four
 * built-in defaults when none are stored or the table cannot be read, so the page always has
 * something to show. A failed read is logged.
 */
export async function listServices(db: Kysely<Database> = getDb()): Promise<Service[]> {
  try {
    const rows = await db
      .selectFrom('services')
      // Issue 14: whether its video is one visitors can watch (processed and captioned), for the badge.
      .leftJoin('videos', (join) =>
        join
          .onRef('videos.id', '=', 'services.video_id')
          .on('videos.status', '=', 'ready')
          .on('videos.captions_key', 'is not', null),
      )
      .selectAll('services')
      .select('videos.id as watchable_video')
      .orderBy('services.position', 'asc')
      .orderBy('services.created_at', 'desc')
      .orderBy('services.id', 'asc')
      .execute();
    if (rows.length > 0) return rows.map((row) => ({ ...toService(row), signLanguage: row.watchable_video !== null }));
  } catch (error) {
    getLogger().error({ err: error }, 'services could not be read; showing the built-in services');
  }
  return defaultServices();
}

/**
 * One service by id, from the same source the list uses, with its sign-language video when it is
 * ready and captioned (issue 14); undefined when there is none.
 */
export async function getService(id: string, db: Kysely<Database> = getDb()): Promise<ServiceView | undefined> {
  try {
    const row = await db.selectFrom('services').selectAll().where('id', '=', id).executeTakeFirst();
    if (row)
      return {
        ...toService(row),
        video: await readSignLanguageMarkup(row.video_id, db),
      };
    const stored = await db.selectFrom('services').select('id').limit(1).executeTakeFirst();
    if (stored) return undefined;
  } catch (error) {
    getLogger().error({ err: error }, 'a service could not be read; looking in the built-in services');
  }
  const builtIn = defaultServices().find((service) => service.id === id);
  return builtIn && { ...builtIn, video: null };
}

// ---------------------------------------------------------------------------------------------
// The dashboard's Services screens (issue 11): list, add, edit, delete and reorder, with the rules
// enforced here whatever the screen shows (docs/decisions/503-services-admin.md). Every write is
// audited; a picture nothing shows any more is removed.

/** A refusal of a service rule: 400 bad input, 403 not allowed, 404 no such service. */
export class ServiceRuleError extends RuleError {}

function toAdminService(row: Selectable<ServiceTable>): AdminService {
  return { ...toService(row), position: row.position, demo: row.demo === 1, updatedAt: row.updated_at, videoId: row.video_id };
}

/** The stored services in the order the public page shows them; empty when none are stored (no fallback). */
export async function listServicesForAdmin(db: Kysely<Database> = getDb()): Promise<AdminService[]> {
  const rows = await db
    .selectFrom('services')
    .selectAll()
    .orderBy('position', 'asc')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'asc')
    .execute();
  return rows.map(toAdminService);
}

export async function getServiceForAdmin(id: string, db: Kysely<Database> = getDb()): Promise<AdminService | undefined> {
  if (!isServiceId(id)) return undefined;
  const row = await db.selectFrom('services').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toAdminService(row) : undefined;
}

/** Public addresses the services' own (/services/{id}) must not shadow. */
const RESERVED_IDS = new Set(['awareness-course']);
const SLUG_MAX = 60;

/** A title as an address: lower-case letters and digits joined by single hyphens ('service' when none are left). */
export function serviceSlug(title: string): string {
  const words = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  let slug = '';
  for (const word of words) {
    const next = slug ? `${slug}-${word}` : word;
    if (next.length > SLUG_MAX) break;
    slug = next;
  }
  return slug || words[0]?.slice(0, SLUG_MAX) || 'service';
}

/** The first free id for `title`: its slug, else the slug with -2, -3 … */
async function freeServiceId(db: Kysely<Database>, title: string): Promise<string> {
  const base = serviceSlug(title);
  const rows = await db
    .selectFrom('services')
    .select('id')
    .where((eb) => eb.or([eb('id', '=', base), eb('id', 'like', `${base}-%`)]))
    .execute();
  const taken = new Set(rows.map((row) => row.id));
  let id = base;
  for (let n = 2; taken.has(id) || RESERVED_IDS.has(id); n++) id = `${base}-${n}`;
  return id;
}

function fields(input: ServiceInput) {
  return {
    title: input.title,
    description: input.description,
    features: JSON.stringify(input.features),
    image_url: input.imageUrl || null,
    image_alt: input.imageUrl ? input.imageAlt : null,
    easy_read: input.easyRead || null,
  };
}

function requirePermission(actor: StaffUser, permission: 'services:edit' | 'services:delete'): void {
  if (!can(actor.role, permission)) throw new ServiceRuleError(SERVICE_MESSAGES.forbidden, 403);
}

async function serviceToChange(actor: StaffUser, permission: 'services:edit' | 'services:delete', id: string) {
  requirePermission(actor, permission);
  const existing = await getServiceForAdmin(id);
  if (!existing) throw new ServiceRuleError(SERVICE_MESSAGES.notFound, 404);
  return existing;
}

/** Issue 14: what a save does to the service's video: keep it (undefined), set another, or remove it (null). */
export interface ServiceVideoChange {
  videoId?: string | null | undefined;
  /** The captions and transcript posted for that video, checked (prepareVideoForSave): written by the save. */
  prepared?: PreparedVideo | undefined;
}

/**
 * Issue 14 (WCAG 1.2.2): a service with a video is saved only when its video has captions. Services
 * have no drafts: every save is public at once, so there is no saving now and captioning later.
 */
async function assertCaptioned(trx: Transaction<Database>, videoId: string | null | undefined): Promise<void> {
  const hasCaptions = !!videoId && (await videoHasCaptions(videoId, trx));
  if (captionsMissing({ videoId, goesPublic: true, hasCaptions }))
    throw new ServiceRuleError(CAPTIONS_MESSAGES.requiredForService, 400, 'captions');
}

/** Undoes an attempt at adding a service whose id another took at the same moment. */
class IdTakenError extends Error {}

/** Adds a service at the end of the list, under an id made from its title (its public address). */
export async function createService(
  actor: StaffUser,
  input: ServiceInput,
  ip: string,
  video: ServiceVideoChange = {},
): Promise<AdminService> {
  requirePermission(actor, 'services:edit');
  const db = getDb();
  const videoWrite = await stageVideoWrite(video.prepared);
  try {
    // Two people adding the same title at once: the second insert finds the id taken and tries the next.
    for (let attempt = 0; attempt < 5; attempt++) {
      const id = await freeServiceId(db, input.title);
      const last = await db
        .selectFrom('services')
        .select((eb) => eb.fn.max('position').as('position'))
        .executeTakeFirst();
      const now = nowIso();
      const inserted = await db
        .transaction()
        .execute(async (trx) => {
          await videoWrite.write(trx);
          await assertCaptioned(trx, video.videoId);
          // The same video put on two items at once: the second save waits here for the first, then is refused.
          if (video.videoId) await claimVideo(trx, video.videoId, { table: 'services', id });
          const result = await trx
            .insertInto('services')
            .values({
              id,
              ...fields(input),
              position: last?.position === null || last?.position === undefined ? 0 : Number(last.position) + 1,
              demo: 0,
              video_id: video.videoId ?? null,
              created_at: now,
              updated_at: now,
            })
            .onConflict((oc) => oc.column('id').doNothing())
            .executeTakeFirst();
          // The id was taken meanwhile: nothing of this attempt is kept, the video's captions included.
          if (Number(result.numInsertedOrUpdatedRows ?? 0) === 0) throw new IdTakenError();
          return true;
        })
        .catch((error: unknown) => {
          if (error instanceof IdTakenError) return false;
          throw error;
        });
      if (!inserted) continue;
      await recordAudit({ actor: actor.email, action: 'service.created', target: id, ip, detail: { title: input.title } });
      return (await getServiceForAdmin(id))!;
    }
    throw new Error('no free id for a new service');
  } finally {
    await videoWrite.finish();
  }
}

/** Changes a service's words, picture and video; its id (its public address) stays. */
export async function updateService(
  actor: StaffUser,
  id: string,
  input: ServiceInput,
  ip: string,
  video: ServiceVideoChange = {},
): Promise<AdminService> {
  const existing = await serviceToChange(actor, 'services:edit', id);
  const videoId = video.videoId === undefined ? existing.videoId : video.videoId;
  const videoWrite = await stageVideoWrite(video.prepared);
  await getDb()
    .transaction()
    .execute(async (trx) => {
      await videoWrite.write(trx);
      await assertCaptioned(trx, videoId);
      if (videoId && videoId !== existing.videoId) await claimVideo(trx, videoId, { table: 'services', id });
      await trx
        .updateTable('services')
        .set({ ...fields(input), video_id: videoId, updated_at: nowIso() })
        .where('id', '=', id)
        .execute();
    })
    .finally(videoWrite.finish);
  if (existing.imageUrl && existing.imageUrl !== (input.imageUrl || null)) await removeImageIfUnused(existing.imageUrl);
  // Issue 14: a replaced or removed video goes at once, like a picture.
  if (existing.videoId && existing.videoId !== videoId) await removeVideoIfUnused(existing.videoId);
  await recordAudit({ actor: actor.email, action: 'service.updated', target: id, ip, detail: { title: input.title } });
  return (await getServiceForAdmin(id))!;
}

export async function deleteService(actor: StaffUser, id: string, ip: string): Promise<AdminService> {
  const existing = await serviceToChange(actor, 'services:delete', id);
  // Its Luganda and Swahili versions go with it.
  await getDb()
    .transaction()
    .execute(async (trx) => {
      await trx.deleteFrom('service_translations').where('service_id', '=', id).execute();
      await trx.deleteFrom('services').where('id', '=', id).execute();
    });
  await removeImageIfUnused(existing.imageUrl);
  await removeVideoIfUnused(existing.videoId);
  await recordAudit({ actor: actor.email, action: 'service.deleted', target: id, ip, detail: { title: existing.title } });
  return existing;
}

export type MoveDirection = 'up' | 'down';

/**
 * Moves a service one place up or down. In one transaction the list is read in its shown order, the
 * two neighbours swap, and every position is written again as 0, 1, 2 … (so ties and gaps left by
 * older data go). The transaction first touches every row, which makes a second reorder wait for this
 * one on both engines instead of reading the list before this one has written it.
 */
export async function moveService(
  actor: StaffUser,
  id: string,
  direction: MoveDirection,
  ip: string,
): Promise<{ service: AdminService; position: number; count: number }> {
  requirePermission(actor, 'services:edit');
  if (!isServiceId(id)) throw new ServiceRuleError(SERVICE_MESSAGES.notFound, 404);
  const result = await getDb()
    .transaction()
    .execute(async (trx) => {
      await trx
        .updateTable('services')
        .set((eb) => ({ position: eb.ref('position') }))
        .execute();
      const order = await listServicesForAdmin(trx);
      const index = order.findIndex((service) => service.id === id);
      const service = order[index];
      if (!service) throw new ServiceRuleError(SERVICE_MESSAGES.notFound, 404);
      const target = direction === 'up' ? index - 1 : index + 1;
      if (target < 0) throw new ServiceRuleError(SERVICE_MESSAGES.alreadyFirst(service.title), 400);
      if (target >= order.length) throw new ServiceRuleError(SERVICE_MESSAGES.alreadyLast(service.title), 400);
      [order[index], order[target]] = [order[target]!, service];
      for (const [position, item] of order.entries()) {
        if (item.position !== position) {
          await trx.updateTable('services').set({ position }).where('id', '=', item.id).execute();
        }
      }
      return {
        service: { ...service, position: target },
        position: target + 1,
        count: order.length,
        order: order.map((s) => s.id),
      };
    });
  await recordAudit({
    actor: actor.email,
    action: 'services.reordered',
    target: id,
    ip,
    detail: { title: result.service.title, direction, order: result.order },
  });
  return { service: result.service, position: result.position, count: result.count };
}

/** The built-in services' own pictures (static files): a form may keep or choose one without uploading. */
const BUILT_IN_PICTURES = new Set(DEFAULT_SERVICE_IDS.map(defaultServiceImage));

/**
 * The service form as posted: its fields, a picture attached to a post made without JavaScript, and
 * (issue 14) the sign-language video, uploaded on its own and named here, its captions and transcript.
 */
export const SERVICE_POST_SCHEMA = serviceSchema.safeExtend({
  imageFile: optionalFile,
  ...VIDEO_FORM_FIELDS,
});

/** The most a service form post may be: the largest picture, the captions, the transcript and room for the words. */
export const SERVICE_FORM_MAX_BYTES = CONTENT_IMAGE_MAX_BYTES + CAPTIONS_MAX_BYTES + TRANSCRIPT_MAX * 3 + 64_000;

export type ServiceFormResult =
  | { ok: true; service: AdminService }
  | { ok: false; status: 400 | 403 | 404 | 411 | 413 | 415 | 500; failure: ServiceFormFailure; headers: Record<string, string> };

/** The service form as read: its fields, or (when they are not valid) what was posted and what is wrong. */
export type ServicePost =
  | { ok: true; values: z.output<typeof SERVICE_POST_SCHEMA> }
  | {
      ok: false;
      values: Record<string, string>;
      files: { imageFile?: File; captionsFile?: File };
      fieldErrors: Record<string, string | undefined>;
    };

/**
 * The most of one posted field a failed form shows again: four times the longest a field may be
 * (the features, 2,500), so a pasted document comes back to be shortened, not as megabytes of page
 * that hold the server while it is written out (the route walk posts 1 MB fields).
 */
export const SERVICE_SHOWN_MAX = 10_000;

/** What a service form that failed shows again: what was posted (or, once checked, the checked values). */
export function shownServiceValues(form: ServicePost): ServiceFormFailure['values'] {
  const values: ServiceFormFailure['values'] = {};
  if (form.ok) {
    const { title, description, features, imageUrl, imageAlt, easyRead } = form.values;
    Object.assign(values, { title, description, features: features.join('\n'), imageUrl, imageAlt, easyRead });
  } else for (const field of SERVICE_FIELDS) values[field] = (form.values[field] ?? '').slice(0, SERVICE_SHOWN_MAX);
  return values;
}

/** The answer to a service form that failed, with its status and the headers it must be sent with. */
export function serviceFormFailure(
  status: Exclude<ServiceFormResult, { ok: true }>['status'],
  message: string,
  values: ServiceFormFailure['values'],
  errors: ServiceErrors = {},
  headers: Record<string, string> = {},
  video?: ServiceFormFailure['video'],
): ServiceFormResult {
  return {
    ok: false,
    status,
    failure: { ok: false, message, errors: { ...errors, form: message }, values, ...(video ? { video } : {}) },
    headers,
  };
}

/**
 * Checks and saves the service form (the service-new and service-edit actions, with or without
 * JavaScript) in one call. A picture attached to a plain post is stored first, even when another field
 * is wrong, so the form comes back showing it and the retry need not choose it again. The captions and
 * transcript of its video are checked first and written only by the save itself, in the transaction
 * that writes the service and its audit entry.
 */
export async function saveServicePost(
  form: ServicePost,
  actor: StaffUser,
  target: { mode: 'create' } | { mode: 'edit'; id: string },
  ip: string,
): Promise<ServiceFormResult> {
  const values = shownServiceValues(form);
  // The video the form shows again after a failure, once the post is read.
  let video: ServiceFormFailure['video'];
  const failure = (status: Exclude<ServiceFormResult, { ok: true }>['status'], message: string, errors: ServiceErrors = {}) =>
    serviceFormFailure(status, message, values, errors, {}, video);

  // Issue 14: a form that shows the video field always posts `videoId` ('' for none); one that does
  // not (an older page) leaves the service's video as it is. Captions and transcript are checked here
  // for someone who may save the service (anyone else is refused below) and written by the save
  // itself: a refused save changes nothing.
  const serviceId = target.mode === 'edit' ? target.id : undefined;
  const postedVideoId = form.values.videoId;
  const videoErrors: ServiceErrors = {};
  let videoId: string | null | undefined;
  let prepared: PreparedVideo | undefined;
  if (postedVideoId !== undefined) {
    videoId = postedVideoId.trim() || null;
    const transcript = form.values.transcript;
    const maySave =
      can(actor.role, 'services:edit') && (serviceId === undefined || (await getServiceForAdmin(serviceId)) !== undefined);
    if (videoId && maySave)
      try {
        prepared = await prepareVideoForSave({
          actor,
          videoId,
          contentId: undefined,
          serviceId,
          captions: form.ok ? form.values.captionsFile : form.files.captionsFile,
          transcript,
        });
      } catch (error) {
        if (!(error instanceof VideoRuleError)) throw error;
        videoErrors[(error.field ?? 'video') as 'video' | 'captions' | 'transcript'] = error.message;
      }
    video = { state: videoId ? await postedVideoFormState(actor, videoId, { serviceId }) : null, transcript: transcript ?? '' };
  }

  const file = form.ok ? form.values.imageFile : form.files.imageFile;
  if (file) {
    try {
      values.imageUrl = await storeUploadedImage(file, {
        folder: 'services',
        maxBytes: CONTENT_IMAGE_MAX_BYTES,
        messages: CONTENT_UPLOAD_MESSAGES,
        uploadedBy: actor.email,
      });
    } catch (error) {
      if (!(error instanceof UploadRefusedError)) throw error;
      const others = form.ok ? {} : (form.fieldErrors as ServiceErrors);
      return failure(error.status === 500 ? 500 : 400, error.message, { ...others, ...videoErrors, imageUrl: error.message });
    }
  }
  // A picture sent with the form (without JavaScript) needs its description too.
  const altMissing = file && !values.imageAlt?.trim() ? { imageAlt: SERVICE_MESSAGES.altRequired } : {};
  if (!form.ok) {
    const { videoId: badVideoId, ...fieldErrors } = form.fieldErrors as ServiceErrors & { videoId?: string };
    const unknownVideo = badVideoId ? { video: VIDEO_MESSAGES.notFound } : {};
    return failure(400, SERVICE_MESSAGES.fixErrors, { ...altMissing, ...fieldErrors, ...unknownVideo, ...videoErrors });
  }
  if ((file && altMissing.imageAlt) || Object.keys(videoErrors).length > 0)
    return failure(400, SERVICE_MESSAGES.fixErrors, { ...altMissing, ...videoErrors });
  const { imageFile: _, videoId: _video, captionsFile: _captions, transcript: _transcript, ...input } = form.values;
  if (file && values.imageUrl) input.imageUrl = values.imageUrl;

  try {
    const current = serviceId === undefined ? undefined : await serviceToChange(actor, 'services:edit', serviceId);
    // Kept as it is when the service already shows it; a newly chosen one must still be on file.
    if (
      input.imageUrl &&
      !file &&
      input.imageUrl !== current?.imageUrl &&
      !BUILT_IN_PICTURES.has(input.imageUrl) &&
      !(await isStoredImage(input.imageUrl))
    )
      return failure(400, SERVICE_MESSAGES.fixErrors, { imageUrl: SERVICE_MESSAGES.imageInvalid });
    const service =
      serviceId === undefined
        ? await createService(actor, input, ip, { videoId, prepared })
        : await updateService(actor, serviceId, input, ip, { videoId, prepared });
    return { ok: true, service };
  } catch (error) {
    if (error instanceof ServiceRuleError) {
      // A service with a video is saved only with its captions (a post that skipped the browser's check).
      if (error.field === 'captions') return failure(400, SERVICE_MESSAGES.fixErrors, { captions: error.message });
      return failure(error.status as 403 | 404, error.message);
    }
    // Another item took the video while this one was saved (claimVideo).
    if (error instanceof VideoRuleError) return failure(400, SERVICE_MESSAGES.fixErrors, { video: error.message });
    getLogger().error({ err: error }, 'saving a service failed');
    return failure(500, SERVICE_MESSAGES.saveFailed);
  }
}

/** The list's Move up / Move down form. */
export const moveServiceSchema = z.object({
  intent: z.literal('move'),
  id: z.string().max(100),
  direction: z.enum(['up', 'down']),
});
