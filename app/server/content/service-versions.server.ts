import type { Kysely, Selectable } from 'kysely';
import { can } from '../../lib/permissions.ts';
import { SERVICE_MESSAGES, type Service } from '../../lib/services.ts';
import { SERVICE_VERSION_MESSAGES, type ServiceVersion, type ServiceVersionInput } from '../../lib/service-versions.ts';
import { isVersionLanguage, type VersionIntent, type VersionLanguage } from '../../lib/versions.ts';
import type { Database, ServiceTranslationTable } from '../db/schema.ts';
import { getDb } from '../db/db.server.ts';
import { recordAudit } from '../platform/audit.server.ts';
import { nowIso } from '../platform/ids.server.ts';
import type { StaffUser } from '../staff/auth.server.ts';
import { parseList } from './content.server.ts';
import { getServiceForAdmin, ServiceRuleError } from './services.server.ts';

// Issue 26 item 4, for services (decision 033): a service's Luganda and Swahili versions, one row of
// service_translations per service and language, drafted and published on its own. Editing them
// takes what editing the service takes (services:edit); every write is audited and checked against
// the version the form was opened at (409, as content).

function toVersion(row: Selectable<ServiceTranslationTable>): ServiceVersion {
  return {
    language: row.language as VersionLanguage,
    title: row.title,
    description: row.description,
    features: parseList(row.features),
    easyRead: row.easy_read ?? '',
    status: row.status === 'published' ? 'published' : 'draft',
    version: Number(row.version),
    updatedAt: row.updated_at,
  };
}

/** The versions a service has, by language. */
export async function listServiceVersions(serviceId: string, db: Kysely<Database> = getDb()): Promise<ServiceVersion[]> {
  const rows = await db.selectFrom('service_translations').selectAll().where('service_id', '=', serviceId).execute();
  return rows.filter((row) => isVersionLanguage(row.language)).map(toVersion);
}

export async function getServiceVersion(
  serviceId: string,
  language: VersionLanguage,
  db: Kysely<Database> = getDb(),
): Promise<ServiceVersion | undefined> {
  const row = await db
    .selectFrom('service_translations')
    .selectAll()
    .where('service_id', '=', serviceId)
    .where('language', '=', language)
    .executeTakeFirst();
  return row ? toVersion(row) : undefined;
}

/** A published version's words, for the public pages in that language. */
export async function readPublishedServiceVersions(
  language: string,
  db: Kysely<Database> = getDb(),
): Promise<Map<string, ServiceVersion>> {
  if (!isVersionLanguage(language)) return new Map();
  const rows = await db
    .selectFrom('service_translations')
    .selectAll()
    .where('language', '=', language)
    .where('status', '=', 'published')
    .execute();
  return new Map(rows.map((row) => [row.service_id, toVersion(row)]));
}

/**
 * Saves a version (as a draft, or published), or unpublishes it, in one transaction with its audit
 * entry. `expectedVersion`: the version the form was opened at (undefined for a form that opened on no
 * version); a different stored one is a 409 and changes nothing.
 */
export async function saveServiceVersion(options: {
  actor: StaffUser;
  serviceId: string;
  language: string;
  intent: VersionIntent;
  input?: ServiceVersionInput | undefined;
  expectedVersion: number | undefined;
  ip: string;
}): Promise<ServiceVersion> {
  const { actor, serviceId, language, intent, input, expectedVersion, ip } = options;
  if (!can(actor.role, 'services:edit')) throw new ServiceRuleError(SERVICE_MESSAGES.forbidden, 403);
  if (!isVersionLanguage(language)) throw new ServiceRuleError(SERVICE_VERSION_MESSAGES.unknownLanguage, 404);
  const service = await getServiceForAdmin(serviceId);
  if (!service) throw new ServiceRuleError(SERVICE_MESSAGES.notFound, 404);
  return getDb()
    .transaction()
    .execute(async (trx) => {
      // The row is locked (PostgreSQL) or the database written (SQLite) before it is compared.
      await trx
        .updateTable('service_translations')
        .set((eb) => ({ version: eb.ref('version') }))
        .where('service_id', '=', serviceId)
        .where('language', '=', language)
        .execute();
      const current = await getServiceVersion(serviceId, language, trx);
      if ((current?.version ?? 0) !== (expectedVersion ?? 0)) throw new ServiceRuleError(SERVICE_VERSION_MESSAGES.conflict, 409);
      const now = nowIso();
      if (intent === 'unpublish') {
        if (!current) throw new ServiceRuleError(SERVICE_VERSION_MESSAGES.noVersion, 400);
        await trx
          .updateTable('service_translations')
          .set({ status: 'draft', version: current.version + 1, updated_by: actor.email, updated_at: now })
          .where('service_id', '=', serviceId)
          .where('language', '=', language)
          .execute();
      } else {
        if (!input) throw new ServiceRuleError(SERVICE_MESSAGES.fixErrors, 400);
        const words = {
          title: input.title,
          description: input.description,
          features: JSON.stringify(input.features),
          easy_read: input.easyRead || null,
          status: intent === 'publish' ? ('published' as const) : ('draft' as const),
          updated_by: actor.email,
          updated_at: now,
          ...(intent === 'publish' ? { published_at: now } : {}),
        };
        if (current)
          await trx
            .updateTable('service_translations')
            .set({ ...words, version: current.version + 1 })
            .where('service_id', '=', serviceId)
            .where('language', '=', language)
            .execute();
        else {
          // Two first saves at once: the one that inserts second finds the row there, as a stale form would.
          const inserted = await trx
            .insertInto('service_translations')
            .values({ service_id: serviceId, language, ...words, version: 1, created_at: now })
            .onConflict((oc) => oc.columns(['service_id', 'language']).doNothing())
            .executeTakeFirst();
          if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0)
            throw new ServiceRuleError(SERVICE_VERSION_MESSAGES.conflict, 409);
        }
      }
      const action =
        intent === 'publish'
          ? 'service.version_published'
          : intent === 'unpublish'
            ? 'service.version_unpublished'
            : 'service.version_saved';
      await recordAudit({ actor: actor.email, action, target: serviceId, ip, detail: { language, title: service.title } }, trx);
      return (await getServiceVersion(serviceId, language, trx))!;
    });
}

/**
 * Services in a page's language: each with a published version in it shows that version's words;
 * the others keep their English words, marked `textLanguage: 'en'` so the page says so (issue 26 item 5).
 */
export async function servicesInLanguage<T extends Service>(
  services: T[],
  language: string,
  db: Kysely<Database> = getDb(),
): Promise<T[]> {
  if (language === 'en' || services.length === 0) return services;
  const versions = await readPublishedServiceVersions(language, db);
  return services.map((service) => {
    const version = versions.get(service.id);
    if (!version) return { ...service, textLanguage: 'en' };
    return {
      ...service,
      title: version.title,
      description: version.description,
      features: version.features,
      easyRead: version.easyRead || service.easyRead,
      textLanguage: language,
    };
  });
}
