import type { Kysely, Selectable } from 'kysely';
import { DEFAULT_SERVICE_IDS, defaultServiceImage, type Service } from '../lib/services.ts';
import { parseList } from './content.server.ts';
import { getDb } from './db/db.server.ts';
import type { Database, ServiceTable } from './db/schema.ts';
import { getLogger } from './logger.server.ts';
import { DEFAULT_SERVICES } from './site-defaults.server.ts';

/** spec §3: the four built-in services, used when none are stored; their pictures are static files. */
export function defaultServices(): Service[] {
  return DEFAULT_SERVICE_IDS.map((id) => {
    const { title, description, features, imageAlt } = DEFAULT_SERVICES[id];
    return { id, title, description, features: [...features], imageUrl: defaultServiceImage(id), imageAlt };
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
      .selectAll()
      .orderBy('position', 'asc')
      .orderBy('created_at', 'desc')
      .orderBy('id', 'asc')
      .execute();
    if (rows.length > 0) return rows.map(toService);
  } catch (error) {
    getLogger().error({ err: error }, 'services could not be read; showing the built-in services');
  }
  return defaultServices();
}

/** One service by id, from the same source the list uses; undefined when there is none. */
export async function getService(id: string, db: Kysely<Database> = getDb()): Promise<Service | undefined> {
  try {
    const row = await db.selectFrom('services').selectAll().where('id', '=', id).executeTakeFirst();
    if (row) return toService(row);
    const stored = await db.selectFrom('services').select('id').limit(1).executeTakeFirst();
    if (stored) return undefined;
  } catch (error) {
    getLogger().error({ err: error }, 'a service could not be read; looking in the built-in services');
  }
  return defaultServices().find((service) => service.id === id);
}
