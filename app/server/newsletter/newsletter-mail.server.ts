import type { Selectable } from 'kysely';
import type { Attributes, IOptions } from 'sanitize-html';
import { articlePath, COLLECTION_INFO, type Collection } from '../../lib/collections.ts';
import { variantUrl } from '../../lib/images.ts';
import { CONFIRM_LINK_DAYS } from '../../lib/newsletter.ts';
import type { ContentTable } from '../db/schema.ts';
import { escapeHtml, sanitizeWithinDepth, stripTags } from '../platform/html.server.ts';
import type { Mail } from '../platform/mail.server.ts';
import { ARTICLE_HTML_OPTIONS } from '../platform/sanitize.server.ts';
import { textAround, translateEnglish, translator } from '../../lib/i18n/i18n.tsx';
import { localiseLinks } from '../../lib/localise-links.ts';
import { pathInLanguage, type Language, type PrefixedLanguage } from '../../lib/languages.ts';

// What the newsletter's mails say and look like (docs/decisions/505-newsletter.md): the site's
// colours, a text alternative with the same words, images at a fixed width from absolute addresses,
// the article's link, and the subscriber's own unsubscribe link in the footer and in the headers
// (RFC 8058 one-click). Pure functions: the callers read the database.

/** The site's colours (app/styles: indigo-900 header, amber-400 buttons, slate text). */
const COLOURS = {
  brand: '#312e81',
  onBrand: '#ffffff',
  button: '#fbbf24',
  onButton: '#0f172a',
  text: '#1e293b',
  muted: '#475569',
  page: '#f1f5f9',
  card: '#ffffff',
  link: '#3730a3',
} as const;

/** The width every image is shown at (the mail is 600 px wide with 20 px margins). */
export const MAIL_IMAGE_WIDTH = 560;

/** What a mail needs to know of the site. */
export interface MailSite {
  name: string;
  /** The site's public address without a trailing slash (PUBLIC_URL). */
  publicUrl: string;
  /** The organisation's address: replies go there. */
  email: string;
}

/** The parts of a published item a newsletter carries, fixed when sending starts. */
export interface NewsletterSnapshot {
  title: string;
  summary: string | null;
  /** The body as mail HTML: sanitised, every link absolute. */
  bodyHtml: string;
  /** The body as plain text, links written out. */
  bodyText: string;
  imageUrl: string | null;
  imageAlt: string;
  articleUrl: string;
  /** "Stories" or "In Media", in the snapshot's language. */
  label: string;
  site: MailSite;
  /** The language of its words (decision 050); English when absent (a send started before). */
  language?: Language;
  /** The item's published versions in the site's other languages, for the subscribers who asked in them. */
  versions?: Partial<Record<PrefixedLanguage, NewsletterSnapshot>>;
}

/** A site path or address as an absolute address on the site; other schemes are left as they are. */
export function absoluteOnSite(href: string, publicUrl: string): string {
  if (href.startsWith('/') && !href.startsWith('//')) return `${publicUrl}${href}`;
  return href;
}

/** The site's home page in `language` (a mail's name and footer link to it). */
function homeIn(site: MailSite, language: Language = 'en'): string {
  return language === 'en' ? `${site.publicUrl}/` : `${site.publicUrl}${pathInLanguage('/', language)}`;
}

/** The address of an item's picture at mail width: the 960 px copy of an upload (sharp on high-density screens). */
export function mailImageUrl(imageUrl: string | null, publicUrl: string): string | null {
  if (!imageUrl) return null;
  const sized = imageUrl.startsWith('/media/') && imageUrl.endsWith('.webp') ? variantUrl(imageUrl, 960) : imageUrl;
  const absolute = absoluteOnSite(sized, publicUrl);
  return /^https?:\/\//.test(absolute) ? absolute : null;
}

/**
 * A stored (already sanitised) body as mail HTML: the same allow-list once more, with every site link
 * made absolute, since a mail has no page address to resolve `/services` against.
 */
export function mailBodyHtml(storedHtml: string, publicUrl: string): string {
  const options: IOptions = {
    ...ARTICLE_HTML_OPTIONS,
    transformTags: {
      ...ARTICLE_HTML_OPTIONS.transformTags,
      a: (_tag, attribs) => {
        const { href, ...rest } = attribs;
        const next: Attributes = { ...rest };
        if (href) next.href = absoluteOnSite(href, publicUrl);
        return { tagName: 'a', attribs: next };
      },
    },
  };
  return sanitizeWithinDepth(storedHtml, options, () => `<p>${escapeHtml(stripTags(storedHtml))}</p>`);
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: ' ', apos: "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(#\d{1,7}|#x[0-9a-f]{1,6}|[a-z]{2,8});/gi, (whole, name: string) => {
    const lower = name.toLowerCase();
    if (ENTITIES[lower] !== undefined) return ENTITIES[lower];
    if (lower.startsWith('#x')) return String.fromCodePoint(Math.min(Number.parseInt(lower.slice(2), 16), 0x10ffff));
    if (lower.startsWith('#')) return String.fromCodePoint(Math.min(Number.parseInt(lower.slice(1), 10), 0x10ffff));
    return whole;
  });
}

const BLOCK_END = new Set(['p', 'h1', 'h2', 'h3', 'blockquote', 'ul', 'ol']);

/**
 * Mail HTML (from `mailBodyHtml`) as plain text: paragraphs apart, list items as "- ", each link's
 * address after its words. One pass over the tags, no parser: the HTML is the sanitiser's output,
 * whose text and attribute values have every `<`, `>` and `"` escaped.
 */
export function mailBodyText(html: string): string {
  let out = '';
  let from = 0;
  const links: string[] = [];
  for (;;) {
    const lt = html.indexOf('<', from);
    if (lt === -1) break;
    const gt = html.indexOf('>', lt + 1);
    if (gt === -1) break;
    out += decodeEntities(html.slice(from, lt));
    const tag = html.slice(lt + 1, gt);
    const closing = tag.startsWith('/');
    const name = (closing ? tag.slice(1) : tag).split(/[\s/]/, 1)[0]!.toLowerCase();
    if (name === 'br') out += '\n';
    else if (name === 'li' && !closing) out += '\n- ';
    else if (BLOCK_END.has(name)) out += '\n\n';
    else if (name === 'a' && !closing) {
      const href = /\shref="([^"]*)"/.exec(tag)?.[1];
      links.push(href ? decodeEntities(href) : '');
    } else if (name === 'a' && closing) {
      const href = links.pop();
      if (href && !out.endsWith(href)) out += ` (${href})`;
    }
    from = gt + 1;
  }
  out += decodeEntities(html.slice(from));
  return out
    .split('\n')
    .map((line) => line.replace(/[ \t]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

type ItemRow = Pick<
  Selectable<ContentTable>,
  'id' | 'collection' | 'title' | 'summary' | 'excerpt' | 'content' | 'image_url' | 'image_alt'
>;

/**
 * The parts of `item` a newsletter carries, as they are now; in `language`, `item` is its version there
 * (with the English item's id), and its page is the one under the language's prefix.
 */
export function snapshotOf(item: ItemRow, site: MailSite, language: Language = 'en'): NewsletterSnapshot {
  const collection = item.collection as Collection;
  // The body's own links to the site go to the pages in its language, as on the site (localiseLinks).
  const bodyHtml = mailBodyHtml(localiseLinks(item.content, language), site.publicUrl);
  const summary = (COLLECTION_INFO[collection].summaryColumn === 'excerpt' ? item.excerpt : item.summary) || null;
  return {
    title: item.title,
    summary,
    bodyHtml,
    bodyText: mailBodyText(bodyHtml),
    imageUrl: mailImageUrl(item.image_url, site.publicUrl),
    imageAlt: item.image_alt ?? '',
    articleUrl: `${site.publicUrl}${pathInLanguage(articlePath(collection, item.id), language)}`,
    label: translateEnglish(language, COLLECTION_INFO[collection].label),
    site,
    ...(language === 'en' ? {} : { language }),
  };
}

/**
 * Issue 28: the article's link through the site's counting redirect (/go/newsletter?to=…), which
 * counts that a newsletter link was followed (how many, never who) and sends the reader on.
 */
export function countedLink(articleUrl: string, publicUrl: string): string {
  if (!articleUrl.startsWith(`${publicUrl}/`)) return articleUrl;
  return `${publicUrl}/go/newsletter?to=${articleUrl.slice(publicUrl.length)}`;
}

/** RFC 2369 and RFC 8058: the unsubscribe address, and that one POST to it unsubscribes. */
export function listUnsubscribeHeaders(unsubscribeUrl: string): Record<string, string> {
  return { 'List-Unsubscribe': `<${unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}

function button(href: string, label: string): string {
  return `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:24px 0"><tr><td style="border-radius:999px;background:${COLOURS.button}"><a href="${escapeHtml(href)}" style="display:inline-block;padding:14px 28px;border-radius:999px;background:${COLOURS.button};color:${COLOURS.onButton};font-weight:bold;font-size:17px;text-decoration:none">${escapeHtml(label)}</a></td></tr></table>`;
}

/**
 * A whole mail document in the site's look: the organisation's name on the indigo band, a white card
 * with `content`, and `footer` under it. Tables and inline styles, which every mail program shows.
 */
export function mailDocument(input: {
  site: MailSite;
  title: string;
  preheader: string;
  content: string;
  footer: string;
  /** The language its words are in (the newsletter's own are English). */
  language?: Language;
}): string {
  const { site } = input;
  return `<!doctype html>
<html lang="${input.language ?? 'en'}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${escapeHtml(input.title)}</title>
<style>
  body { margin: 0; padding: 0; background: ${COLOURS.page}; }
  .body p, .body li { margin: 0 0 16px; }
  .body h2 { font-size: 22px; margin: 28px 0 12px; }
  .body h3 { font-size: 19px; margin: 24px 0 10px; }
  .body blockquote { margin: 0 0 16px; padding-left: 16px; border-left: 4px solid ${COLOURS.brand}; }
  a { color: ${COLOURS.link}; }
</style>
</head>
<body style="margin:0;padding:0;background:${COLOURS.page};font-family:Arial,Helvetica,sans-serif;color:${COLOURS.text}">
<div style="display:none;max-height:0;overflow:hidden">${escapeHtml(input.preheader)}</div>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:${COLOURS.page}">
<tr><td align="center" style="padding:16px 8px">
<table role="presentation" width="600" cellpadding="0" cellspacing="0" border="0" style="width:100%;max-width:600px">
<tr><td style="background:${COLOURS.brand};padding:20px;border-radius:12px 12px 0 0">
<a href="${escapeHtml(homeIn(site, input.language))}" style="color:${COLOURS.onBrand};font-size:22px;font-weight:bold;text-decoration:none">${escapeHtml(site.name)}</a>
</td></tr>
<tr><td class="body" style="background:${COLOURS.card};padding:20px;font-size:17px;line-height:1.6;color:${COLOURS.text}">
${input.content}
</td></tr>
<tr><td style="padding:20px;font-size:14px;line-height:1.5;color:${COLOURS.muted}">
${input.footer}
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>`;
}

export interface RenderedNewsletter {
  subject: string;
  html: string;
  text: string;
  headers: Record<string, string>;
}

/** The snapshot a subscriber who asked in `language` gets: the item's version in it, else the English one. */
export function snapshotFor(snapshot: NewsletterSnapshot, language: string): NewsletterSnapshot {
  return (snapshot.versions as Record<string, NewsletterSnapshot> | undefined)?.[language] ?? snapshot;
}

/** The mail of `snapshot` for one subscriber, whose own unsubscribe address is `unsubscribeUrl`; in the snapshot's language. */
export function renderNewsletter(
  snapshot: NewsletterSnapshot,
  unsubscribeUrl: string,
  options: { test?: boolean } = {},
): RenderedNewsletter {
  const { site } = snapshot;
  const language = snapshot.language ?? 'en';
  const t = translator(language);
  const subject = `${options.test ? '[Test] ' : ''}${snapshot.title}`;
  const testNote = options.test
    ? `<p style="margin:0 0 16px;padding:12px;border:2px solid ${COLOURS.brand};border-radius:8px">This is a test. Subscribers have not received it. Its unsubscribe link is a sample that changes nothing.</p>`
    : '';
  const image = snapshot.imageUrl
    ? `<img src="${escapeHtml(snapshot.imageUrl)}" width="${MAIL_IMAGE_WIDTH}" alt="${escapeHtml(snapshot.imageAlt)}" style="display:block;width:100%;max-width:${MAIL_IMAGE_WIDTH}px;height:auto;border:0;border-radius:8px;margin:0 0 20px">`
    : '';
  const readOn = t('mail.newsletter.readOnSite');
  const content = [
    testNote,
    image,
    `<p style="margin:0 0 8px;font-size:14px;font-weight:bold;text-transform:uppercase;letter-spacing:0.05em;color:${COLOURS.muted}">${escapeHtml(snapshot.label)}</p>`,
    `<h1 style="margin:0 0 16px;font-size:28px;line-height:1.25;color:${COLOURS.text}">${escapeHtml(snapshot.title)}</h1>`,
    snapshot.summary
      ? `<p style="margin:0 0 20px;font-size:19px;color:${COLOURS.muted}">${escapeHtml(snapshot.summary)}</p>`
      : '',
    snapshot.bodyHtml,
    button(countedLink(snapshot.articleUrl, site.publicUrl), readOn),
  ].join('\n');
  // The site's address is a link in the HTML part: the sentence is cut where it goes.
  const host = site.publicUrl.replace(/^https?:\/\//, '');
  const [beforeSite, afterSite] = textAround(t, 'mail.newsletter.why', 'site', { name: site.name });
  const unsubscribe = t('mail.newsletter.unsubscribe');
  const footer = [
    `<p style="margin:0 0 8px">${escapeHtml(beforeSite)}<a href="${escapeHtml(homeIn(site, language))}" style="color:${COLOURS.link}">${escapeHtml(host)}</a>${escapeHtml(afterSite)}</p>`,
    `<p style="margin:0"><a href="${escapeHtml(unsubscribeUrl)}" style="color:${COLOURS.link};font-weight:bold">${escapeHtml(unsubscribe)}</a> ${escapeHtml(t('mail.newsletter.oneClick'))}</p>`,
  ].join('\n');
  const text = [
    options.test
      ? 'THIS IS A TEST. Subscribers have not received it. Its unsubscribe link is a sample that changes nothing.\n'
      : '',
    `${site.name} · ${snapshot.label}`,
    '',
    snapshot.title,
    '='.repeat(Math.min(snapshot.title.length, 70)),
    '',
    snapshot.summary ? `${snapshot.summary}\n` : '',
    snapshot.bodyText,
    '',
    `${readOn}: ${countedLink(snapshot.articleUrl, site.publicUrl)}`,
    '',
    '--',
    t('mail.newsletter.why', { name: site.name, site: homeIn(site, language) }),
    `${unsubscribe}: ${unsubscribeUrl}`,
  ]
    .filter((line, i) => line !== '' || i > 0)
    .join('\n');
  return {
    subject,
    html: mailDocument({ site, title: subject, preheader: snapshot.summary ?? snapshot.title, content, footer, language }),
    text,
    headers: listUnsubscribeHeaders(unsubscribeUrl),
  };
}

/**
 * The mail with the confirmation link (double opt-in), in the language of the page the subscription
 * was asked on. It carries a secret: its body is forgotten once sent.
 */
export function confirmationMail(to: string, link: string, site: MailSite, language: Language = 'en'): Mail {
  const t = translator(language);
  const subject = t('mail.newsletter.confirmSubject', { name: site.name });
  const intro = t('mail.newsletter.confirmIntro', { name: site.name });
  const within = t('mail.newsletter.confirmWithin', { days: CONFIRM_LINK_DAYS });
  const ignore = t('mail.newsletter.ignore');
  const content = [
    `<h1 style="margin:0 0 16px;font-size:24px;line-height:1.3">${escapeHtml(t('mail.newsletter.confirmHeading'))}</h1>`,
    `<p>${escapeHtml(intro)}</p>`,
    `<p>${escapeHtml(within)}</p>`,
    button(link, t('mail.newsletter.confirmButton')),
    `<p style="font-size:15px;word-break:break-all">${escapeHtml(t('mail.newsletter.copyLink', { link }))}</p>`,
    `<p>${escapeHtml(ignore)}</p>`,
  ].join('\n');
  return {
    to,
    subject,
    carriesSecret: true,
    replyTo: site.email,
    text: [intro, '', within, '', link, '', ignore, '', '--', site.name, homeIn(site, language)].join('\n'),
    html: mailDocument({
      site,
      title: subject,
      preheader: t('mail.newsletter.confirmPreheader'),
      content,
      footer: `<p style="margin:0">${escapeHtml(site.name)} · ${escapeHtml(homeIn(site, language))}</p>`,
      language,
    }),
  };
}

/** The answer to a subscription for an address that is confirmed already (so its owner is not left waiting). */
export function alreadySubscribedMail(to: string, unsubscribeUrl: string, site: MailSite, language: Language = 'en'): Mail {
  const t = translator(language);
  const subject = t('mail.newsletter.alreadySubject', { name: site.name });
  const line = t('mail.newsletter.alreadyLine', { name: site.name });
  const stop = t('mail.newsletter.alreadyStop');
  const unsubscribe = t('mail.newsletter.unsubscribe');
  const content = [
    `<h1 style="margin:0 0 16px;font-size:24px;line-height:1.3">${escapeHtml(t('mail.newsletter.alreadyHeading'))}</h1>`,
    `<p>${escapeHtml(line)}</p>`,
    `<p>${escapeHtml(stop)} <a href="${escapeHtml(unsubscribeUrl)}">${escapeHtml(unsubscribe)}</a></p>`,
  ].join('\n');
  return {
    to,
    subject,
    replyTo: site.email,
    headers: listUnsubscribeHeaders(unsubscribeUrl),
    text: [line, '', `${stop} ${unsubscribeUrl}`, '', '--', site.name, homeIn(site, language)].join('\n'),
    html: mailDocument({
      site,
      title: subject,
      preheader: t('mail.newsletter.alreadyPreheader'),
      content,
      footer: `<p style="margin:0"><a href="${escapeHtml(unsubscribeUrl)}">${escapeHtml(unsubscribe)}</a></p>`,
      language,
    }),
  };
}
