import { createElement, type ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { I18nProvider } from '~/lib/i18n/i18n';
import { EasyReadText, NotTranslated } from './easy-read';

const inLanguage = (language: 'en' | 'lg' | 'sw', child: ReactElement) =>
  renderToStaticMarkup(createElement(I18nProvider, { language, children: child }));

describe('EasyReadText', () => {
  it('shows paragraphs and lists as text: markup typed into an easy read stays text', () => {
    const html = renderToStaticMarkup(
      createElement(EasyReadText, { text: 'Hello <script>alert(1)</script>.\n\n- one\n- <b>two</b>', lang: 'en' }),
    );
    expect(html).toContain('<p>Hello &lt;script&gt;alert(1)&lt;/script&gt;.</p>');
    expect(html).toContain('<li>one</li><li>&lt;b&gt;two&lt;/b&gt;</li>');
    expect(html).toContain('lang="en"');
    expect(html).not.toContain('<script>');
  });
});

describe('NotTranslated', () => {
  it('says in the page language that a text is still English, and nothing when it is not', () => {
    expect(inLanguage('lg', createElement(NotTranslated, { textLanguage: 'en' }))).toBe(
      '<p lang="lg" class="mb-3 inline-block rounded-lg bg-amber-50 px-3 py-1 text-sm text-amber-950" data-not-translated="">Kino tekinnavvuunulwa mu Luganda, kyova okiraba mu Lungereza.</p>',
    );
    expect(inLanguage('sw', createElement(NotTranslated, { textLanguage: 'en' }))).toContain(
      'Hii bado haijatafsiriwa kwa Kiswahili, kwa hiyo inaonyeshwa kwa Kiingereza.',
    );
    expect(inLanguage('lg', createElement(NotTranslated, { textLanguage: 'lg' }))).toBe('');
    expect(inLanguage('en', createElement(NotTranslated, {}))).toBe('');
  });
});
