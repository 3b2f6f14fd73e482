import { expect, test } from '@playwright/test';
import { DESKTOP, expectNoA11yIssues, MOBILE } from './support';

for (const viewport of [DESKTOP, MOBILE]) {
  test(`unknown URLs answer 404 with Page Not Found at ${viewport.width} px`, async ({ page }) => {
    await page.setViewportSize(viewport);
    const response = await page.goto('/no-such-page');
    expect(response?.status()).toBe(404);
    await expect(page).toHaveTitle('Page Not Found');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page Not Found');
    await expect(page.getByRole('contentinfo')).toBeVisible();
    await expectNoA11yIssues(page);
    await page.getByRole('link', { name: 'Back to Home' }).click();
    await expect(page).toHaveURL(/\/$/);
  });
}

test('odd and overlong paths are a 404, never a 500', async ({ request }) => {
  for (const path of ['/%E0%A4%A', '/a/b/c/d/e/f', `/${'x'.repeat(3000)}`, '/..%2f..%2fetc%2fpasswd', '/media/../package.json']) {
    const response = await request.get(path);
    expect(response.status(), path).toBeGreaterThanOrEqual(400);
    expect(response.status(), path).toBeLessThan(500);
  }
});
