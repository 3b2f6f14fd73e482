import { describe, expect, it } from 'vitest';
import {
  confirmationMail,
  MAIL_IMAGE_WIDTH,
  mailBodyHtml,
  mailBodyText,
  mailImageUrl,
  renderNewsletter,
  snapshotOf,
  type MailSite,
} from './newsletter-mail.server';

const site: MailSite = { name: 'TDG Uganda', publicUrl: 'https://tdg.example', email: 'info@tdg.example' };

const item = {
  id: 'interpreters-in-gulu-a1b2c3',
  collection: 'news' as const,
  title: 'Interpreters <in> Gulu & Lira',
  summary: 'Sign language interpreters joined two district councils.',
  excerpt: null,
  content:
    '<h2>What changed</h2><p>Councils now book <strong>interpreters</strong> for every meeting. See <a href="/services">our services</a> or <a href="https://example.org/report">the report</a>.</p><ul><li>Gulu</li><li>Lira &amp; Apac</li></ul><p>Line one<br>line two</p>',
  image_url: '/media/news/1732250000000_council.webp',
  image_alt: 'Councillors and an interpreter at a table',
};

describe('the newsletter mail', () => {
  const snapshot = snapshotOf(item, site);
  const mail = renderNewsletter(snapshot, 'https://tdg.example/newsletter/unsubscribe/abc.def');

  it('makes every link and image absolute and shows the picture at a fixed width', () => {
    expect(snapshot.bodyHtml).toContain('href="https://tdg.example/services"');
    expect(snapshot.bodyHtml).toContain('href="https://example.org/report"');
    expect(mailImageUrl(item.image_url, site.publicUrl)).toBe('https://tdg.example/media/news/1732250000000_council-960w.webp');
    expect(mailImageUrl('/logo.svg', site.publicUrl)).toBe('https://tdg.example/logo.svg');
    expect(mailImageUrl('data:image/png;base64,xx', site.publicUrl)).toBeNull();
    expect(mail.html).toContain(
      `<img src="https://tdg.example/media/news/1732250000000_council-960w.webp" width="${MAIL_IMAGE_WIDTH}" alt="Councillors and an interpreter at a table"`,
    );
    expect(mail.html).not.toMatch(/(src|href)="\/(?!\/)/);
  });

  it('links the article, carries the unsubscribe link in the footer and in the RFC 8058 headers', () => {
    expect(mail.subject).toBe('Interpreters <in> Gulu & Lira');
    // Issue 28: through the counting redirect, which sends the reader on to the article.
    expect(mail.html).toContain('href="https://tdg.example/go/newsletter?to=/news/interpreters-in-gulu-a1b2c3"');
    expect(mail.html).toContain('href="https://tdg.example/newsletter/unsubscribe/abc.def"');
    expect(mail.text).toContain('Read it on our website: https://tdg.example/go/newsletter?to=/news/interpreters-in-gulu-a1b2c3');
    expect(mail.text).toContain('Unsubscribe: https://tdg.example/newsletter/unsubscribe/abc.def');
    expect(mail.headers).toEqual({
      'List-Unsubscribe': '<https://tdg.example/newsletter/unsubscribe/abc.def>',
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
  });

  it('escapes the title and words it did not write, and wears the site colours', () => {
    expect(mail.html).toContain('Interpreters &lt;in&gt; Gulu &amp; Lira');
    expect(mail.html).not.toContain('<in>');
    expect(mail.html).toContain('#312e81');
    expect(mail.html).toContain('lang="en"');
  });

  it('has a text alternative with the same words: headings, paragraphs, list items and link addresses', () => {
    expect(mailBodyText(snapshot.bodyHtml)).toBe(
      [
        'What changed',
        '',
        'Councils now book interpreters for every meeting. See our services (https://tdg.example/services) or the report (https://example.org/report).',
        '',
        '- Gulu',
        '- Lira & Apac',
        '',
        'Line one',
        'line two',
      ].join('\n'),
    );
    expect(mail.text).toContain('Sign language interpreters joined two district councils.');
  });

  it('drops anything the article allow-list does not know, even in a stored body', () => {
    const html = mailBodyHtml(
      '<p onclick="x()">Hi<script>alert(1)</script><img src="/x.png"></p><a href="javascript:alert(1)">x</a>',
      site.publicUrl,
    );
    expect(html).toBe('<p>Hi</p><a>x</a>');
  });

  it('writes a version in its language: its label, its page, its own links and the words around it', () => {
    const version = snapshotOf(
      {
        id: 'abc',
        collection: 'news',
        title: 'Abavvuunuzi',
        summary: null,
        excerpt: null,
        content: '<p>Laba <a href="/services">obuweereza bwaffe</a> ne <a href="https://example.org/x">ebirala</a>.</p>',
        image_url: null,
        image_alt: null,
      },
      site,
      'lg',
    );
    expect(version.articleUrl).toBe('https://tdg.example/lg/news/abc');
    expect(version.bodyHtml).toContain('href="https://tdg.example/lg/services"');
    expect(version.bodyHtml).toContain('href="https://example.org/x"');
    const mail = renderNewsletter(version, 'https://tdg.example/lg/newsletter/unsubscribe/t');
    expect(mail.html).toContain('<html lang="lg">');
    // The organisation's name and the footer lead to the home page in the language.
    expect(mail.html).toContain('href="https://tdg.example/lg" style="color:#ffffff');
    expect(mail.text).toContain('ku https://tdg.example/lg.');
    expect(mail.text).toContain('Kisome ku mukutu gwaffe: https://tdg.example/go/newsletter?to=/lg/news/abc');
    expect(mail.text).not.toContain('Read it on our website');
  });

  it('marks a test as a test, in words and subject', () => {
    const test = renderNewsletter(snapshot, 'https://tdg.example/newsletter/unsubscribe/sample', { test: true });
    expect(test.subject).toBe('[Test] Interpreters <in> Gulu & Lira');
    expect(test.text).toMatch(/^THIS IS A TEST/);
    expect(test.html).toContain('This is a test.');
  });

  it('asks for confirmation with the link in both parts, replies to the organisation, and is marked as carrying a secret', () => {
    const confirm = confirmationMail('grace@example.org', 'https://tdg.example/newsletter/confirm/TOKEN', site);
    expect(confirm).toMatchObject({ to: 'grace@example.org', carriesSecret: true, replyTo: 'info@tdg.example' });
    expect(confirm.text).toContain('https://tdg.example/newsletter/confirm/TOKEN');
    expect(confirm.html).toContain('href="https://tdg.example/newsletter/confirm/TOKEN"');
    expect(confirm.text).toContain('7 days');
  });
});
