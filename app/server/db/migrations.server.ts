import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';
import type { Engine } from './db.server.ts';
import { resanitiseStoredBodies } from '../sanitize.server.ts';
import { SEED_ARTICLES, SEED_AUTHORS } from './seed-data.ts';

// One set of migrations for both engines. Kysely runs each PostgreSQL migration in a transaction; on
// SQLite it does not, so `inTransaction` wraps the body there. Dialect differences (full-text search)
// are branched on `engine` inside a migration, never in separate files.

type Db = Kysely<any>; // migrations describe the past, so they never use the current typed schema

function inTransaction(db: Db, body: (trx: Db) => Promise<void>): Promise<void> {
  return db.isTransaction ? body(db) : db.transaction().execute(body);
}

const text = 'text' as const;

function migrations(engine: Engine): Record<string, Migration> {
  return {
    '0001_initial': {
      up: (db) =>
        inTransaction(db, async (trx) => {
          await trx.schema
            .createTable('system_users')
            .addColumn('id', text, (c) => c.primaryKey())
            .addColumn('name', text, (c) => c.notNull())
            .addColumn('email', text, (c) => c.notNull().unique())
            .addColumn('role', text, (c) => c.notNull().defaultTo('VIEWER'))
            .addColumn('bio', text, (c) => c.notNull().defaultTo(''))
            .addColumn('title', text, (c) => c.notNull().defaultTo(''))
            .addColumn('full_bio', text, (c) => c.notNull().defaultTo(''))
            .addColumn('social_links', text, (c) => c.notNull().defaultTo('{}'))
            .addColumn('profile_picture', text)
            .addColumn('password_hash', text)
            .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
            .addColumn('created_at', text, (c) => c.notNull())
            .addColumn('updated_at', text, (c) => c.notNull())
            .addColumn('updated_by', text)
            .addColumn('last_login', text)
            .execute();
          await trx.schema.createIndex('system_users_created_at').on('system_users').column('created_at').execute();

          await trx.schema
            .createTable('sessions')
            .addColumn('id', text, (c) => c.primaryKey())
            // No foreign key: a deleted account's sessions stay, marked ended, so its next request can
            // say why it was signed out (spec §8) before the row is removed.
            .addColumn('user_id', text, (c) => c.notNull())
            .addColumn('remember', 'integer', (c) => c.notNull().defaultTo(0))
            .addColumn('ended_reason', text)
            .addColumn('created_at', text, (c) => c.notNull())
            .addColumn('last_seen_at', text, (c) => c.notNull())
            .addColumn('expires_at', text, (c) => c.notNull())
            .addColumn('ip', text)
            .addColumn('user_agent', text)
            .execute();
          await trx.schema.createIndex('sessions_user_id').on('sessions').column('user_id').execute();
          await trx.schema.createIndex('sessions_expires_at').on('sessions').column('expires_at').execute();

          await trx.schema
            .createTable('content')
            .addColumn('id', text, (c) => c.primaryKey())
            .addColumn('collection', text, (c) => c.notNull().check(sql`collection in ('blogs', 'news', 'resources')`))
            .addColumn('title', text, (c) => c.notNull())
            .addColumn('summary', text)
            .addColumn('excerpt', text)
            .addColumn('content', text, (c) => c.notNull())
            .addColumn('search_text', text, (c) => c.notNull().defaultTo(''))
            .addColumn('category', text, (c) => c.notNull())
            .addColumn('author', text, (c) => c.notNull())
            .addColumn('author_email', text)
            .addColumn('author_role', text)
            .addColumn('image_url', text)
            .addColumn('image_alt', text)
            .addColumn('tags', text, (c) => c.notNull().defaultTo('[]'))
            .addColumn('status', text, (c) => c.notNull().defaultTo('published'))
            .addColumn('created_at', text, (c) => c.notNull())
            .addColumn('published_at', text, (c) => c.notNull())
            .addColumn('updated_at', text, (c) => c.notNull())
            .execute();
          await trx.schema
            .createIndex('content_collection_created_at')
            .on('content')
            .columns(['collection', 'created_at'])
            .execute();
          await trx.schema
            .createIndex('content_collection_category_created_at')
            .on('content')
            .columns(['collection', 'category', 'created_at'])
            .execute();

          if (engine === 'sqlite') {
            await sql`CREATE VIRTUAL TABLE content_fts USING fts5(
              id UNINDEXED, title, summary, body, tags,
              tokenize = 'porter unicode61 remove_diacritics 2'
            )`.execute(trx);
            const row = sql`new.id, new.title, coalesce(new.summary, '') || ' ' || coalesce(new.excerpt, ''), new.search_text, new.tags`;
            await sql`CREATE TRIGGER content_fts_insert AFTER INSERT ON content BEGIN
              INSERT INTO content_fts (id, title, summary, body, tags) VALUES (${row});
            END`.execute(trx);
            await sql`CREATE TRIGGER content_fts_update AFTER UPDATE ON content BEGIN
              DELETE FROM content_fts WHERE id = old.id;
              INSERT INTO content_fts (id, title, summary, body, tags) VALUES (${row});
            END`.execute(trx);
            await sql`CREATE TRIGGER content_fts_delete AFTER DELETE ON content BEGIN
              DELETE FROM content_fts WHERE id = old.id;
            END`.execute(trx);
          } else {
            await sql`ALTER TABLE content ADD COLUMN search tsvector GENERATED ALWAYS AS (
              setweight(to_tsvector('english', title), 'A') ||
              setweight(to_tsvector('english', coalesce(summary, '') || ' ' || coalesce(excerpt, '') || ' ' || tags), 'B') ||
              setweight(to_tsvector('english', search_text), 'C')
            ) STORED`.execute(trx);
            await sql`CREATE INDEX content_search ON content USING GIN (search)`.execute(trx);
          }

          await trx.schema
            .createTable('services')
            .addColumn('id', text, (c) => c.primaryKey())
            .addColumn('title', text, (c) => c.notNull())
            .addColumn('description', text, (c) => c.notNull())
            .addColumn('features', text, (c) => c.notNull().defaultTo('[]'))
            .addColumn('image_url', text)
            .addColumn('image_alt', text)
            .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
            .addColumn('created_at', text, (c) => c.notNull())
            .addColumn('updated_at', text, (c) => c.notNull())
            .execute();

          await trx.schema
            .createTable('contacts')
            .addColumn('id', text, (c) => c.primaryKey())
            .addColumn('name', text, (c) => c.notNull())
            .addColumn('email', text, (c) => c.notNull())
            .addColumn('phone', text)
            .addColumn('subject', text, (c) => c.notNull())
            .addColumn('message', text, (c) => c.notNull())
            .addColumn('created_at', text, (c) => c.notNull())
            .addColumn('read_at', text)
            .execute();
          await trx.schema.createIndex('contacts_created_at').on('contacts').column('created_at').execute();

          await trx.schema
            .createTable('media')
            .addColumn('id', text, (c) => c.primaryKey())
            .addColumn('key', text, (c) => c.notNull().unique())
            .addColumn('folder', text, (c) => c.notNull())
            .addColumn('original_name', text, (c) => c.notNull())
            .addColumn('width', 'integer', (c) => c.notNull())
            .addColumn('height', 'integer', (c) => c.notNull())
            .addColumn('variants', text, (c) => c.notNull().defaultTo('[]'))
            .addColumn('bytes', 'integer', (c) => c.notNull())
            .addColumn('uploaded_by', text)
            .addColumn('created_at', text, (c) => c.notNull())
            .execute();

          await trx.schema
            .createTable('audit_log')
            .addColumn('id', text, (c) => c.primaryKey())
            .addColumn('at', text, (c) => c.notNull())
            .addColumn('actor_email', text)
            .addColumn('action', text, (c) => c.notNull())
            .addColumn('target', text)
            .addColumn('detail', text, (c) => c.notNull().defaultTo('{}'))
            .addColumn('ip', text)
            .execute();
          await trx.schema.createIndex('audit_log_at').on('audit_log').column('at').execute();

          await trx.schema
            .createTable('settings')
            .addColumn('key', text, (c) => c.primaryKey())
            .addColumn('value', text, (c) => c.notNull())
            .addColumn('updated_at', text, (c) => c.notNull())
            .execute();

          await trx.schema
            .createTable('password_reset_tokens')
            .addColumn('token_hash', text, (c) => c.primaryKey())
            .addColumn('user_id', text, (c) => c.notNull().references('system_users.id').onDelete('cascade'))
            .addColumn('created_at', text, (c) => c.notNull())
            .addColumn('expires_at', text, (c) => c.notNull())
            .addColumn('used_at', text)
            .execute();
          await trx.schema.createIndex('password_reset_tokens_user_id').on('password_reset_tokens').column('user_id').execute();

          await trx.schema
            .createTable('mail_outbox')
            .addColumn('id', text, (c) => c.primaryKey())
            .addColumn('to_address', text, (c) => c.notNull())
            .addColumn('subject', text, (c) => c.notNull())
            .addColumn('text_body', text, (c) => c.notNull())
            .addColumn('html_body', text)
            .addColumn('created_at', text, (c) => c.notNull())
            .addColumn('sent_at', text)
            .addColumn('error', text)
            .execute();

          await trx.schema
            .createTable('newsletter_subscribers')
            .addColumn('id', text, (c) => c.primaryKey())
            .addColumn('email', text, (c) => c.notNull().unique())
            .addColumn('source', text)
            .addColumn('created_at', text, (c) => c.notNull())
            .execute();

          await trx.schema
            .createTable('login_attempts')
            .addColumn('id', text, (c) => c.primaryKey())
            .addColumn('email', text, (c) => c.notNull())
            .addColumn('ip', text, (c) => c.notNull())
            .addColumn('at', text, (c) => c.notNull())
            .addColumn('succeeded', 'integer', (c) => c.notNull())
            .execute();
          await trx.schema
            .createIndex('login_attempts_email_ip_at')
            .on('login_attempts')
            .columns(['email', 'ip', 'at'])
            .execute();
          await trx.schema.createIndex('login_attempts_ip_at').on('login_attempts').columns(['ip', 'at']).execute();
        }),
    },
    '0002_content_list_indexes': {
      // Lists are ordered newest first with the id as tie-break; indexes in exactly that order let
      // both engines walk them instead of sorting (deep pages of thousands of items stay fast).
      up: (db) =>
        inTransaction(db, async (trx) => {
          await trx.schema.dropIndex('content_collection_created_at').execute();
          await trx.schema.dropIndex('content_collection_category_created_at').execute();
          await trx.schema
            .createIndex('content_collection_created_id')
            .on('content')
            .columns(['collection', 'created_at', 'id'])
            .execute();
          await trx.schema
            .createIndex('content_collection_category_created_id')
            .on('content')
            .columns(['collection', 'category', 'created_at', 'id'])
            .execute();
        }),
    },
    '0003_search_by_row_number': {
      // SQLite only: the FTS5 table was keyed by the text id, so a broad search read every match's
      // id back out of the index before it could join (about 40 ms for 5,000 matches). Now `content`
      // has a stable integer row number, `seq`, the search index is keyed by it, and matches join
      // through the list indexes alone (docs/decisions/407-search-row-number.md). The index keeps
      // no copy of the text (contentless); only ever asked which rows match.
      up: (db) =>
        engine !== 'sqlite'
          ? Promise.resolve()
          : inTransaction(db, async (trx) => {
              const columns = sql.raw(
                'id, collection, title, summary, excerpt, content, search_text, category, author, author_email, author_role, image_url, image_alt, tags, status, created_at, published_at, updated_at',
              );
              await sql`CREATE TABLE content_next (
                seq integer PRIMARY KEY,
                id text NOT NULL UNIQUE,
                collection text NOT NULL CHECK (collection in ('blogs', 'news', 'resources')),
                title text NOT NULL,
                summary text,
                excerpt text,
                content text NOT NULL,
                search_text text DEFAULT '' NOT NULL,
                category text NOT NULL,
                author text NOT NULL,
                author_email text,
                author_role text,
                image_url text,
                image_alt text,
                tags text DEFAULT '[]' NOT NULL,
                status text DEFAULT 'published' NOT NULL,
                created_at text NOT NULL,
                published_at text NOT NULL,
                updated_at text NOT NULL
              )`.execute(trx);
              await sql`INSERT INTO content_next (seq, ${columns}) SELECT rowid, ${columns} FROM content ORDER BY rowid`.execute(
                trx,
              );
              await sql`DROP TABLE content_fts`.execute(trx);
              await sql`DROP TABLE content`.execute(trx); // its triggers and indexes go with it
              await sql`ALTER TABLE content_next RENAME TO content`.execute(trx);
              await sql`CREATE INDEX content_collection_created_id ON content (collection, created_at, id)`.execute(trx);
              await sql`CREATE INDEX content_collection_category_created_id ON content (collection, category, created_at, id)`.execute(
                trx,
              );
              await sql`CREATE VIRTUAL TABLE content_fts USING fts5(
                title, summary, body, tags,
                content = '', contentless_delete = 1,
                tokenize = 'porter unicode61 remove_diacritics 2'
              )`.execute(trx);
              const fields = (row: 'new' | 'content') =>
                sql.raw(
                  `${row}.seq, ${row}.title, coalesce(${row}.summary, '') || ' ' || coalesce(${row}.excerpt, ''), ${row}.search_text, ${row}.tags`,
                );
              await sql`INSERT INTO content_fts (rowid, title, summary, body, tags) SELECT ${fields('content')} FROM content`.execute(
                trx,
              );
              await sql`CREATE TRIGGER content_fts_insert AFTER INSERT ON content BEGIN
                INSERT INTO content_fts (rowid, title, summary, body, tags) VALUES (${fields('new')});
              END`.execute(trx);
              await sql`CREATE TRIGGER content_fts_update AFTER UPDATE OF seq, title, summary, excerpt, search_text, tags ON content BEGIN
                DELETE FROM content_fts WHERE rowid = old.seq;
                INSERT INTO content_fts (rowid, title, summary, body, tags) VALUES (${fields('new')});
              END`.execute(trx);
              await sql`CREATE TRIGGER content_fts_delete AFTER DELETE ON content BEGIN
                DELETE FROM content_fts WHERE rowid = old.seq;
              END`.execute(trx);
            }),
    },
    '0004_jobs_and_limits': {
      // Background work as rows claimed once across processes (mail first; clean-ups and scheduled
      // publishing later), and rate-limit counters that every process shares, reserved atomically.
      up: (db) =>
        inTransaction(db, async (trx) => {
          await trx.schema
            .createTable('jobs')
            .addColumn('id', text, (c) => c.primaryKey())
            .addColumn('kind', text, (c) => c.notNull())
            .addColumn('payload', text, (c) => c.notNull().defaultTo('{}'))
            // queued → running → done | failed (failed after its last attempt)
            .addColumn('status', text, (c) => c.notNull().defaultTo('queued'))
            .addColumn('run_at', text, (c) => c.notNull())
            .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
            .addColumn('max_attempts', 'integer', (c) => c.notNull().defaultTo(5))
            .addColumn('locked_at', text)
            .addColumn('locked_by', text)
            .addColumn('last_error', text)
            .addColumn('created_at', text, (c) => c.notNull())
            .addColumn('finished_at', text)
            .execute();
          await trx.schema.createIndex('jobs_status_run_at').on('jobs').columns(['status', 'run_at']).execute();

          await trx.schema
            .createTable('rate_limits')
            .addColumn('key', text, (c) => c.primaryKey())
            .addColumn('hits', 'integer', (c) => c.notNull())
            .addColumn('window_started_at', text, (c) => c.notNull())
            .execute();
          await trx.schema.createIndex('rate_limits_window').on('rate_limits').column('window_started_at').execute();

          // Mail that carries a secret (a reset link) loses its body once sent; what was sent stays.
          await trx.schema
            .alterTable('mail_outbox')
            .addColumn('carries_secret', 'integer', (c) => c.notNull().defaultTo(0))
            .execute();
          await trx.schema
            .alterTable('mail_outbox')
            .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
            .execute();
          await trx
            .updateTable('mail_outbox')
            .set({ text_body: '', html_body: null, carries_secret: 1 })
            .where('text_body', 'like', '%/admin/reset-password/%')
            .execute();
        }),
    },
    '0005_sanitise_stored_bodies': {
      // Bodies are now sanitised once, on write, and shown as stored (decision 202), so every body
      // stored before is run through the allow-list (SANITISER_VERSION 1) and its search text is
      // derived again, a batch at a time. It calls whatever sanitiser the code has, deliberately:
      // stored bodies must pass the list pages trust now. A later change to the list adds its own
      // migration that calls resanitiseStoredBodies again.
      up: (db) =>
        inTransaction(db, async (trx) => {
          await resanitiseStoredBodies(trx);
        }),
    },
    '0006_dashboard_runs_the_site': {
      // Issue 11: an inbox with statuses and reply threads, mail with a Reply-To, and a demo flag on
      // what the first start adds, so the super admin can remove the demo in one action. Rows the
      // demo seed added before the flag existed are recognised by the seed's own words.
      up: (db) =>
        inTransaction(db, async (trx) => {
          await trx.schema
            .alterTable('contacts')
            .addColumn('status', text, (c) => c.notNull().defaultTo('new'))
            .execute();
          await trx.schema.alterTable('contacts').addColumn('status_changed_at', text).execute();
          await trx.schema.alterTable('contacts').addColumn('status_changed_by', text).execute();
          await trx.updateTable('contacts').set({ status: 'read' }).where('read_at', 'is not', null).execute();
          await trx.schema.createIndex('contacts_created_at_id').on('contacts').columns(['created_at', 'id']).execute();
          await trx.schema
            .createIndex('contacts_status_created_at_id')
            .on('contacts')
            .columns(['status', 'created_at', 'id'])
            .execute();

          await trx.schema
            .createTable('contact_replies')
            .addColumn('id', text, (c) => c.primaryKey())
            .addColumn('contact_id', text, (c) => c.notNull().references('contacts.id').onDelete('cascade'))
            .addColumn('body', text, (c) => c.notNull())
            .addColumn('sent_by_email', text, (c) => c.notNull())
            .addColumn('sent_by_name', text, (c) => c.notNull())
            .addColumn('mail_id', text)
            .addColumn('created_at', text, (c) => c.notNull())
            .execute();
          await trx.schema
            .createIndex('contact_replies_contact_id')
            .on('contact_replies')
            .columns(['contact_id', 'created_at'])
            .execute();

          await trx.schema.alterTable('mail_outbox').addColumn('reply_to', text).execute();

          for (const table of ['content', 'services', 'system_users']) {
            await trx.schema
              .alterTable(table)
              .addColumn('demo', 'integer', (c) => c.notNull().defaultTo(0))
              .execute();
          }
          const seeded = await trx.selectFrom('settings').select('key').where('key', '=', 'demo_seeded_at').executeTakeFirst();
          if (seeded) {
            const authors = SEED_AUTHORS.map((author) => author.email);
            // Demo staff who never signed in; an account someone has used is the team's now.
            await trx
              .updateTable('system_users')
              .set({ demo: 1 })
              .where('email', 'in', authors)
              .where('last_login', 'is', null)
              .execute();
            for (const titles of chunks(
              SEED_ARTICLES.map((article) => article.title),
              50,
            )) {
              await trx
                .updateTable('content')
                .set({ demo: 1 })
                .where('title', 'in', titles)
                .where('author_email', 'in', authors)
                .execute();
            }
          }
        }),
    },
    '0007_newsletter_double_opt_in': {
      // Issue 12: double opt-in, unsubscribe and sending (docs/decisions/505-newsletter.md). Addresses
      // stored before never confirmed: they become 'pending' with no link out (confirm_sent_at null),
      // so nothing is sent to them and nothing removes them until staff ask them to confirm.
      up: (db) =>
        inTransaction(db, async (trx) => {
          await trx.schema
            .alterTable('newsletter_subscribers')
            .addColumn('status', text, (c) => c.notNull().defaultTo('pending'))
            .execute();
          for (const column of ['confirmed_at', 'unsubscribed_at', 'confirm_token_hash', 'confirm_sent_at'])
            await trx.schema.alterTable('newsletter_subscribers').addColumn(column, text).execute();
          await trx.schema
            .createIndex('newsletter_subscribers_confirm_token')
            .on('newsletter_subscribers')
            .column('confirm_token_hash')
            .unique()
            .execute();
          await trx.schema
            .createIndex('newsletter_subscribers_created_at_id')
            .on('newsletter_subscribers')
            .columns(['created_at', 'id'])
            .execute();
          await trx.schema
            .createIndex('newsletter_subscribers_status_created_at_id')
            .on('newsletter_subscribers')
            .columns(['status', 'created_at', 'id'])
            .execute();

          await trx.schema
            .createTable('newsletter_sends')
            .addColumn('id', text, (c) => c.primaryKey())
            .addColumn('content_id', text, (c) => c.notNull())
            .addColumn('subject', text, (c) => c.notNull())
            .addColumn('snapshot', text, (c) => c.notNull())
            .addColumn('status', text, (c) => c.notNull().defaultTo('sending'))
            .addColumn('recipients', 'integer', (c) => c.notNull())
            .addColumn('batch_job_id', text)
            .addColumn('created_by', text, (c) => c.notNull())
            .addColumn('created_at', text, (c) => c.notNull())
            .addColumn('finished_at', text)
            .execute();
          await trx.schema
            .createIndex('newsletter_sends_content_id')
            .on('newsletter_sends')
            .columns(['content_id', 'created_at'])
            .execute();

          // One row per item and subscriber: the key that keeps anyone from receiving an item twice.
          await trx.schema
            .createTable('newsletter_deliveries')
            .addColumn('content_id', text, (c) => c.notNull())
            .addColumn('subscriber_id', text, (c) => c.notNull().references('newsletter_subscribers.id').onDelete('cascade'))
            .addColumn('send_id', text, (c) => c.notNull().references('newsletter_sends.id').onDelete('cascade'))
            .addColumn('status', text, (c) => c.notNull())
            .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
            .addColumn('error', text)
            .addColumn('updated_at', text, (c) => c.notNull())
            .addPrimaryKeyConstraint('newsletter_deliveries_pk', ['content_id', 'subscriber_id'])
            .execute();
          await trx.schema
            .createIndex('newsletter_deliveries_send_status')
            .on('newsletter_deliveries')
            .columns(['send_id', 'status'])
            .execute();
          await trx.schema
            .createIndex('newsletter_deliveries_subscriber')
            .on('newsletter_deliveries')
            .column('subscriber_id')
            .execute();

          await trx.schema.alterTable('mail_outbox').addColumn('headers', text).execute();
        }),
    },
    '0008_editorial_states': {
      // Issue 13: drafts, scheduled publishing, preview links and no silent overwrites
      // (docs/decisions/015-editorial-states.md). Everything stored so far is published, at version 1.
      up: (db) =>
        inTransaction(db, async (trx) => {
          await trx.schema.alterTable('content').addColumn('scheduled_at', text).execute();
          await trx.schema
            .alterTable('content')
            .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
            .execute();
          await trx.schema.alterTable('content').addColumn('updated_by', text).execute();
          // The scheduled-publishing job's one query: what is scheduled and due.
          await trx.schema.createIndex('content_status_scheduled_at').on('content').columns(['status', 'scheduled_at']).execute();
          // Public lists, their counts and their categories read published items only: with the
          // status in the index they walk it alone rather than every row of the collection (with
          // 5,000 stories the categories took 17 ms and the count 8 ms; now well under 1 ms each).
          // The dashboard's list, of every status, keeps content_collection_created_id.
          await trx.schema.dropIndex('content_collection_category_created_id').execute();
          await trx.schema
            .createIndex('content_public_created_id')
            .on('content')
            .columns(['collection', 'status', 'created_at', 'id'])
            .execute();
          await trx.schema
            .createIndex('content_public_category_created_id')
            .on('content')
            .columns(['collection', 'status', 'category', 'created_at', 'id'])
            .execute();

          await trx.schema
            .createTable('preview_links')
            .addColumn('token_hash', text, (c) => c.primaryKey())
            .addColumn('content_id', text, (c) => c.notNull().references('content.id').onDelete('cascade'))
            .addColumn('created_by', text, (c) => c.notNull())
            .addColumn('created_at', text, (c) => c.notNull())
            .addColumn('expires_at', text, (c) => c.notNull())
            .execute();
          await trx.schema.createIndex('preview_links_content_id').on('preview_links').column('content_id').execute();
        }),
    },
    '0009_revisions': {
      // Issue 13: revision history and autosave slots (docs/decisions/016-revisions-and-autosave.md).
      // Each story and news item starts its history with the version it has now, so the first edit
      // after this release can still be compared with, and undone to, what was there before.
      up: (db) =>
        inTransaction(db, async (trx) => {
          await trx.schema
            .createTable('content_revisions')
            .addColumn('id', text, (c) => c.primaryKey())
            .addColumn('content_id', text, (c) => c.notNull().references('content.id').onDelete('cascade'))
            .addColumn('number', 'integer', (c) => c.notNull())
            .addColumn('kind', text, (c) => c.notNull())
            .addColumn('actor_email', text)
            .addColumn('actor_name', text)
            .addColumn('snapshot', text, (c) => c.notNull())
            .addColumn('created_at', text, (c) => c.notNull())
            .execute();
          // Also the guard that two saves of one item can never take the same number.
          await trx.schema
            .createIndex('content_revisions_content_number')
            .on('content_revisions')
            .columns(['content_id', 'number'])
            .unique()
            .execute();

          await trx.schema
            .createTable('content_autosaves')
            .addColumn('staff_email', text, (c) => c.notNull())
            .addColumn('slot', text, (c) => c.notNull())
            .addColumn('content_id', text, (c) => c.references('content.id').onDelete('cascade'))
            .addColumn('form_values', text, (c) => c.notNull())
            .addColumn('saved_at', text, (c) => c.notNull())
            .addPrimaryKeyConstraint('content_autosaves_pk', ['staff_email', 'slot'])
            .execute();
          await trx.schema.createIndex('content_autosaves_saved_at').on('content_autosaves').column('saved_at').execute();
          await trx.schema.createIndex('content_autosaves_content_id').on('content_autosaves').column('content_id').execute();

          const ids: { id: string }[] = await trx
            .selectFrom('content')
            .select('id')
            .where('collection', 'in', ['blogs', 'news'])
            .orderBy('id')
            .execute();
          for (const batch of chunks(
            ids.map((row) => row.id),
            100,
          )) {
            const rows = await trx.selectFrom('content').selectAll().where('id', 'in', batch).execute();
            await trx
              .insertInto('content_revisions')
              .values(
                rows.map((row) => {
                  // Never edited: its author published it then. Edited: by someone history did not record.
                  const published = row.updated_at === row.published_at;
                  return {
                    id: randomUUID(),
                    content_id: row.id,
                    number: 1,
                    kind: published ? 'published' : 'updated',
                    actor_email: published ? row.author_email : null,
                    actor_name: published ? row.author : null,
                    snapshot: JSON.stringify({
                      title: row.title,
                      category: row.category,
                      tags: parseTags(row.tags),
                      summary: (row.collection === 'blogs' ? row.excerpt : row.summary) ?? null,
                      imageUrl: row.image_url ?? null,
                      imageAlt: row.image_alt ?? '',
                      content: row.content,
                      status: row.status,
                      scheduledAt: null,
                    }),
                    created_at: row.updated_at,
                  };
                }),
              )
              .execute();
          }
        }),
    },
    '0010_sign_language_video': {
      // Issue 14: sign-language videos (docs/decisions/020-sign-language-video.md). Items keep a
      // pointer to theirs; nothing stored so far has one.
      up: (db) =>
        inTransaction(db, async (trx) => {
          await trx.schema
            .createTable('videos')
            .addColumn('id', text, (c) => c.primaryKey())
            .addColumn('status', text, (c) => c.notNull())
            .addColumn('original_name', text, (c) => c.notNull())
            .addColumn('size_bytes', 'integer', (c) => c.notNull())
            .addColumn('received_bytes', 'integer', (c) => c.notNull().defaultTo(0))
            .addColumn('uploaded_by', text, (c) => c.notNull())
            .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
            .addColumn('error', text)
            .addColumn('duration_ms', 'integer')
            .addColumn('width', 'integer')
            .addColumn('height', 'integer')
            .addColumn('rendition_360_key', text)
            .addColumn('rendition_360_bytes', 'integer')
            .addColumn('rendition_240_key', text)
            .addColumn('rendition_240_bytes', 'integer')
            .addColumn('poster_key', text)
            .addColumn('captions_key', text)
            .addColumn('captions_vtt', text)
            .addColumn('transcript', text, (c) => c.notNull().defaultTo(''))
            .addColumn('created_at', text, (c) => c.notNull())
            .addColumn('updated_at', text, (c) => c.notNull())
            .execute();
          // The clean-up's question: which uploads are old and in which state.
          await trx.schema.createIndex('videos_status_updated_at').on('videos').columns(['status', 'updated_at']).execute();
          await trx.schema.alterTable('content').addColumn('video_id', text).execute();
          await trx.schema.createIndex('content_video_id').on('content').column('video_id').execute();
        }),
    },
    '0011_services_video': {
      // Issue 14: a service may carry a sign-language video too, as a story does (decision 020, Services).
      up: (db) =>
        inTransaction(db, async (trx) => {
          await trx.schema.alterTable('services').addColumn('video_id', text).execute();
          await trx.schema.createIndex('services_video_id').on('services').column('video_id').execute();
        }),
    },
  };
}

function parseTags(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.map(String) : [];
  } catch {
    return [];
  }
}

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export async function createMigrator(db: Kysely<any>, engine: Engine): Promise<Migrator> {
  const provider: MigrationProvider = { getMigrations: async () => migrations(engine) };
  if (engine === 'sqlite') return new Migrator({ db, provider });
  // Kysely looks for its bookkeeping tables in every schema unless told which one is ours: name the
  // current schema, so another schema's tables on the same server are never mistaken for ours.
  const { rows } = await sql<{ schema: string }>`SELECT current_schema() AS schema`.execute(db);
  return new Migrator({ db, provider, migrationTableSchema: rows[0]!.schema });
}

/** Applies every pending migration; throws with the failing migration's name. */
export async function migrateToLatest(db: Kysely<any>, engine: Engine): Promise<string[]> {
  const { error, results } = await (await createMigrator(db, engine)).migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Names of every migration this code knows, in order. */
export function migrationNames(engine: Engine): string[] {
  return Object.keys(migrations(engine)).sort();
}
