import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

export const DESKTOP = { width: 1280, height: 800 };
export const MOBILE = { width: 375, height: 740 };

/** axe-core must find nothing serious or critical (WCAG 2.2 A and AA rules). */
export async function expectNoSeriousA11yIssues(page: Page) {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .analyze();
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
  expect(serious, serious.join('\n')).toEqual([]);
}

/** The computed colour of a theme colour such as 'indigo-900', as the browser reports it. */
export async function themeColor(page: Page, name: string): Promise<string> {
  return page.evaluate((token) => {
    const probe = document.createElement('span');
    probe.style.color = `var(--color-${token})`;
    document.body.append(probe);
    const color = getComputedStyle(probe).color;
    probe.remove();
    return color;
  }, name);
}
