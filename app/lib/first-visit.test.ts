import { describe, expect, it } from 'vitest';
import { inlinesStylesheet, withStylesheetNeutral } from './first-visit';

describe('a first page of a visit (issue 24)', () => {
  it('carries the stylesheet unless the browser says a link of ours was followed', () => {
    expect(inlinesStylesheet('same-origin')).toBe(false);
    for (const site of ['none', 'cross-site', 'same-site', undefined, null, '']) expect(inlinesStylesheet(site)).toBe(true);
  });

  it('makes the inline and the linked form of a page the same text, and leaves others alone', () => {
    const inline =
      '<head><meta charSet="utf-8"/><style data-precedence="default" data-href="/assets/public-a.css">body{color:red}</style><title>T</title></head>';
    const linked =
      '<head><meta charSet="utf-8"/><link rel="stylesheet" href="/assets/public-a.css" data-precedence="default"/><title>T</title></head>';
    expect(withStylesheetNeutral(inline)).toBe(withStylesheetNeutral(linked));
    expect(withStylesheetNeutral(inline)).toContain('[stylesheet /assets/public-a.css]');
    // Another build's file is another page.
    expect(withStylesheetNeutral(linked.replace('public-a', 'public-b'))).not.toBe(withStylesheetNeutral(inline));
    expect(withStylesheetNeutral('<p>no stylesheet</p>')).toBe('<p>no stylesheet</p>');
    // An unclosed style is left as it is.
    expect(withStylesheetNeutral('<style data-precedence="x" data-href="/a.css">body{}')).toBe(
      '<style data-precedence="x" data-href="/a.css">body{}',
    );
  });

  it('takes linear time on a hostile page', () => {
    const hostile = '<style data-precedence="'.repeat(20_000) + '<link rel="stylesheet" href="'.repeat(20_000);
    const started = performance.now();
    withStylesheetNeutral(hostile);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
