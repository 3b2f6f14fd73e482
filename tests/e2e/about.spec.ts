import { expect, test } from '@playwright/test';
import { DESKTOP, expectNoA11yIssues, MOBILE } from './support';

for (const viewport of [DESKTOP, MOBILE]) {
  test(`About Us shows the mission, vision, values and founder, and passes axe at ${viewport.width} px`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await page.goto('/about');
    await expect(page).toHaveTitle('About Us | TDG Uganda');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('About Us');

    await expect(page.getByRole('region', { name: 'Our mission' })).toContainText(
      'raise disability awareness through education and storytelling',
    );
    await expect(page.getByRole('region', { name: 'Our vision' })).toBeVisible();
    const values = page.getByRole('region', { name: 'Our values' });
    await expect(values.getByRole('heading', { level: 3 })).toHaveCount(6);

    const founder = page.locator('#founder');
    await expect(founder.getByRole('heading', { level: 2 })).toHaveText('Grace Nakato');
    await expect(founder).toContainText('Founder & Executive Director');
    await expect(founder).toContainText('discovered Ugandan Sign Language as a teenager');
    await expect(founder.getByRole('img', { name: 'Grace Nakato (no photo)' })).toHaveText('G');
    await expect(founder.getByRole('link', { name: "Read Grace Nakato's story" })).toHaveAttribute(
      'href',
      /^\/blog\/the-day-my-teacher-turned-around/,
    );
    const linkedIn = founder.getByRole('link', { name: 'Grace Nakato on LinkedIn (opens in a new tab)' });
    await expect(linkedIn).toHaveAttribute('target', '_blank');
    await expectNoA11yIssues(page);
  });
}

test('/about#founder opens at the founder profile, clear of the fixed header', async ({ page }) => {
  await page.setViewportSize(MOBILE);
  await page.goto('/about#founder');
  const heading = page.locator('#founder').getByRole('heading', { level: 2 });
  await expect(heading).toBeInViewport();
  const header = (await page.getByRole('banner').boundingBox())!;
  const box = (await page
    .locator('#founder')
    .getByRole('img', { name: /Grace Nakato/ })
    .boundingBox())!;
  expect(box.y).toBeGreaterThanOrEqual(header.y + header.height);
});

test('About Us leads on to the services and the contact form', async ({ page }) => {
  await page.goto('/about');
  const cta = page.getByRole('region', { name: 'Work with us' });
  await cta.getByRole('link', { name: 'Our services' }).click();
  await expect(page).toHaveURL(/\/services$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Our Services');
});
