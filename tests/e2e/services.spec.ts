import { expect, test } from '@playwright/test';
import { E2E } from './env';
import { DESKTOP, expectNoA11yIssues, MOBILE } from './support';

const TITLES = [
  'Digital Skills Training',
  'Disability Inclusion Talks',
  'Inclusive Communication & Design',
  'Awareness Merchandise',
];
const IDS = ['digital-skills', 'inclusion-talks', 'comm-services', 'merchandise'];

const PAGES = [
  ['/services', 'Our Services'],
  ['/services/comm-services', 'Inclusive Communication & Design'],
  ['/services/awareness-course', 'Deaf / Hard of Hearing Awareness Training'],
  ['/services/no-such-service', 'Service not found'],
] as const;

for (const viewport of [DESKTOP, MOBILE]) {
  for (const [path, heading] of PAGES) {
    test(`${path} passes axe at ${viewport.width} px`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
      await expectNoA11yIssues(page);
    });
  }
}

test.describe('at 1280 px', () => {
  test.use({ viewport: DESKTOP });

  test('lists every service in alternating rows with its first three features and a link to it', async ({ page }) => {
    await page.goto('/services');
    await expect(page).toHaveTitle('Our Services | TDG Uganda');
    const rows = page
      .getByRole('main')
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { level: 2 }) });
    await expect(rows).toHaveCount(4);
    for (const [i, title] of TITLES.entries()) {
      const row = rows.nth(i);
      await expect(row.getByRole('heading', { level: 2 })).toHaveText(title);
      await expect(row.getByRole('list').getByRole('listitem')).toHaveCount(3);
      await expect(row.getByRole('link', { name: `Learn more about ${title}` })).toHaveAttribute('href', `/services/${IDS[i]}`);
      // Image left on odd rows, right on even rows.
      const image = (await row.getByRole('img').boundingBox())!;
      const heading = (await row.getByRole('heading', { level: 2 }).boundingBox())!;
      expect(image.x < heading.x, `row ${i + 1}: picture on the ${i % 2 === 0 ? 'left' : 'right'}`).toBe(i % 2 === 0);
    }
    // The fourth feature of a service only appears on its own page.
    await expect(page.getByText('CV writing, interview practice and a first client project')).toHaveCount(0);

    await expect(page.getByRole('link', { name: 'Enroll Now' })).toHaveAttribute('href', '/services/awareness-course');
    await expect(page.getByRole('main').getByRole('link', { name: 'Contact us', exact: true })).toHaveAttribute(
      'href',
      '/contact',
    );
    const donate = page.getByRole('main').getByRole('link', { name: 'Donate (opens in a new tab)' });
    await expect(donate).toHaveAttribute('href', '/donate');
    await expect(donate).toHaveAttribute('target', '_blank');
  });

  test('a service page shows every feature and asks about the service on the contact form', async ({ page }) => {
    await page.goto('/services');
    await page.getByRole('link', { name: 'Learn more about Digital Skills Training' }).click();
    await expect(page).toHaveURL(/\/services\/digital-skills$/);
    await expect(page).toHaveTitle('Digital Skills Training | TDG Uganda');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Digital Skills Training');
    await expect(page.getByRole('img', { name: /laptop/ })).toBeVisible();
    const features = page.getByRole('region', { name: 'What’s included' }).getByRole('listitem');
    await expect(features).toHaveCount(5);
    await expect(features.nth(3)).toHaveText('CV writing, interview practice and a first client project');
    await expect(page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Services' })).toHaveAttribute(
      'href',
      '/services',
    );
    await expect(page.getByRole('link', { name: 'Contact us about this service' })).toHaveAttribute(
      'href',
      '/contact?subject=Digital%20Skills%20Training',
    );
  });

  test('an unknown or malformed service id is a 404 with a way back, never a 500', async ({ page, request }) => {
    const response = await page.goto('/services/no-such-service');
    expect(response?.status()).toBe(404);
    await expect(page).toHaveTitle('Service not found | TDG Uganda');
    await expect(page.getByRole('contentinfo')).toBeVisible();
    await page.getByRole('link', { name: 'Back to services' }).click();
    await expect(page).toHaveURL(/\/services$/);

    for (const path of [
      '/services/%3Cscript%3Ealert(1)%3C%2Fscript%3E',
      `/services/${'x'.repeat(2000)}`,
      "/services/a'b",
      '/services/%00',
    ]) {
      const res = await request.get(path);
      expect(res.status(), path).toBe(404);
      expect(await res.text()).toContain('Service not found');
    }
  });

  test('the awareness course page explains the training and enrols on the course site in a new tab', async ({ page }) => {
    await page.goto('/services');
    await page.getByRole('link', { name: 'Enroll Now' }).click();
    await expect(page).toHaveURL(/\/services\/awareness-course$/);
    await expect(page).toHaveTitle('Deaf / Hard of Hearing Awareness Training | TDG Uganda');
    await expect(page.getByRole('main').getByRole('heading', { level: 2 })).toHaveText([
      'Who it is for',
      'What you will learn',
      'How the course works',
      'Earn a certificate',
    ]);
    const topics = page.getByRole('region', { name: 'What you will learn' });
    await expect(topics).toContainText('Deaf culture');
    await expect(topics).toContainText('Basic Ugandan Sign Language');
    await expect(topics).toContainText('Communicating with deaf and hard-of-hearing colleagues');
    await expect(topics).toContainText('accessible meetings and events');
    await expect(page.getByRole('region', { name: 'Earn a certificate' })).toContainText('certificate of completion');

    const enrol = page.getByRole('link', { name: 'Enroll Now (opens in a new tab)' });
    await expect(enrol).toHaveCount(2);
    for (const link of await enrol.all()) {
      await expect(link).toHaveAttribute('href', E2E.courseUrl);
      await expect(link).toHaveAttribute('target', '_blank');
      await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    }
  });
});

test('/course and /donate redirect to the configured course and donation pages', async ({ request }) => {
  for (const [path, target] of [
    ['/course', E2E.courseUrl],
    ['/donate', E2E.donationUrl],
  ] as const) {
    const response = await request.get(path, { maxRedirects: 0 });
    expect(response.status(), path).toBe(302);
    expect(response.headers().location, path).toBe(target);
  }
});
