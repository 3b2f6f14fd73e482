import fs from 'node:fs';
import path from 'node:path';
import { RouterContextProvider } from 'react-router';
import sharp from 'sharp';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ENGINES, useTestDatabase, type TestDatabase } from '../../../tests/support/databases';
import { staffAs as staff } from '../../../tests/support/staff';
import { DEFAULT_SERVICE_IDS, FEATURES_SHOWN, SERVICE_MESSAGES } from '../../lib/services';
import { serviceSchema, type ServiceInput } from '../../lib/service-schema';
import { CONTENT_UPLOAD_MESSAGES } from '../../lib/uploads';
import { getLogger } from '../platform/logger.server';
import { isStoredImage } from '../media/media.server';
import {
  createService,
  deleteService,
  getService,
  getServiceForAdmin,
  listServices,
  moveService,
  SERVICE_FORM_MAX_BYTES,
  ServiceRuleError,
  serviceSlug,
  updateService,
} from './services.server';
import { saveServiceForm } from '../http/service-form.server';
import { storeImage } from '../media/storage.server';

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
      signLanguage: false,
      easyRead: '',
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

// ---------------------------------------------------------------------------------------------
// The dashboard's Services screens (issue 11).

const IP = '198.51.100.30';
const input = (overrides: Partial<Record<string, string>> = {}): ServiceInput =>
  serviceSchema.parse({
    title: 'Sign Language Club',
    description: 'Weekly sign language practice for families and friends of deaf children.',
    features: 'Weekly meetings\nGames and songs',
    ...overrides,
  });
const picture = async (db: TestDatabase['db'], name: string) => {
  const bytes = await sharp({ create: { width: 800, height: 450, channels: 3, background: '#065f46' } })
    .png()
    .toBuffer();
  return (await storeImage(db, { folder: 'services', originalName: `${name}.png`, bytes })).url;
};

/** A multipart post of the service form, as the browser sends it. */
function servicePost(fields: Record<string, string>, file?: { name: string; type: string; bytes: Uint8Array }) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  if (file) form.append('imageFile', new File([new Uint8Array(file.bytes)], file.name, { type: file.type }));
  return new Request('http://localhost/admin/services/new', { method: 'POST', body: form });
}
/** parseForm wants a Content-Length, as browsers send: the body is read into a buffer first. */
async function withLength(request: Request): Promise<Request> {
  const body = new Uint8Array(await request.arrayBuffer());
  const headers = new Headers(request.headers);
  headers.set('content-length', String(body.byteLength));
  return new Request(request.url, { method: 'POST', headers, body });
}

describe('the service form rules', () => {
  it('words every problem as the form shows it, all at once', () => {
    const issues = serviceSchema.safeParse({
      title: 'x'.repeat(101),
      description: '   ',
      features: Array.from({ length: 13 }, (_, i) => `Feature ${i}`).join('\n'),
      imageUrl: '/media/services/1_a.webp',
      imageAlt: '',
    }).error!.issues;
    const byField = Object.fromEntries(issues.map((issue) => [issue.path[0], issue.message]));
    expect(byField).toEqual({
      title: SERVICE_MESSAGES.titleTooLong,
      description: SERVICE_MESSAGES.descriptionRequired,
      features: SERVICE_MESSAGES.tooManyFeatures,
      imageAlt: SERVICE_MESSAGES.altRequired,
    });
    expect(serviceSchema.safeParse({ ...input(), features: `ok\n${'x'.repeat(161)}` }).error!.issues[0]!.message).toBe(
      SERVICE_MESSAGES.featureTooLong,
    );
    expect(serviceSchema.safeParse({ ...input(), features: '', description: 'd'.repeat(1001) }).error!.issues[0]!.message).toBe(
      SERVICE_MESSAGES.descriptionTooLong,
    );
    expect(serviceSchema.safeParse({ ...input(), features: '', imageUrl: '/media/news/1_a.webp', imageAlt: 'x' }).success).toBe(
      false,
    );
    // A pasted wall of text is refused by its length before it is split.
    expect(serviceSchema.safeParse({ ...input(), features: '\n'.repeat(100_000) }).error!.issues[0]!.message).toBe(
      SERVICE_MESSAGES.tooManyFeatures,
    );
  });

  it('reads features one per line, trimmed, blank lines dropped', () => {
    expect(input({ features: '  First \r\n\r\n\tSecond\n \n' }).features).toEqual(['First', 'Second']);
  });

  it('makes addresses from titles', () => {
    expect(serviceSchema.parse).toBeDefined();
    expect(serviceSlug('Inclusive Communication & Design')).toBe('inclusive-communication-design');
    expect(serviceSlug('Café Été — Sign & Dance!')).toBe('cafe-ete-sign-dance');
    expect(serviceSlug('手話')).toBe('service');
    expect(serviceSlug('word '.repeat(40)).length).toBeLessThanOrEqual(60);
  });
});

describe.each(ENGINES)('managing services on %s', (engine) => {
  const database = useTestDatabase(engine, { uploads: true });
  const audit = (action: string) =>
    database().db.selectFrom('audit_log').selectAll().where('action', '=', action).orderBy('at', 'desc').execute();
  const positions = async () =>
    (await database().db.selectFrom('services').select(['id', 'position']).orderBy('position').execute()).map(
      (row) => `${row.position}:${row.id}`,
    );

  beforeEach(async () => {
    await database().db.deleteFrom('services').execute();
    await database().db.deleteFrom('audit_log').execute();
  });

  it('adds services at the end under addresses made from their titles, and audits each', async () => {
    const first = await createService(staff('EDITOR'), input(), IP);
    expect(first).toMatchObject({
      id: 'sign-language-club',
      position: 0,
      demo: false,
      features: ['Weekly meetings', 'Games and songs'],
    });
    const second = await createService(staff('ADMIN'), input(), IP);
    expect(second.id).toBe('sign-language-club-2');
    // The course page owns /services/awareness-course.
    expect((await createService(staff('ADMIN'), input({ title: 'Awareness Course' }), IP)).id).toBe('awareness-course-2');
    expect(await positions()).toEqual(['0:sign-language-club', '1:sign-language-club-2', '2:awareness-course-2']);
    expect((await listServices(database().db)).map((s) => s.id)).toEqual([
      'sign-language-club',
      'sign-language-club-2',
      'awareness-course-2',
    ]);
    expect((await getService('sign-language-club-2', database().db))?.title).toBe('Sign Language Club');

    const [entry] = await audit('service.created');
    expect(entry).toMatchObject({ actor_email: 'admin@example.org', target: 'awareness-course-2', ip: IP });
    expect(JSON.parse(entry!.detail)).toEqual({ title: 'Awareness Course' });
    expect(await audit('service.created')).toHaveLength(3);
  });

  it('two services with one title added at once get two addresses', async () => {
    const made = await Promise.all([createService(staff('ADMIN'), input(), IP), createService(staff('EDITOR'), input(), IP)]);
    expect(new Set(made.map((s) => s.id))).toEqual(new Set(['sign-language-club', 'sign-language-club-2']));
  });

  it('refuses every write to roles without the permission, before touching anything', async () => {
    const made = await createService(staff('ADMIN'), input(), IP);
    for (const role of ['AUTHOR', 'VIEWER'] as const) {
      await expect(createService(staff(role), input(), IP)).rejects.toMatchObject({ status: 403 });
      await expect(updateService(staff(role), made.id, input({ title: 'Changed' }), IP)).rejects.toMatchObject({ status: 403 });
      await expect(moveService(staff(role), made.id, 'down', IP)).rejects.toMatchObject({ status: 403 });
    }
    for (const role of ['EDITOR', 'AUTHOR', 'VIEWER'] as const) {
      await expect(deleteService(staff(role), made.id, IP)).rejects.toBeInstanceOf(ServiceRuleError);
    }
    expect((await getServiceForAdmin(made.id))?.title).toBe('Sign Language Club');
    expect(await audit('service.updated')).toHaveLength(0);
    expect(await audit('service.deleted')).toHaveLength(0);
  });

  it('edits words and picture but keeps the address; a replaced picture nobody shows is removed', async () => {
    const oldPicture = await picture(database().db, 'club-old');
    const made = await createService(staff('EDITOR'), input({ imageUrl: oldPicture, imageAlt: 'Children signing' }), IP);
    expect(made.imageUrl).toBe(oldPicture);
    const newPicture = await picture(database().db, 'club-new');
    const updated = await updateService(
      staff('EDITOR'),
      made.id,
      input({ title: 'Family Sign Club', imageUrl: newPicture, imageAlt: 'A family signing' }),
      IP,
    );
    expect(updated).toMatchObject({ id: made.id, title: 'Family Sign Club', imageUrl: newPicture, imageAlt: 'A family signing' });
    expect(await isStoredImage(oldPicture)).toBe(false);
    expect(fs.existsSync(path.join(database().dataDir, 'uploads', oldPicture.slice('/media/'.length)))).toBe(false);
    expect(await isStoredImage(newPicture)).toBe(true);

    // A picture another service also shows stays when one of them lets it go.
    const other = await createService(staff('ADMIN'), input({ title: 'Other', imageUrl: newPicture, imageAlt: 'Same' }), IP);
    await updateService(staff('ADMIN'), other.id, input({ title: 'Other' }), IP);
    expect(await isStoredImage(newPicture)).toBe(true);
    expect((await getServiceForAdmin(other.id))?.imageUrl).toBeNull();

    const [entry] = await audit('service.updated');
    expect(JSON.parse(entry!.detail)).toEqual({ title: 'Other' });
    await expect(updateService(staff('ADMIN'), 'no-such', input(), IP)).rejects.toMatchObject({ status: 404 });
  });

  it('deletes a service with its picture (SUPER_ADMIN and ADMIN only), and audits it', async () => {
    const image = await picture(database().db, 'to-delete');
    const made = await createService(staff('EDITOR'), input({ imageUrl: image, imageAlt: 'x' }), IP);
    await expect(deleteService(staff('EDITOR'), made.id, IP)).rejects.toMatchObject({ status: 403 });
    expect(await deleteService(staff('ADMIN'), made.id, IP)).toMatchObject({ id: made.id });
    expect(await getServiceForAdmin(made.id)).toBeUndefined();
    expect(await isStoredImage(image)).toBe(false);
    expect(JSON.parse((await audit('service.deleted'))[0]!.detail)).toEqual({ title: 'Sign Language Club' });
    await expect(deleteService(staff('SUPER_ADMIN'), made.id, IP)).rejects.toMatchObject({ status: 404 });
    // With the table empty, the public pages fall back to the built-in services (spec §3).
    expect((await listServices(database().db)).map((s) => s.id)).toEqual(DEFAULT_IDS);
  });

  it('moves a service up and down, writing every position again densely, and refuses past either end', async () => {
    for (const title of ['One', 'Two', 'Three']) await createService(staff('ADMIN'), input({ title }), IP);
    // Older data may have ties and gaps; a move leaves 0, 1, 2.
    await database().db.updateTable('services').set({ position: 7 }).where('id', '=', 'three').execute();
    const moved = await moveService(staff('EDITOR'), 'three', 'up', IP);
    expect(moved).toMatchObject({ position: 2, count: 3, service: { id: 'three' } });
    expect(await positions()).toEqual(['0:one', '1:three', '2:two']);
    await moveService(staff('EDITOR'), 'one', 'down', IP);
    expect(await positions()).toEqual(['0:three', '1:one', '2:two']);
    expect((await listServices(database().db)).map((s) => s.id)).toEqual(['three', 'one', 'two']);

    await expect(moveService(staff('EDITOR'), 'three', 'up', IP)).rejects.toThrow(SERVICE_MESSAGES.alreadyFirst('Three'));
    await expect(moveService(staff('EDITOR'), 'two', 'down', IP)).rejects.toThrow(SERVICE_MESSAGES.alreadyLast('Two'));
    await expect(moveService(staff('EDITOR'), 'nothing', 'down', IP)).rejects.toMatchObject({ status: 404 });
    await expect(moveService(staff('EDITOR'), "x' or 1=1", 'down', IP)).rejects.toMatchObject({ status: 404 });

    const entries = await audit('services.reordered');
    expect(entries).toHaveLength(2);
    expect(JSON.parse(entries[0]!.detail)).toEqual({ title: 'One', direction: 'down', order: ['three', 'one', 'two'] });
  });

  it('a move waits for a reorder in progress and moves within its result, not the list before it', async () => {
    for (const title of ['A', 'B', 'C', 'D']) await createService(staff('ADMIN'), input({ title }), IP);
    let move: Promise<unknown> | undefined;
    await database()
      .db.transaction()
      .execute(async (trx) => {
        // Another reorder holds the rows and turns the list round.
        await trx
          .updateTable('services')
          .set((eb) => ({ position: eb.ref('position') }))
          .execute();
        for (const [position, id] of ['d', 'c', 'b', 'a'].entries())
          await trx.updateTable('services').set({ position }).where('id', '=', id).execute();
        move = moveService(staff('EDITOR'), 'a', 'up', IP);
        await new Promise((resolve) => setTimeout(resolve, 300));
      });
    // Read before that commit, 'a' would be first and could not move up.
    await expect(move).resolves.toMatchObject({ position: 3 });
    expect(await positions()).toEqual(['0:d', '1:c', '2:a', '3:b']);
  });

  it('saves the posted form, keeps a picture sent without JavaScript, and words each refusal', async () => {
    const context = new RouterContextProvider();
    const save = async (
      fields: Record<string, string>,
      file?: Parameters<typeof servicePost>[1],
      target = { mode: 'create' } as const,
    ) => saveServiceForm(await withLength(servicePost(fields, file)), context, staff('EDITOR'), target);
    const png = await sharp({ create: { width: 640, height: 360, channels: 3, background: '#1e3a8a' } })
      .png()
      .toBuffer();
    const fields = { title: 'Braille Lessons', description: 'Learn braille with a blind teacher.', features: 'Reading\nWriting' };

    // A picture without its description: stored, and shown again with the one problem.
    const missingAlt = await save({ ...fields, imageAlt: '' }, { name: 'braille.png', type: 'image/png', bytes: png });
    expect(missingAlt).toMatchObject({ ok: false, status: 400 });
    if (missingAlt.ok) throw new Error('expected a failure');
    expect(missingAlt.failure.errors).toMatchObject({ imageAlt: SERVICE_MESSAGES.altRequired });
    const kept = missingAlt.failure.values.imageUrl!;
    expect(kept).toMatch(/^\/media\/services\/[0-9a-f]{32}_braille\.webp$/);
    expect(await isStoredImage(kept)).toBe(true);

    const saved = await save({ ...fields, imageUrl: kept, imageAlt: 'Fingers reading braille' });
    expect(saved).toMatchObject({
      ok: true,
      service: { id: 'braille-lessons', imageUrl: kept, features: ['Reading', 'Writing'] },
    });

    // Not an image: the spec's words; a picture address that is not on file: upload again.
    const notImage = await save(
      { ...fields, imageAlt: 'x' },
      { name: 'x.png', type: 'image/png', bytes: new TextEncoder().encode('nope') },
    );
    expect(notImage).toMatchObject({ ok: false, status: 400, failure: { errors: { imageUrl: CONTENT_UPLOAD_MESSAGES.type } } });
    const gone = await save({ ...fields, imageUrl: '/media/services/1_gone.webp', imageAlt: 'x' });
    expect(gone).toMatchObject({ ok: false, status: 400, failure: { errors: { imageUrl: SERVICE_MESSAGES.imageInvalid } } });
    // A built-in service's own picture needs no upload.
    expect(
      await save({ ...fields, title: 'Talks', imageUrl: '/images/services/inclusion-talks.svg', imageAlt: 'A microphone' }),
    ).toMatchObject({
      ok: true,
    });

    const invalid = await save({ title: '', description: '', features: '' });
    expect(invalid).toMatchObject({
      ok: false,
      status: 400,
      failure: {
        message: SERVICE_MESSAGES.fixErrors,
        errors: { title: SERVICE_MESSAGES.titleRequired, description: SERVICE_MESSAGES.descriptionRequired },
      },
    });
    const missing = await save(fields, undefined, { mode: 'edit', id: 'no-such-service' } as never);
    expect(missing).toMatchObject({ ok: false, status: 404, failure: { message: SERVICE_MESSAGES.notFound } });

    // Larger than the biggest picture allows: refused before it is read.
    const huge = new Request('http://localhost/admin/services/new', {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(SERVICE_FORM_MAX_BYTES * 10) },
      body: 'x',
    });
    const tooLarge = await saveServiceForm(huge, context, staff('EDITOR'), { mode: 'create' });
    expect(tooLarge).toMatchObject({ ok: false, status: 413, failure: { errors: { imageUrl: CONTENT_UPLOAD_MESSAGES.size } } });
  });
});
