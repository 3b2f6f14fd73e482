import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../app/server/db/schema';
import { readabilityOf } from '../../app/lib/easy-read';
import { BODY } from './content-fixtures';
import { expect as baseExpect, test } from './fixtures';
import { DESKTOP, expectNoA11yIssues, MOBILE } from './support';

// Issue 26 item 6 (decision 033): an editor writes a story's easy-read version and sees its reading
// ease change as it is typed, saves it; the story's page offers it near the title; the easy-read page
// shows it with a way back and its own canonical address; the list's "Easy read only" filter finds
// it; all of it without JavaScript too, and a service's easy read saved with a plain post. On the
// SQLite server and the PostgreSQL one.

test.describe.configure({ mode: 'default', timeout: 180_000 });
const expect = baseExpect.configure({ timeout: 10_000 });

const RUN = `er${randomBytes(4).toString('hex')}`;
const HARD =
  'Organisational implementation of comprehensive accessibility considerations necessitates institutional commitment and interdisciplinary collaboration.';
const EASY = 'We help Deaf children learn. We teach signs.\n\nYou can:\n- Come to a class.\n- Learn with your child.';

test.afterAll(async ({ database }) => {
  await database.deleteFrom('content').where('title', 'like', `%${RUN}%`).execute();
  await database.deleteFrom('services').where('title', 'like', `%${RUN}%`).execute();
});

/** A published story made straight in the server's database; its id. */
async function story(database: Kysely<Database>, title: string, easyRead: string | null = null): Promise<string> {
  const id = `${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  const at = new Date().toISOString();
  await database
    .insertInto('content')
    .values({
      id,
      collection: 'blogs',
      title,
      summary: null,
      excerpt: `About ${title}.`,
      content: BODY,
      search_text: 'Deaf young people employers',
      category: 'education',
      author: 'Test Author',
      status: 'published',
      easy_read: easyRead,
      created_at: at,
      published_at: at,
      updated_at: at,
    })
    .execute();
  return id;
}

test.describe('easy read with JavaScript', () => {
  test.use({ viewport: DESKTOP });

  test('an editor writes an easy read, sees the score change as typed and saves; visitors find and read it', async ({
    page,
    signIn,
    database,
  }) => {
    const title = `Signs at school ${RUN}`;
    const id = await story(database, title);
    const plainId = await story(database, `Plain story ${RUN}`);
    await signIn('EDITOR');
    await page.goto(`/admin/content/${id}/edit`);
    const field = page.getByRole('textbox', { name: 'Easy read' });
    const score = page.locator('[data-easy-read-score]');
    await expect(score).toContainText('No easy read yet');

    // Typed: the score follows each change, in a number and in words, against the target.
    await field.fill(HARD);
    await expect(score).toContainText('Reading ease: 0 – Very difficult to read.');
    await expect(score).toContainText('Target: 70 or more.');
    await field.fill(EASY);
    await expect(score).toContainText(/Reading ease: (9\d|100) – Very easy to read\./);
    await expect(score).toContainText('Meets the target of 70 or more.');
    await expect(score).toContainText(`${readabilityOf(EASY).words}/400 words`);
    // The live region speaks once typing has paused, not on every key.
    const announcement = page.getByTestId('easy-read-announcement');
    await expect(announcement).toHaveAttribute('aria-live', 'polite');
    await expect(announcement).toContainText('meets the target', { timeout: 5_000 });

    await page.getByRole('button', { name: 'Update', exact: true }).click();
    await expect(page.getByText('Blog post updated successfully!').first()).toBeVisible();
    await expect
      .poll(
        async () => (await database.selectFrom('content').select('easy_read').where('id', '=', id).executeTakeFirst())?.easy_read,
      )
      .toBe(EASY);
    // It is part of the item's history.
    const revision = await database
      .selectFrom('content_revisions')
      .select('snapshot')
      .where('content_id', '=', id)
      .orderBy('number', 'desc')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(revision.snapshot)).toMatchObject({ easyRead: EASY });

    // The story offers it near its title.
    await page.context().clearCookies();
    await page.goto(`/blog/${id}`);
    const link = page.getByRole('link', { name: /^Easy read/ });
    await expect(link).toHaveAttribute('href', `/blog/${id}/easy-read`);
    await link.click();
    await expect(page).toHaveURL(`/blog/${id}/easy-read`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
    await expect(page.getByText('We help Deaf children learn. We teach signs.')).toBeVisible();
    await expect(page.getByRole('listitem').filter({ hasText: 'Learn with your child.' })).toBeVisible();
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', new RegExp(`/blog/${id}/easy-read$`));
    await expect(page.getByRole('link', { name: 'Read the full text' })).toHaveAttribute('href', `/blog/${id}`);

    // The list's filter keeps the items that have one.
    await page.goto(`/blog?q=${RUN}`);
    await expect(page.getByRole('link', { name: `Plain story ${RUN}` }).first()).toBeVisible();
    await page.getByRole('checkbox', { name: 'Easy read only' }).check();
    await expect(page).toHaveURL(new RegExp(`easy=1`));
    await expect(page.getByText('1 story found')).toBeVisible();
    await expect(page.getByRole('link', { name: title }).first()).toBeVisible();
    await expect(page.getByRole('link', { name: `Plain story ${RUN}` })).toHaveCount(0);

    // A story without one has no easy-read page.
    const plain = await page.request.get(`/blog/${plainId}/easy-read`);
    expect(plain.status()).toBe(404);

    // At 375 px: the filtered list, the story's control and the easy-read page pass axe.
    await page.setViewportSize(MOBILE);
    await expectNoA11yIssues(page);
    await page.goto(`/blog/${id}`);
    await expect(page.getByRole('link', { name: /^Easy read/ })).toBeVisible();
    await expectNoA11yIssues(page);
    await page.goto(`/blog/${id}/easy-read`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await expectNoA11yIssues(page);
  });
});

test.describe('easy read without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the filter, the control and the page work as plain links and forms; a service saves its easy read with a plain post', async ({
    page,
    signIn,
    database,
  }) => {
    await page.setViewportSize(MOBILE);
    const title = `Family signs ${RUN}`;
    const id = await story(database, title, EASY);
    await story(database, `Other story ${RUN}`);
    // Arranged in the database: the public list may have been cached before it.
    await page.goto(`/blog?q=${RUN}`);
    await page.getByRole('checkbox', { name: 'Easy read only' }).check();
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page).toHaveURL(/easy=1/);
    await expect(page.getByRole('checkbox', { name: 'Easy read only' })).toBeChecked();
    await expect(page.getByRole('link', { name: `Other story ${RUN}` })).toHaveCount(0);

    await page.goto(`/blog/${id}`);
    await page.getByRole('link', { name: /^Easy read/ }).click();
    await expect(page).toHaveURL(`/blog/${id}/easy-read`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
    await expect(page.getByText('Come to a class.')).toBeVisible();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(375);
    await page.getByRole('link', { name: 'Read the full text' }).click();
    await expect(page).toHaveURL(`/blog/${id}`);

    // A service: its easy read saved by the edit form's plain post, scored by the server.
    const serviceId = `service-${RUN}`;
    const at = new Date().toISOString();
    await database
      .insertInto('services')
      .values({
        id: serviceId,
        title: `Sign club ${RUN}`,
        description: 'Weekly sign language club for families.',
        features: '[]',
        position: 99,
        created_at: at,
        updated_at: at,
      })
      .execute();
    await signIn('ADMIN');
    await page.goto(`/admin/services/${serviceId}/edit`);
    await page.getByRole('textbox', { name: 'Easy read' }).fill(`${'word '.repeat(401)}`);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('Easy read must be at most 400 words. It has 401 words now: please shorten it.')).toBeVisible();
    await page.getByRole('textbox', { name: 'Easy read' }).fill('Come to our club. We sign and play games.');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page).toHaveURL(/\/admin\/services$/);
    await page.goto(`/admin/services/${serviceId}/edit`);
    await expect(page.locator('[data-easy-read-score]')).toContainText('Meets the target of 70 or more.');
    await page.context().clearCookies();
    await page.goto(`/services/${serviceId}`);
    await page.getByRole('link', { name: /^Easy read/ }).click();
    await expect(page).toHaveURL(`/services/${serviceId}/easy-read`);
    await expect(page.getByText('Come to our club. We sign and play games.')).toBeVisible();
  });
});

test.describe('a service in Luganda, without JavaScript', () => {
  test.use({ javaScriptEnabled: false, viewport: DESKTOP });

  test('an editor adds a Luganda version, drafts and publishes it on its own, a stale form is refused, and /lg/services shows it', async ({
    page,
    context,
    signIn,
    database,
  }) => {
    const serviceId = `lg-service-${RUN}`;
    const at = new Date().toISOString();
    await database
      .insertInto('services')
      .values({
        id: serviceId,
        title: `Parents club ${RUN}`,
        description: 'A club for parents of Deaf children.',
        features: '[]',
        position: 98,
        created_at: at,
        updated_at: at,
      })
      .execute();
    await signIn('EDITOR');
    await page.goto(`/admin/services/${serviceId}/edit`);
    const panel = page.getByRole('region', { name: 'Languages' });
    await expect(panel).toContainText(/Luganda:\s*No version yet/);
    await expect(panel).toContainText(/Swahili:\s*No version yet/);
    await panel.getByRole('link', { name: 'Add Luganda version' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Luganda version: Parents club ${RUN}`);

    await page.getByRole('textbox', { name: 'Title' }).fill(`Ekibiina ky’abazadde ${RUN}`);
    await page.getByRole('textbox', { name: 'Description' }).fill('Ekibiina ky’abazadde b’abaana Bakiggala.');
    await page.getByRole('textbox', { name: 'Easy read' }).fill('Tuyamba abazadde. Tuyiga obubonero wamu.');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await expect(page.getByText('Luganda version saved as a draft. It is not on the website.')).toBeVisible();
    // The English formula is not used for Luganda: counts only, said in words.
    await expect(page.locator('[data-easy-read-score]')).toContainText('no score is given for Luganda');
    await expect(page.locator('[data-easy-read-score]')).toContainText('5/400 words · 2 sentences');

    // A second tab opens the draft; this one publishes it; the second tab's save is refused.
    const other = await context.newPage();
    await other.goto(`/admin/services/${serviceId}/versions/lg`);
    await page.getByRole('button', { name: 'Publish' }).click();
    await expect(page.getByText('Luganda version published.')).toBeVisible();
    await other.getByRole('textbox', { name: 'Title' }).fill('Erinnya eddala');
    await other.getByRole('button', { name: 'Save draft' }).click();
    await expect(other.getByText('Someone saved this version after you opened it.')).toBeVisible();
    await other.close();

    const row = await database
      .selectFrom('service_translations')
      .selectAll()
      .where('service_id', '=', serviceId)
      .where('language', '=', 'lg')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      title: `Ekibiina ky’abazadde ${RUN}`,
      status: 'published',
      easy_read: 'Tuyamba abazadde. Tuyiga obubonero wamu.',
    });
    expect(Number(row.version)).toBe(2);
    // Swahili is untouched; the panel says where each stands.
    await page.goto(`/admin/services/${serviceId}/edit`);
    await expect(panel).toContainText(/Luganda:\s*Published/);
    await expect(panel).toContainText(/Swahili:\s*No version yet/);
    const audit = await database.selectFrom('audit_log').select('action').where('target', '=', serviceId).orderBy('at').execute();
    expect(audit.map((a) => a.action)).toEqual(['service.version_saved', 'service.version_published']);

    // The longest version there may be, in letters that take six bytes each once percent-encoded (a
    // Swahili draft, so /sw below stays English), is saved rather than refused as too large.
    const letters = (n: number) => 'ŋ'.repeat(n);
    const longest = {
      title: letters(100),
      description: letters(1_000),
      features: Array.from({ length: 12 }, () => letters(160)).join('\n'),
      easyRead: Array.from({ length: 400 }, () => letters(19)).join(' '),
    };
    const long = await page.request.post(`/admin/services/${serviceId}/versions/sw`, {
      form: { ...longest, intent: 'draft' },
      maxRedirects: 0,
    });
    expect(long.status()).toBe(303);
    const stored = await database
      .selectFrom('service_translations')
      .select(['title', 'description', 'easy_read'])
      .where('service_id', '=', serviceId)
      .where('language', '=', 'sw')
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ title: longest.title, description: longest.description, easy_read: longest.easyRead });

    // Under /lg the list and the service's page show the Luganda words, marked Luganda; under /sw,
    // where it has no version, the English words, marked English.
    const luganda = `Ekibiina ky’abazadde ${RUN}`;
    await page.goto('/lg/services');
    await expect(page.locator('html')).toHaveAttribute('lang', 'lg');
    await expect(page.getByRole('heading', { level: 2, name: luganda })).toHaveAttribute('lang', 'lg');
    await page.goto(`/lg/services/${serviceId}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(luganda);
    await expect(page.getByRole('heading', { level: 1 })).toHaveAttribute('lang', 'lg');
    await expect(page.getByText('Ekibiina ky’abazadde b’abaana Bakiggala.')).toBeVisible();
    await page.goto(`/sw/services/${serviceId}`);
    await expect(page.locator('html')).toHaveAttribute('lang', 'sw');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Parents club ${RUN}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveAttribute('lang', 'en');
    await database.deleteFrom('service_translations').where('service_id', '=', serviceId).execute();
  });
});
