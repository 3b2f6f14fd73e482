import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ArticleBody } from './article-body';

describe('ArticleBody', () => {
  it('puts the stored body into the document untouched (the trust boundary is the write)', () => {
    // What the sanitiser would change; app/server/content/articles.server.test.ts shows the page reads it as stored.
    const body = '<div class="kept"><p data-note="as is">Stored <font color="red">as it is</font>.</p></div>';
    expect(renderToStaticMarkup(createElement(ArticleBody, { html: body }))).toContain(`>${body}</div>`);
  });
});
