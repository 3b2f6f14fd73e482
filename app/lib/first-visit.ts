// Issue 24: a reader who arrives from elsewhere (a link shared on WhatsApp, a search, an address
// typed in) has not got the site's stylesheet yet. On 2G a stylesheet is a round trip of 800 ms that
// holds back every word of the page, so such a visit gets the public stylesheet inside the page; a
// reader who followed a link of ours (the browser says `Sec-Fetch-Site: same-origin`) has it cached
// for a year and gets the link (docs/decisions/025-reading-pages-without-react.md). Browsers that do
// not send the header get it inside the page each time, which works the same.

/** Whether a public page asked for with these headers carries its stylesheet inside. */
export function inlinesStylesheet(secFetchSite: string | null | undefined): boolean {
  return secFetchSite !== 'same-origin';
}

/**
 * The page as it would be with its stylesheet linked: the two forms are one page (one ETag, so a
 * browser holding either gets a 304). React writes the inline form as
 * `<style data-precedence="…" data-href="URL">…</style>` and the linked one as
 * `<link rel="stylesheet" href="URL" data-precedence="…"/>`; both become a marker naming the URL.
 * Plain string search, linear in the page.
 */
export function withStylesheetNeutral(html: string): string {
  const open = html.indexOf('<style data-precedence="');
  if (open !== -1) {
    const hrefAt = html.indexOf('data-href="', open);
    const tagEnd = html.indexOf('>', open);
    const close = html.indexOf('</style>', open);
    if (hrefAt !== -1 && tagEnd !== -1 && hrefAt < tagEnd && close !== -1) {
      const href = html.slice(hrefAt + 'data-href="'.length, html.indexOf('"', hrefAt + 'data-href="'.length));
      return `${html.slice(0, open)}[stylesheet ${href}]${html.slice(close + '</style>'.length)}`;
    }
  }
  const link = html.indexOf('<link rel="stylesheet" href="');
  if (link !== -1) {
    const hrefStart = link + '<link rel="stylesheet" href="'.length;
    const hrefEnd = html.indexOf('"', hrefStart);
    const tagEnd = html.indexOf('>', hrefEnd);
    if (hrefEnd !== -1 && tagEnd !== -1)
      return `${html.slice(0, link)}[stylesheet ${html.slice(hrefStart, hrefEnd)}]${html.slice(tagEnd + 1)}`;
  }
  return html;
}
