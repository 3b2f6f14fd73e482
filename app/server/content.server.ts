import type { Selectable } from 'kysely';
import type { Collection, ContentTable } from './db/schema.ts';
import { getDb } from './db/db.server.ts';
import { searchContent } from './search.server.ts';

/** A published story, news article or resource as the public site reads it (spec §3). */
export interface PublicContent {
  id: string;
  collection: Collection;
  title: string;
  summary: string;
  category: string;
  author: string;
  imageUrl: string | null;
  imageAlt: string;
  tags: string[];
  createdAt: string;
}

export function toPublicContent(row: Selectable<ContentTable>): PublicContent {
  return {
    id: row.id,
    collection: row.collection,
    title: row.title,
    summary: row.summary ?? row.excerpt ?? '',
    category: row.category,
    author: row.author,
    imageUrl: row.image_url,
    imageAlt: row.image_alt ?? '',
    tags: parseList(row.tags),
    createdAt: row.created_at,
  };
}

export function parseList(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

export async function listRecentContent(collection: Collection, limit: number): Promise<PublicContent[]> {
  const { rows } = await searchContent({ collection, limit });
  return rows.map(toPublicContent);
}

export async function countContent(): Promise<Record<Collection, number>> {
  const rows = await getDb()
    .selectFrom('content')
    .select(['collection', (eb) => eb.fn.countAll<number | string>().as('n')])
    .groupBy('collection')
    .execute();
  const counts: Record<Collection, number> = { blogs: 0, news: 0, resources: 0 };
  for (const row of rows) counts[row.collection] = Number(row.n);
  return counts;
}
