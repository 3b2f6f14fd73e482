import type { Kysely } from 'kysely';
import { COLLECTIONS, type Collection } from '../lib/collections.ts';
import { can, type Role } from '../lib/permissions.ts';
import { getDb } from './db/db.server.ts';
import type { Database } from './db/schema.ts';
import { hasDemoContent } from './demo/demo.server.ts';

// Issue 11: the dashboard's first screen, what waits for the role. Each figure is asked for only when
// the role may see it, and each is one small indexed query (docs/decisions/504-demo-content-and-overview.md).

/** How many of the newest published items the overview lists. */
export const OVERVIEW_LATEST = 5;
/** "New" subscribers: those who joined in this many days. */
export const NEW_SUBSCRIBER_DAYS = 30;

export interface OverviewItem {
  id: string;
  collection: Collection;
  title: string;
  author: string;
  publishedAt: string;
}

export interface Overview {
  /** Contact messages nobody has opened yet (status 'new'); only for messages:manage. */
  unreadMessages?: number;
  /** Newsletter subscribers; only for subscribers:view. */
  subscribers?: { recent: number; total: number; days: number };
  /** The newest published stories, news and resources; only for the roles that write content. */
  latest?: OverviewItem[];
  /** Whether demo content is left to remove; only for demo:remove. */
  demoContent?: boolean;
  /** Issue 27: upcoming published events, their places taken and people waiting; only for events:manage. */
  events?: { upcoming: number; taken: number; waiting: number };
}

/** Issue 27: events not yet ended, with the places taken and the people waiting across them. */
async function countEvents(db: Kysely<Database>, now: number) {
  const at = new Date(now).toISOString();
  const [events, waiting] = await Promise.all([
    db
      .selectFrom('events')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('taken').as('taken')])
      .where('status', '=', 'published')
      .where('ends_at', '>', at)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('event_registrations')
      .innerJoin('events', 'events.id', 'event_registrations.event_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('events.status', '=', 'published')
      .where('events.ends_at', '>', at)
      .where('event_registrations.status', '=', 'waiting')
      .executeTakeFirstOrThrow(),
  ]);
  return { upcoming: Number(events.n), taken: Number(events.taken ?? 0), waiting: Number(waiting.n) };
}

async function countUnreadMessages(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('contacts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', '=', 'new')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Confirmed subscribers only (issue 12: the others receive nothing); "new" by when they confirmed. */
async function countSubscribers(db: Kysely<Database>, now: number) {
  const since = new Date(now - NEW_SUBSCRIBER_DAYS * 86_400_000).toISOString();
  const row = await db
    .selectFrom('newsletter_subscribers')
    .select((eb) => [
      eb.fn.countAll<number>().as('total'),
      eb.fn.sum<number>(eb.case().when('confirmed_at', '>=', since).then(eb.lit(1)).else(eb.lit(0)).end()).as('recent'),
    ])
    .where('status', '=', 'confirmed')
    .executeTakeFirstOrThrow();
  return { recent: Number(row.recent ?? 0), total: Number(row.total), days: NEW_SUBSCRIBER_DAYS };
}

/**
 * The newest published items across stories, news and resources: the newest few of each collection
 * (each read along its (collection, created_at, id) index), merged. Newest first, as the lists are.
 */
export async function listLatestPublished(db: Kysely<Database>, limit = OVERVIEW_LATEST): Promise<OverviewItem[]> {
  const perCollection = await Promise.all(
    COLLECTIONS.map((collection) =>
      db
        .selectFrom('content')
        .select(['id', 'collection', 'title', 'author', 'created_at', 'published_at'])
        .where('collection', '=', collection)
        .where('status', '=', 'published')
        // Issue 26: an item once, in English (its versions are not items of their own).
        .where('language', '=', 'en')
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute(),
    ),
  );
  return perCollection
    .flat()
    .sort((a, b) => (a.created_at === b.created_at ? b.id.localeCompare(a.id) : b.created_at.localeCompare(a.created_at)))
    .slice(0, limit)
    .map((row) => ({
      id: row.id,
      collection: row.collection,
      title: row.title,
      author: row.author,
      publishedAt: row.published_at,
    }));
}

/** What the overview shows `role`, asked for in parallel. */
export async function getOverview(role: Role, db: Kysely<Database> = getDb(), now = Date.now()): Promise<Overview> {
  const [unreadMessages, subscribers, latest, demoContent, events] = await Promise.all([
    can(role, 'messages:manage') ? countUnreadMessages(db) : undefined,
    can(role, 'subscribers:view') ? countSubscribers(db, now) : undefined,
    can(role, 'content:create') ? listLatestPublished(db) : undefined,
    can(role, 'demo:remove') ? hasDemoContent(db) : undefined,
    can(role, 'events:manage') ? countEvents(db, now) : undefined,
  ]);
  const overview: Overview = {};
  if (unreadMessages !== undefined) overview.unreadMessages = unreadMessages;
  if (subscribers) overview.subscribers = subscribers;
  if (latest) overview.latest = latest;
  if (demoContent !== undefined) overview.demoContent = demoContent;
  if (events) overview.events = events;
  return overview;
}
