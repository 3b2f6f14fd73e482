import type { Migration } from 'kysely/migration';
import { chunks, inTransaction, text } from './frozen.ts';

// Migration 0006_dashboard_runs_the_site. A migration means the same thing forever: it uses only what this file and
// ./frozen.ts hold, never the live code or schema of today.

/** The demo seed's staff and titles as they were when this migration was written. */
const DEMO_AUTHORS = [
  'grace.nakato@tdg-uganda.example',
  'daniel.ssempala@tdg-uganda.example',
  'aisha.namutebi@tdg-uganda.example',
];
const DEMO_TITLES = [
  'Front Row, Eyes Open: A Deaf Student’s Week in a Kampala Classroom',
  'A Mother’s New Language: Learning to Sign with My Daughter in Wakiso',
  'Boda-Bodas, Ramps and Taxi Stages: Getting Around Kampala in a Wheelchair',
  'Seeing the Job, Not the Eyes: Job-Hunting with Low Vision in Jinja',
  'Between Two Languages: A Day with a Sign Language Interpreter in Masaka',
  'From First Login to First Client: Stella’s Digital Skills Journey in Gulu',
  'What I Wish Hearing People Knew About Lip-Reading',
  'The Day My Teacher Turned Around: Growing Up Deaf in Mukono',
  'Sign Language Awareness Workshops Reach Workplaces in Mukono and Jinja',
  'New Partnership Brings Sign Language Clubs to Three Wakiso Primary Schools',
  'Know Your Rights: Community Sessions on the Persons with Disabilities Act 2020',
  'Captions and Signing on Screen: Community TV Pilot Launches in Masaka',
  'Hundreds Walk Through Mukono Town for Disability Awareness',
  'Applications Open: Free Digital Skills Course for Young People with Disabilities',
  'Open Sign Language Classes Mark International Day of Sign Languages',
  'Call for Storytellers: Share Your Experience on the TDG Uganda Blog',
  'A Practical Guide to Communicating with Deaf and Hard-of-Hearing Colleagues',
  'How to Make Your Event Accessible: A Checklist for Organisers in Uganda',
];

export default function migration(): Migration {
  return {
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
          const authors = DEMO_AUTHORS;
          // Demo staff who never signed in; an account someone has used is the team's now.
          await trx
            .updateTable('system_users')
            .set({ demo: 1 })
            .where('email', 'in', authors)
            .where('last_login', 'is', null)
            .execute();
          for (const titles of chunks(DEMO_TITLES, 50)) {
            await trx
              .updateTable('content')
              .set({ demo: 1 })
              .where('title', 'in', titles)
              .where('author_email', 'in', authors)
              .execute();
          }
        }
      }),
  };
}
