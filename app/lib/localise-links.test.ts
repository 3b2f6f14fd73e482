import { describe, expect, it } from 'vitest';
import { localiseLinks } from './localise-links.ts';

// Issue 26 (decision 030): a page under /lg or /sw keeps its reader in the language. Run on every
// such page as it is rendered (app/entry.server.tsx, decision 039).

describe('links on a page in a language', () => {
  it('puts links and form addresses to the public pages under the prefix', () => {
    expect(localiseLinks('<a href="/blog">Blog</a><a href="/news/abc?x=1#top">A story</a>', 'lg')).toBe(
      '<a href="/lg/blog">Blog</a><a href="/lg/news/abc?x=1#top">A story</a>',
    );
    expect(localiseLinks('<form action="/contact" method="post"></form>', 'sw')).toBe(
      '<form action="/sw/contact" method="post"></form>',
    );
    expect(localiseLinks('<a href="/">Home</a><a href="/?page=2">Next</a><a href="/#main">Skip</a>', 'lg')).toBe(
      '<a href="/lg">Home</a><a href="/lg?page=2">Next</a><a href="/lg#main">Skip</a>',
    );
    expect(localiseLinks('<a href="/services/awareness-course">Course</a>', 'sw')).toBe(
      '<a href="/sw/services/awareness-course">Course</a>',
    );
  });

  it('reads attribute names and the first segment without regard to case, as browsers and routes do', () => {
    expect(localiseLinks('<a HREF="/Blog/x">x</a>', 'lg')).toBe('<a HREF="/lg/Blog/x">x</a>');
  });

  it('leaves the link to English, feeds, calendars, uploads, the dashboard and other sites alone', () => {
    const html = [
      '<a hreflang="en" href="/blog">English</a>',
      '<a href="/blog/rss.xml">Feed</a>',
      '<a href="/events/day/calendar.ics">Add</a>',
      '<img src="/media/blogs/a.webp">',
      '<a href="/media/files/report.pdf">Report</a>',
      '<a href="/admin">Staff</a>',
      '<a href="https://example.org/blog">Elsewhere</a>',
      '<a href="/blogger">Not a page</a>',
      '<a href="/lg/blog">Already</a>',
    ].join('');
    expect(localiseLinks(html, 'lg')).toBe(html);
  });

  it('changes nothing on an English page, and never reads past a quote or a tag', () => {
    const html = '<a href="/blog">Blog</a>';
    expect(localiseLinks(html, 'en')).toBe(html);
    // An address left open is not an address: the pattern stops at < and >.
    expect(localiseLinks('<a href="/blog<b>x</b>', 'lg')).toBe('<a href="/blog<b>x</b>');
  });
});
