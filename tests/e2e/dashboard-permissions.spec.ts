import { randomUUID } from 'node:crypto';
import type { APIRequestContext, APIResponse } from '@playwright/test';
import type { Kysely } from 'kysely';
import { ROLES, type Role } from '../../app/lib/permissions';
import type { Database } from '../../app/server/db/schema';
import { pngBytes } from './content-fixtures';
import { expect, test, type StaffFixture } from './fixtures';
import { apiSignIn, unique } from './staff';

// Issue 11: every role, and a signed-out visitor, against every action of the inbox, services, site
// settings, translations (issue 26) and demo removal, through HTTP, on both engines. Allowed: a 2xx/3xx answer and the change
// in the database. Refused: the refusal's status and the database as it was. The rules are spec §6
// and issue 11 written out here (decision 014), not read from the permission table.

type Actor = Role | 'visitor';
const ACTORS: Actor[] = [...ROLES, 'visitor'];
const MANAGERS: readonly Actor[] = ['SUPER_ADMIN', 'ADMIN'];
const SERVICE_EDITORS: readonly Actor[] = ['SUPER_ADMIN', 'ADMIN', 'EDITOR'];
const SUPER: readonly Actor[] = ['SUPER_ADMIN'];
const NOBODY: readonly Actor[] = [];
const CONTENT_EDITORS: readonly Actor[] = ['SUPER_ADMIN', 'ADMIN', 'EDITOR'];
const CONTENT_CREATORS: readonly Actor[] = ['SUPER_ADMIN', 'ADMIN', 'EDITOR', 'AUTHOR'];

interface World {
  actor: Actor;
  /** The signed-in staff member's email; null for a visitor. */
  email: string | null;
  db: Kysely<Database>;
  staff: StaffFixture;
  get(path: string): Promise<APIResponse>;
  post(path: string, fields: Record<string, string>, options?: { multipart?: boolean }): Promise<APIResponse>;
  upload(path: string, file: { name: string; mimeType: string; buffer: Buffer }): Promise<APIResponse>;
  /** Runs after the test, whatever happened: puts back what the case changed. */
  cleanUp(step: () => Promise<unknown>): void;
}

interface Refusal {
  status: number | number[];
  location?: RegExp;
}

interface Case {
  name: string;
  allowed: readonly Actor[];
  refused?: (actor: Actor) => Refusal;
  run(world: World): Promise<{ response: APIResponse; changed: boolean }>;
}

const FORBIDDEN: Refusal = { status: 403 };
const TO_SIGN_IN: Refusal = { status: 302, location: /^\/admin\?redirectTo=/ };
/** A page load without a session goes to the sign-in screen; a signed-in role without the section sees Access Restricted (403). */
const visitorGet = (actor: Actor): Refusal => (actor === 'visitor' ? TO_SIGN_IN : FORBIDDEN);

async function seedMessage(db: Kysely<Database>, subject: string) {
  const id = randomUUID();
  await db
    .insertInto('contacts')
    .values({
      id,
      name: 'Matrix Sender',
      email: `sender-${unique()}@example.org`,
      phone: null,
      subject,
      message: 'A message for the permission matrix.',
      created_at: new Date().toISOString(),
      read_at: null,
    })
    .execute();
  return id;
}

const contactStatus = async (db: Kysely<Database>, id: string) =>
  (await db.selectFrom('contacts').select('status').where('id', '=', id).executeTakeFirst())?.status;

/** A service of the test's own, at the end of the list; removed when the test ends. */
async function seedService(w: World) {
  const id = `matrix-${unique()}`;
  const now = new Date().toISOString();
  await w.db
    .insertInto('services')
    .values({
      id,
      title: `Matrix service ${id}`,
      description: 'A service for the permission matrix.',
      features: JSON.stringify(['One']),
      image_url: null,
      image_alt: null,
      position: 1000,
      created_at: now,
      updated_at: now,
    })
    .execute();
  w.cleanUp(() => w.db.deleteFrom('services').where('id', '=', id).execute());
  return id;
}

/** A published story of the test's own with one saved version; removed (with its history) when the test ends. */
async function seedStory(w: World) {
  const id = `matrix-story-${unique()}`;
  const title = `Matrix story ${id}`;
  const now = new Date().toISOString();
  const revisionId = randomUUID();
  await w.db
    .insertInto('content')
    .values({
      id,
      collection: 'news',
      title,
      summary: 'A story for the permission matrix.',
      content: '<p>A story for the permission matrix, long enough to be a real one.</p>',
      category: 'advocacy',
      author: 'Matrix Author',
      status: 'published',
      created_at: now,
      published_at: now,
      updated_at: now,
    })
    .execute();
  w.cleanUp(() => w.db.deleteFrom('content').where('id', '=', id).execute());
  await w.db
    .insertInto('content_revisions')
    .values({
      id: revisionId,
      content_id: id,
      number: 1,
      kind: 'published',
      actor_email: null,
      actor_name: 'Matrix Author',
      snapshot: JSON.stringify({
        title,
        category: 'advocacy',
        tags: [],
        summary: 'A story for the permission matrix.',
        imageUrl: null,
        imageAlt: '',
        content: '<p>A story for the permission matrix, long enough to be a real one.</p>',
        status: 'published',
        scheduledAt: null,
      }),
      created_at: now,
    })
    .execute();
  return { id, title, revisionId };
}

/** Issue 27: an event of the test's own, published (or a draft by `authorEmail`); removed with its registrations when the test ends. */
async function seedEvent(w: World, status: 'draft' | 'published' = 'published', authorEmail: string | null = null) {
  const id = randomUUID();
  const now = new Date().toISOString();
  const day = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10);
  await w.db
    .insertInto('events')
    .values({
      id,
      slug: `matrix-event-${unique()}`,
      title: `Matrix event ${id}`,
      summary: 'An event for the permission matrix.',
      description: '<p>An event for the permission matrix.</p>',
      starts_at: `${day}T06:00:00.000Z`,
      ends_at: `${day}T09:00:00.000Z`,
      capacity: 5,
      status,
      author_email: authorEmail,
      created_at: now,
      updated_at: now,
    })
    .execute();
  w.cleanUp(async () => {
    await w.db.deleteFrom('event_registrations').where('event_id', '=', id).execute();
    await w.db.deleteFrom('events').where('id', '=', id).execute();
  });
  return id;
}

const eventForm = (title: string, intent: 'draft' | 'publish') => {
  const day = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10);
  return {
    intent,
    title,
    summary: 'An event for the permission matrix.',
    description: '<p>An event for the permission matrix.</p>',
    startDate: day,
    startTime: '09:00',
    endDate: day,
    endTime: '12:00',
    place: 'Kampala',
    onlineUrl: '',
    capacity: '5',
    registrationOpen: 'on',
    deadlineDate: '',
    deadlineTime: '',
    imageUrl: '',
    imageAlt: '',
  };
};

const eventTitle = async (db: Kysely<Database>, id: string) =>
  await db.selectFrom('events').select(['title', 'status', 'registration_open']).where('id', '=', id).executeTakeFirst();

const serviceForm = (title: string) => ({
  title,
  description: 'Sign language lessons for families, taught by Deaf teachers.',
  features: 'Weekly classes\nHome visits',
  imageUrl: '',
  imageAlt: '',
});

/** The stored value of a setting (JSON text), or undefined; puts it back when the test ends. */
async function keepSetting(w: World, key: string): Promise<string | undefined> {
  const before = (await w.db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst())?.value;
  w.cleanUp(async () => {
    if (before === undefined) await w.db.deleteFrom('settings').where('key', '=', key).execute();
    else await w.db.updateTable('settings').set({ value: before }).where('key', '=', key).execute();
  });
  return before;
}

const settingValue = async (db: Kysely<Database>, key: string) =>
  (await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst())?.value;

/** Issue 26 item 3: an interface text's key of each actor's own, so the cases running side by side never share one. */
function interfaceKeyFor(actor: Actor): string {
  const keys = ['nav.main', 'nav.mobile', 'nav.footer', 'menu.label', 'list.pagination', 'language.label'];
  return keys[ACTORS.indexOf(actor)]!;
}

const interfaceText = async (db: Kysely<Database>, language: string, key: string) =>
  (
    await db
      .selectFrom('interface_texts')
      .select('text')
      .where('language', '=', language)
      .where('key', '=', key)
      .executeTakeFirst()
  )?.text;

/** Issue 13: an item of the test's own in `status`, written by `authorEmail`; removed when the test ends. */
async function seedItem(w: World, status: 'draft' | 'published', authorEmail: string | null) {
  const id = `matrix-item-${unique()}`;
  const now = new Date().toISOString();
  await w.db
    .insertInto('content')
    .values({
      id,
      collection: 'news',
      title: `Matrix ${status} ${id}`,
      summary: 'An item for the permission matrix.',
      content: '<p>An item for the permission matrix, long enough to be a real one.</p>',
      category: 'advocacy',
      author: 'Matrix Author',
      author_email: authorEmail,
      status,
      created_at: now,
      published_at: now,
      updated_at: now,
    })
    .execute();
  w.cleanUp(() => w.db.deleteFrom('content').where('id', '=', id).execute());
  return id;
}

const storyForm = (title: string, extra: Record<string, string> = {}) => ({
  title,
  category: 'advocacy',
  tags: '',
  summary: 'An item for the permission matrix.',
  content: '<p>An item for the permission matrix, long enough to be a real one.</p>',
  imageUrl: '',
  imageAlt: '',
  ...extra,
});

const itemRow = (db: Kysely<Database>, id: string) =>
  db.selectFrom('content').select(['title', 'status']).where('id', '=', id).executeTakeFirst();

/** The date the day after tomorrow in Kampala (the organisation's default time zone), for a schedule. */
const inTwoDays = () => new Date(Date.now() + 2 * 24 * 60 * 60_000 + 3 * 60 * 60_000).toISOString().slice(0, 10);

const CASES: Case[] = [
  {
    name: 'read the inbox',
    allowed: MANAGERS,
    refused: visitorGet,
    async run(w) {
      const subject = `Inbox matrix ${unique()}`;
      const id = await seedMessage(w.db, subject);
      w.cleanUp(() => w.db.deleteFrom('contacts').where('id', '=', id).execute());
      const response = await w.get('/admin/messages');
      return { response, changed: (await response.text()).includes(subject) };
    },
  },
  {
    name: 'open a message (marks it Read)',
    allowed: MANAGERS,
    refused: visitorGet,
    async run(w) {
      const id = await seedMessage(w.db, `Open matrix ${unique()}`);
      w.cleanUp(() => w.db.deleteFrom('contacts').where('id', '=', id).execute());
      const response = await w.get(`/admin/messages/${id}`);
      return { response, changed: (await contactStatus(w.db, id)) === 'read' };
    },
  },
  {
    name: 'reply to a message',
    allowed: MANAGERS,
    async run(w) {
      const id = await seedMessage(w.db, `Reply matrix ${unique()}`);
      w.cleanUp(() => w.db.deleteFrom('contacts').where('id', '=', id).execute());
      const response = await w.post(`/admin/messages/${id}`, { intent: 'reply', body: 'Thank you, we will call you.' });
      const replies = await w.db.selectFrom('contact_replies').select('id').where('contact_id', '=', id).execute();
      return { response, changed: replies.length > 0 };
    },
  },
  {
    name: 'mark a message as spam',
    allowed: MANAGERS,
    async run(w) {
      const id = await seedMessage(w.db, `Spam matrix ${unique()}`);
      w.cleanUp(() => w.db.deleteFrom('contacts').where('id', '=', id).execute());
      const response = await w.post(`/admin/messages/${id}`, { intent: 'status', status: 'spam' });
      return { response, changed: (await contactStatus(w.db, id)) === 'spam' };
    },
  },
  {
    name: 'delete a message',
    allowed: MANAGERS,
    async run(w) {
      const id = await seedMessage(w.db, `Delete matrix ${unique()}`);
      w.cleanUp(() => w.db.deleteFrom('contacts').where('id', '=', id).execute());
      const response = await w.post(`/admin/messages/${id}/delete`, {});
      return { response, changed: (await contactStatus(w.db, id)) === undefined };
    },
  },
  {
    name: 'export the messages as CSV',
    allowed: MANAGERS,
    refused: visitorGet,
    async run(w) {
      const subject = `Export matrix ${unique()}`;
      const id = await seedMessage(w.db, subject);
      w.cleanUp(() => w.db.deleteFrom('contacts').where('id', '=', id).execute());
      const response = await w.get('/admin/messages/export?status=all');
      return { response, changed: (await response.text()).includes(subject) };
    },
  },
  {
    name: 'change how long messages are kept',
    allowed: MANAGERS,
    async run(w) {
      const key = 'messages_retention_months';
      const before = await keepSetting(w, key);
      const months = before === '30' ? '31' : '30';
      const response = await w.post('/admin/messages', { intent: 'retention', months });
      return { response, changed: (await settingValue(w.db, key)) === months };
    },
  },
  // Issue 27: events. ADMIN and EDITOR (and the super admin) publish and manage; AUTHOR drafts.
  {
    name: 'add an event as a draft',
    allowed: CONTENT_CREATORS,
    async run(w) {
      const title = `Matrix event draft ${unique()}`;
      w.cleanUp(() => w.db.deleteFrom('events').where('title', '=', title).execute());
      const response = await w.post('/admin/events/new', eventForm(title, 'draft'), { multipart: true });
      const row = await w.db.selectFrom('events').select('status').where('title', '=', title).executeTakeFirst();
      return { response, changed: row?.status === 'draft' };
    },
  },
  {
    name: 'publish a new event',
    allowed: CONTENT_EDITORS,
    async run(w) {
      const title = `Matrix event published ${unique()}`;
      w.cleanUp(() => w.db.deleteFrom('events').where('title', '=', title).execute());
      const response = await w.post('/admin/events/new', eventForm(title, 'publish'), { multipart: true });
      const row = await w.db.selectFrom('events').select('status').where('title', '=', title).executeTakeFirst();
      return { response, changed: row !== undefined };
    },
  },
  {
    name: 'edit a published event',
    allowed: CONTENT_EDITORS,
    async run(w) {
      const id = await seedEvent(w);
      const title = `Matrix event edited ${unique()}`;
      const response = await w.post(`/admin/events/${id}/edit`, eventForm(title, 'publish'), { multipart: true });
      return { response, changed: (await eventTitle(w.db, id))?.title === title };
    },
  },
  {
    name: "edit one's own event draft",
    allowed: CONTENT_CREATORS,
    async run(w) {
      const id = await seedEvent(w, 'draft', w.email);
      const title = `Matrix own draft ${unique()}`;
      const response = await w.post(`/admin/events/${id}/edit`, eventForm(title, 'draft'), { multipart: true });
      return { response, changed: (await eventTitle(w.db, id))?.title === title };
    },
  },
  {
    name: 'read an event’s registrations',
    allowed: CONTENT_EDITORS,
    refused: visitorGet,
    async run(w) {
      const id = await seedEvent(w);
      const response = await w.get(`/admin/events/${id}/registrations`);
      return { response, changed: response.status() === 200 };
    },
  },
  {
    name: 'close an event’s registration',
    allowed: CONTENT_EDITORS,
    async run(w) {
      const id = await seedEvent(w);
      const response = await w.post(`/admin/events/${id}/registrations`, { intent: 'registration', open: 'no' });
      return { response, changed: (await eventTitle(w.db, id))?.registration_open === 0 };
    },
  },
  {
    name: 'cancel an event',
    allowed: CONTENT_EDITORS,
    async run(w) {
      const id = await seedEvent(w);
      const response = await w.post(`/admin/events/${id}/registrations`, { intent: 'cancel', confirm: 'yes' });
      return { response, changed: (await eventTitle(w.db, id))?.status === 'cancelled' };
    },
  },
  {
    name: 'export an event’s registrations',
    allowed: CONTENT_EDITORS,
    refused: visitorGet,
    async run(w) {
      const id = await seedEvent(w);
      const response = await w.get(`/admin/events/${id}/export`);
      return { response, changed: response.status() === 200 && (await response.text()).includes('Access needs') };
    },
  },
  {
    name: 'add a service',
    allowed: SERVICE_EDITORS,
    async run(w) {
      const title = `Matrix added ${unique()}`;
      w.cleanUp(() => w.db.deleteFrom('services').where('title', '=', title).execute());
      const response = await w.post('/admin/services/new', serviceForm(title), { multipart: true });
      const row = await w.db.selectFrom('services').select('id').where('title', '=', title).executeTakeFirst();
      return { response, changed: Boolean(row) };
    },
  },
  {
    name: 'edit a service',
    allowed: SERVICE_EDITORS,
    async run(w) {
      const id = await seedService(w);
      const title = `Matrix edited ${unique()}`;
      const response = await w.post(`/admin/services/${id}/edit`, serviceForm(title), { multipart: true });
      const row = await w.db.selectFrom('services').select('title').where('id', '=', id).executeTakeFirst();
      return { response, changed: row?.title === title };
    },
  },
  {
    name: 'move a service up the list',
    allowed: SERVICE_EDITORS,
    async run(w) {
      const id = await seedService(w);
      const response = await w.post('/admin/services', { intent: 'move', id, direction: 'up' });
      const row = await w.db.selectFrom('services').select('position').where('id', '=', id).executeTakeFirst();
      return { response, changed: row?.position !== 1000 };
    },
  },
  {
    name: 'delete a service',
    allowed: MANAGERS,
    async run(w) {
      const id = await seedService(w);
      const response = await w.post(`/admin/services/${id}/delete`, {});
      const row = await w.db.selectFrom('services').select('id').where('id', '=', id).executeTakeFirst();
      return { response, changed: !row };
    },
  },
  {
    name: "upload a service's picture",
    allowed: SERVICE_EDITORS,
    async run(w) {
      const name = `matrix-service-${unique()}.png`;
      const response = await w.upload('/admin/uploads/services', { name, mimeType: 'image/png', buffer: await pngBytes(32) });
      const stored = await w.db.selectFrom('media').select('id').where('original_name', '=', name).executeTakeFirst();
      return { response, changed: Boolean(stored) };
    },
  },
  {
    name: 'change a site text (the footer description)',
    allowed: MANAGERS,
    async run(w) {
      const key = 'site.footerDescription';
      await keepSetting(w, key);
      const text = `Matrix footer ${unique()}`;
      const response = await w.post('/admin/settings?group=header', { footerDescription: text });
      return { response, changed: (await settingValue(w.db, key))?.includes(text) ?? false };
    },
  },
  {
    name: 'change the donation link',
    allowed: SUPER,
    async run(w) {
      const key = 'site.donationUrl';
      await keepSetting(w, key);
      const url = `https://donate.matrix.example/${unique()}`;
      const response = await w.post('/admin/settings?group=links', { donationUrl: url });
      return { response, changed: (await settingValue(w.db, key))?.includes(url) ?? false };
    },
  },
  {
    name: "change the organisation's phone number",
    allowed: SUPER,
    async run(w) {
      const key = 'site.orgPhone';
      await keepSetting(w, key);
      const phone = `+256 700 ${String(100_000 + Math.floor(Math.random() * 800_000)).slice(0, 3)} 999`;
      const response = await w.post('/admin/settings?group=organisation', { orgPhone: phone });
      return { response, changed: (await settingValue(w.db, key))?.includes(phone) ?? false };
    },
  },
  // Issue 26 item 3: the interface's texts in Luganda and Swahili, for the roles that change the site's texts.
  {
    name: 'change an interface text',
    allowed: MANAGERS,
    async run(w) {
      const key = interfaceKeyFor(w.actor);
      const text = `Matrix ${unique()}`;
      w.cleanUp(() => w.db.deleteFrom('interface_texts').where('key', '=', key).where('language', '=', 'lg').execute());
      const response = await w.post('/admin/translations?lang=lg&do=save', { key, text });
      return { response, changed: (await interfaceText(w.db, 'lg', key)) === text };
    },
  },
  {
    name: 'reset an interface text to the built-in one',
    allowed: MANAGERS,
    async run(w) {
      const key = interfaceKeyFor(w.actor);
      await w.db
        .insertInto('interface_texts')
        .values({
          language: 'sw',
          key,
          text: `Matrix ${unique()}`,
          source_text: 'x',
          updated_by: null,
          updated_at: new Date().toISOString(),
        })
        .execute();
      w.cleanUp(() => w.db.deleteFrom('interface_texts').where('key', '=', key).where('language', '=', 'sw').execute());
      const response = await w.post('/admin/translations?lang=sw&do=reset', { key });
      return { response, changed: (await interfaceText(w.db, 'sw', key)) === undefined };
    },
  },
  {
    name: 'import a PO file of interface texts',
    allowed: MANAGERS,
    async run(w) {
      const key = interfaceKeyFor(w.actor);
      const text = `Matrix ${unique()}`;
      w.cleanUp(() => w.db.deleteFrom('interface_texts').where('key', '=', key).where('language', '=', 'lg').execute());
      const file = `msgid ""\nmsgstr "Language: lg\\n"\n\nmsgctxt "${key}"\nmsgid "English"\nmsgstr "${text}"\n`;
      const response = await w.upload('/admin/translations?lang=lg&do=import', {
        name: 'lg.po',
        mimeType: 'text/x-gettext-translation',
        buffer: Buffer.from(file),
      });
      return { response, changed: (await interfaceText(w.db, 'lg', key)) === text };
    },
  },
  {
    name: 'export the interface texts as a PO file',
    allowed: MANAGERS,
    refused: visitorGet,
    async run(w) {
      const response = await w.get('/admin/translations/export?lang=sw');
      return { response, changed: response.status() === 200 && (await response.text()).includes('msgctxt "nav.home"') };
    },
  },
  {
    name: 'upload a picture for the site (founder photo)',
    allowed: MANAGERS,
    async run(w) {
      const name = `matrix-site-${unique()}.png`;
      const response = await w.upload('/admin/uploads/site', { name, mimeType: 'image/png', buffer: await pngBytes(32) });
      const stored = await w.db.selectFrom('media').select('id').where('original_name', '=', name).executeTakeFirst();
      return { response, changed: Boolean(stored) };
    },
  },
  {
    name: 'see what removing the demo would take',
    allowed: SUPER,
    refused: visitorGet,
    async run(w) {
      const response = await w.get('/admin/demo-content');
      return { response, changed: response.status() === 200 };
    },
  },
  {
    // The shared servers keep their demo (other journeys read it): the super admin's post without the
    // confirmation is refused as a form (400); everyone else is refused before the form is read.
    name: 'remove the demo without confirming',
    allowed: NOBODY,
    refused: (actor) => ({ status: actor === 'SUPER_ADMIN' ? 400 : 403 }),
    async run(w) {
      const count = async () =>
        Number(
          (
            await w.db
              .selectFrom('content')
              .select(w.db.fn.countAll<number>().as('n'))
              .where('demo', '=', 1)
              .executeTakeFirstOrThrow()
          ).n,
        );
      const before = await count();
      const response = await w.post('/admin/demo-content', {});
      return { response, changed: (await count()) !== before };
    },
  },
  // Issue 13: an item's history and the content form's autosave slot (who may edit the item; a new
  // item's slot: who may create). An AUTHOR may not edit a published item, so neither may it look back.
  {
    name: "see a published item's history",
    allowed: CONTENT_EDITORS,
    refused: visitorGet,
    async run(w) {
      const { id, title } = await seedStory(w);
      const response = await w.get(`/admin/content/${id}/history`);
      return { response, changed: response.status() === 200 && (await response.text()).includes(title) };
    },
  },
  {
    name: 'open a version from the history',
    allowed: CONTENT_EDITORS,
    refused: visitorGet,
    async run(w) {
      const { id, revisionId, title } = await seedStory(w);
      const response = await w.get(`/admin/content/${id}/history/${revisionId}`);
      return { response, changed: response.status() === 200 && (await response.text()).includes(title) };
    },
  },
  {
    name: 'keep unsaved changes of a new story (autosave)',
    allowed: CONTENT_CREATORS,
    async run(w) {
      const title = `Matrix autosave ${unique()}`;
      w.cleanUp(() => w.db.deleteFrom('content_autosaves').where('form_values', 'like', `%${title}%`).execute());
      const response = await w.post('/admin/content/autosave', { intent: 'save', slot: 'new-news', title }, { multipart: true });
      const kept = await w.db
        .selectFrom('content_autosaves')
        .select('slot')
        .where('form_values', 'like', `%${title}%`)
        .executeTakeFirst();
      return { response, changed: Boolean(kept) };
    },
  },
  {
    name: 'keep unsaved changes of a published story (autosave)',
    allowed: CONTENT_EDITORS,
    async run(w) {
      const { id } = await seedStory(w);
      const title = `Matrix autosave ${unique()}`;
      const response = await w.post('/admin/content/autosave', { intent: 'save', slot: id, title }, { multipart: true });
      const kept = await w.db.selectFrom('content_autosaves').select('slot').where('content_id', '=', id).executeTakeFirst();
      return { response, changed: Boolean(kept) };
    },
  },
  // Issue 13: drafts, scheduling and preview links (a role that may create works on its own items
  // until they are published; editing anything else is EDITOR's and above, spec §6).
  {
    name: 'save a draft of a new story',
    allowed: CONTENT_CREATORS,
    async run(w) {
      const title = `Matrix new draft ${unique()}`;
      w.cleanUp(() => w.db.deleteFrom('content').where('title', '=', title).execute());
      const response = await w.post('/admin/content/new/news', storyForm(title, { intent: 'draft' }), { multipart: true });
      const row = await w.db.selectFrom('content').select('status').where('title', '=', title).executeTakeFirst();
      return { response, changed: row?.status === 'draft' };
    },
  },
  {
    name: 'schedule one’s own draft',
    allowed: CONTENT_CREATORS,
    async run(w) {
      const id = await seedItem(w, 'draft', w.email ?? 'someone@e2e.example');
      const form = storyForm(`Matrix scheduled ${id}`, { intent: 'schedule', scheduleDate: inTwoDays(), scheduleTime: '09:00' });
      const response = await w.post(`/admin/content/${id}/edit`, form, { multipart: true });
      return { response, changed: (await itemRow(w.db, id))?.status === 'scheduled' };
    },
  },
  {
    name: 'publish one’s own draft',
    allowed: CONTENT_CREATORS,
    async run(w) {
      const id = await seedItem(w, 'draft', w.email ?? 'someone@e2e.example');
      const response = await w.post(`/admin/content/${id}/edit`, storyForm(`Matrix published ${id}`, { intent: 'publish' }), {
        multipart: true,
      });
      return { response, changed: (await itemRow(w.db, id))?.status === 'published' };
    },
  },
  {
    name: 'make a preview link of one’s own draft',
    allowed: CONTENT_CREATORS,
    async run(w) {
      const id = await seedItem(w, 'draft', w.email ?? 'someone@e2e.example');
      const response = await w.post(`/admin/content/${id}/edit`, { intent: 'preview-link' });
      const links = await w.db.selectFrom('preview_links').select('token_hash').where('content_id', '=', id).execute();
      return { response, changed: links.length > 0 };
    },
  },
  {
    name: 'edit someone else’s draft',
    allowed: CONTENT_EDITORS,
    async run(w) {
      const id = await seedItem(w, 'draft', 'another-author@e2e.example');
      const title = `Matrix edited draft ${id}`;
      const response = await w.post(`/admin/content/${id}/edit`, storyForm(title, { intent: 'draft' }), { multipart: true });
      return { response, changed: (await itemRow(w.db, id))?.title === title };
    },
  },
  {
    name: 'edit one’s own published story',
    allowed: CONTENT_EDITORS,
    async run(w) {
      const id = await seedItem(w, 'published', w.email ?? 'someone@e2e.example');
      const title = `Matrix edited live ${id}`;
      const response = await w.post(`/admin/content/${id}/edit`, storyForm(title), { multipart: true });
      return { response, changed: (await itemRow(w.db, id))?.title === title };
    },
  },
];

async function worldFor(
  actor: Actor,
  request: APIRequestContext,
  staff: StaffFixture,
  db: Kysely<Database>,
  origin: string,
  cleanUps: (() => Promise<unknown>)[],
): Promise<World> {
  const me = actor === 'visitor' ? null : await staff(actor);
  if (me) await apiSignIn(request, me);
  return {
    actor,
    email: me?.email ?? null,
    db,
    staff,
    get: (path) => request.get(path, { maxRedirects: 0 }),
    post: (path, fields, options = {}) =>
      request.post(path, {
        ...(options.multipart ? { multipart: fields } : { form: fields }),
        headers: { origin },
        maxRedirects: 0,
      }),
    upload: (path, file) => request.post(path, { multipart: { file }, headers: { origin }, maxRedirects: 0 }),
    cleanUp: (step) => cleanUps.push(step),
  };
}

for (const actor of ACTORS) {
  test.describe(`dashboard, as ${actor === 'visitor' ? 'a signed-out visitor' : actor}`, () => {
    for (const c of CASES) {
      const allowed = c.allowed.includes(actor);
      test(`${c.name}: ${allowed ? 'allowed' : 'refused'}`, async ({ request, staff, database, serverURL }) => {
        const cleanUps: (() => Promise<unknown>)[] = [];
        try {
          const world = await worldFor(actor, request, staff, database, serverURL, cleanUps);
          const { response, changed } = await c.run(world);
          if (allowed) {
            expect(response.status(), await response.text()).toBeGreaterThanOrEqual(200);
            expect(response.status()).toBeLessThan(400);
            expect(changed, 'the change is made').toBe(true);
          } else {
            const refusal = c.refused?.(actor) ?? FORBIDDEN;
            expect([refusal.status].flat(), await response.text()).toContain(response.status());
            if (refusal.location) expect(response.headers().location).toMatch(refusal.location);
            expect(changed, 'nothing changed').toBe(false);
          }
        } finally {
          for (const step of cleanUps.reverse()) await step();
        }
      });
    }
  });
}
