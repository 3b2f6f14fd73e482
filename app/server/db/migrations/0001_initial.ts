import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Engine } from '../db.server.ts';
import { inTransaction, text } from './frozen.ts';

// Migration 0001_initial. A migration means the same thing forever: it uses only what this file and
// ./frozen.ts hold, never the live code or schema of today.

export default function migration(engine: Engine): Migration {
  return {
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
        await trx.schema.createIndex('login_attempts_email_ip_at').on('login_attempts').columns(['email', 'ip', 'at']).execute();
        await trx.schema.createIndex('login_attempts_ip_at').on('login_attempts').columns(['ip', 'at']).execute();
      }),
  };
}
