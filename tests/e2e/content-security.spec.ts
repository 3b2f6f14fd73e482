import type { Page } from '@playwright/test';
import { publishedMessage } from '../../app/lib/content-form';
import { contentRow, editorOf, expectToast, openForm, publish, storedItem } from './content-fixtures';
import { expect, test } from './fixtures';
import { db } from './staff';
import { DESKTOP, expectSteady } from './support';

// Issue 5, item 10: known script-injection payloads go through the real publish action and must not
// run on the public article page in Chromium; every editor tool's formatting survives the same trip;
// and the editor's code never reaches a public page.

test.use({ viewport: DESKTOP });

/** Every payload sets window.__xss or opens a dialog if it runs. */
const PAYLOADS: [name: string, html: string][] = [
  ['script tag', '<script>window.__xss = "script"</script>'],
  ['script tag, upper case, with src', '<SCRIPT SRC="/assets/nothing.js"></SCRIPT><SCRIPT>alert(1)</SCRIPT>'],
  ['split script tag', '<scr<script>ipt>window.__xss = "split"</scr</script>ipt>'],
  ['nested angle brackets', '<<script>script>alert(1)//<</script>/script>'],
  ['img onerror', '<img src=x onerror="window.__xss = \'img\'">'],
  ['img onerror with alert', '<img src=x onerror=alert(1)>'],
  ['img with javascript: src', '<IMG SRC="javascript:window.__xss = \'imgsrc\'">'],
  ['img with entity-encoded handler', '<img src="x" onerror="&#119;indow.__xss=&#39;entity&#39;">'],
  ['attribute breakout', '<img """><script>window.__xss = "breakout"</script>">'],
  ['svg onload', '<svg onload="window.__xss = \'svg\'"></svg>'],
  ['script inside svg', '<svg><script>window.__xss = "svgscript"</script></svg>'],
  ['svg animate onbegin', '<svg><animate onbegin="window.__xss = \'animate\'" attributeName="x" dur="1s"></animate></svg>'],
  [
    'svg link with javascript:',
    '<svg><a xlink:href="javascript:window.__xss=\'svglink\'"><text x="20" y="20">svg link</text></a></svg>',
  ],
  [
    'math mXSS',
    '<math><mtext><table><mglyph><style><img src=x onerror="window.__xss=\'math\'"></style></mglyph></table></mtext></math>',
  ],
  ['math link', '<math><mi xlink:href="javascript:window.__xss=\'mathlink\'">math link</mi></math>'],
  ['body onload', '<body onload="window.__xss = \'body\'">body text</body>'],
  ['details ontoggle', '<details open ontoggle="window.__xss = \'details\'"><summary>more</summary>hidden</details>'],
  ['video source onerror', '<video><source onerror="window.__xss = \'video\'"></video>'],
  ['audio onerror', '<audio src=x onerror=alert(1)></audio>'],
  ['input autofocus onfocus', '<input autofocus onfocus="window.__xss = \'focus\'">'],
  ['marquee onstart', '<marquee onstart="window.__xss = \'marquee\'">moving</marquee>'],
  [
    'handlers on allowed tags',
    '<p onclick="alert(1)" onmouseover="window.__xss=\'p\'">hover me</p><strong onclick="alert(2)">bold</strong>',
  ],
  [
    'unknown element with handler',
    '<x onclick="window.__xss=\'x\'">click the x</x><div/onmouseover=\'window.__xss="div"\'>div</div>',
  ],
  ['javascript: link', '<a href="javascript:window.__xss=\'link\'">plain javascript link</a>'],
  ['mixed-case javascript: link', '<a href="JaVaScRiPt:window.__xss=\'case\'">mixed case link</a>'],
  [
    'entity-encoded javascript: link',
    '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;window.__xss=1">entity link</a>',
  ],
  ['hex entities without semicolons', '<a href="&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A;alert(1)">hex link</a>'],
  ['tab entity inside javascript:', '<a href="jav&#x09;ascript:window.__xss=\'tab\'">tab entity link</a>'],
  ['literal tab and newline inside javascript:', '<a href="jav\tas\ncript:window.__xss=\'ws\'">whitespace link</a>'],
  ['leading spaces and control character', '<a href=" &#14;  javascript:window.__xss=\'lead\'">leading link</a>'],
  ['&colon; entity', '<a href="javascript&colon;window.__xss=\'colon\'">colon link</a>'],
  ['data: link', '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">data link</a>'],
  ['vbscript: link', '<a href="vbscript:msgbox(1)">vbscript link</a>'],
  ['allowed link with onclick', '<a href="https://example.org" onclick="window.__xss=\'onclick\'">good link, bad handler</a>'],
  ['iframe javascript: src', '<iframe src="javascript:parent.__xss=\'iframe\'"></iframe>'],
  ['iframe srcdoc', '<iframe srcdoc="&lt;script&gt;parent.__xss=\'srcdoc\'&lt;/script&gt;"></iframe>'],
  [
    'object data',
    '<object data="javascript:window.__xss=\'object\'"></object><object data="data:text/html,<script>alert(1)</script>"></object>',
  ],
  ['embed src', '<embed src="javascript:window.__xss=\'embed\'"><embed src="data:text/html,<script>alert(1)</script>">'],
  [
    'form action javascript:',
    '<form action="javascript:window.__xss=\'form\'"><button>send form</button></form><button formaction="javascript:alert(1)">formaction</button>',
  ],
  ['meta refresh', '<meta http-equiv="refresh" content="0;url=javascript:window.__xss=\'meta\'">'],
  ['base href', '<base href="javascript:window.__xss=\'base\'//"><a href="relative">relative link</a>'],
  ['link rel=import', '<link rel="import" href="data:text/html,<script>window.__xss=\'import\'</script>">'],
  [
    'style @import',
    '<style>@import url("javascript:window.__xss=\'import\'"); p { background: url(javascript:alert(1)) }</style>',
  ],
  ['style background url(javascript:)', '<p style="background:url(javascript:window.__xss=\'bg\')">styled paragraph</p>'],
  [
    'style expression()',
    '<p style="width: expression(window.__xss=\'expr\')">expression paragraph</p><span style="color: expression(alert(1))">x</span>',
  ],
  [
    'style behavior and -moz-binding',
    '<h2 style="text-align: center; behavior: url(x.htc); -moz-binding: url(x.xml#xss)">bound heading</h2>',
  ],
  ['template', '<template><img src=x onerror="window.__xss=\'template\'"></template>'],
  ['noscript', '<noscript><img src=x onerror="window.__xss=\'noscript\'"></noscript>'],
  ['noscript mXSS', '<noscript><p title="</noscript><img src=x onerror=window.__xss=\'mxss\'>"></noscript>'],
  ['comment trick', '<!--<img src="--><img src=x onerror="window.__xss=\'comment\'//">'],
  ['xmp and textarea', '<xmp><img src=x onerror=alert(1)></xmp><textarea><script>alert(1)</script></textarea>'],
  ['title attribute breakout', '<span style="color:red" title="&lt;/span&gt;&lt;img src=x onerror=alert(1)&gt;">titled</span>'],
  ['escaped script text stays text', "<p>&lt;/script&gt;&lt;script&gt;window.__xss='text'&lt;/script&gt;</p>"],
];

/** The elements and URLs the public sanitiser may let through (app/server/platform/sanitize.server.ts). */
const ALLOWED_TAGS = ['H2', 'H3', 'P', 'STRONG', 'B', 'EM', 'I', 'U', 'S', 'BLOCKQUOTE', 'UL', 'OL', 'LI', 'A', 'BR', 'SPAN'];

interface Traps {
  dialogs: string[];
  consoleCsp: string[];
}

/** Listens for dialogs, window.__xss and CSP violations, from the first byte of the page on. */
async function setTraps(page: Page): Promise<Traps> {
  const traps: Traps = { dialogs: [], consoleCsp: [] };
  page.on('dialog', (dialog) => {
    traps.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) traps.consoleCsp.push(message.text());
  });
  await page.addInitScript(() => {
    const w = window as unknown as { __xssHits: string[]; __csp: string[] };
    w.__xssHits = [];
    w.__csp = [];
    Object.defineProperty(window, '__xss', {
      configurable: false,
      get: () => undefined,
      set: (value: unknown) => w.__xssHits.push(String(value)),
    });
    document.addEventListener('securitypolicyviolation', (e) => w.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  return traps;
}

/** What the traps have caught so far. */
async function caught(page: Page, traps: Traps) {
  const seen = await page.evaluate(() => {
    const w = window as unknown as { __xssHits: string[]; __csp: string[] };
    return { hits: [...w.__xssHits], csp: [...w.__csp] };
  });
  return { ...seen, dialogs: [...traps.dialogs], consoleCsp: [...traps.consoleCsp], url: page.url() };
}

/**
 * Nothing ran, and nothing runs for `ms` more: a payload may wait for an image to fail, a timer or
 * an event, so the traps are watched over a short window (that something does not happen can only be
 * watched for a while) before they are read.
 */
async function expectNothingRan(page: Page, traps: Traps, ms = 300) {
  await expectSteady(() => caught(page, traps), ms, 'the traps stay as they were');
  const seen = await caught(page, traps);
  expect(traps.dialogs, 'dialogs opened').toEqual([]);
  expect(seen.hits, 'window.__xss was set').toEqual([]);
  expect(seen.csp, 'the Content-Security-Policy had to block something').toEqual([]);
  expect(traps.consoleCsp, 'CSP messages in the console').toEqual([]);
}

test.describe('script injection through the publish action', () => {
  test('the traps work: a script that runs is seen, and one the CSP blocks is reported', async ({ page }) => {
    const traps = await setTraps(page);
    await page.goto('/news');
    await page.evaluate(() => {
      (window as unknown as { __xss: number }).__xss = 1;
      alert('trap');
      const script = document.createElement('script');
      script.textContent = 'window.__xss = 2';
      document.body.append(script);
    });
    await expect.poll(() => page.evaluate(() => (window as unknown as { __csp: string[] }).__csp.length)).toBeGreaterThan(0);
    expect(traps.dialogs).toEqual(['trap']);
    expect(await page.evaluate(() => (window as unknown as { __xssHits: string[] }).__xssHits)).toEqual(['1']);
    expect(await page.evaluate(() => (window as unknown as { __csp: string[] }).__csp[0])).toMatch(/^script-src/);
  });

  test(`there are at least 30 payloads (${PAYLOADS.length})`, () => {
    expect(PAYLOADS.length).toBeGreaterThanOrEqual(30);
  });

  for (const [index, [name, html]] of PAYLOADS.entries()) {
    test(`payload ${index + 1}, ${name}: stored sanitised, and nothing runs on the article page`, async ({
      page,
      adminApi: publisher,
      tag,
    }) => {
      const marker = `Payload ${index + 1} ${tag}: the readable part of this story is long enough to publish.`;
      const row = await publish(publisher, 'news', {
        title: `${tag} payload ${index + 1}`,
        content: `<p>${marker}</p>${html}<p>End of ${tag}.</p>`,
      });
      // Stored already sanitised: no such element, and no handler, script URL or CSS trick inside any tag.
      expect(row.content).not.toMatch(
        /<(script|iframe|object|embed|svg|math|img|style|meta|base|link|form|template|noscript)\b/i,
      );
      expect(row.content).not.toMatch(/<[^<>]*(\son[a-z]+\s*=|javascript:|vbscript:|data:|expression\(|url\()/i);

      const traps = await setTraps(page);
      const response = await page.goto(`/news/${row.id}`);
      expect(response?.status()).toBe(200);
      const first = page.getByText(marker, { exact: true });
      await expect(first).toBeVisible();
      // Give every element the events a payload may wait for: hover, focus and click.
      const report = await first.evaluate((p, allowed) => {
        const body = p.parentElement!;
        const elements = [...body.querySelectorAll('*')];
        // A URL with a scheme other than http(s) or mailto (browsers ignore spaces and control characters in it).
        const risky = (url: string) => {
          const squeezed = [...url].filter((c) => c.charCodeAt(0) > 32).join('');
          return squeezed.startsWith('//') || (/^[a-z][a-z0-9+.-]*:/i.test(squeezed) && !/^(https?|mailto):/i.test(squeezed));
        };
        for (const el of elements) {
          el.dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
          if (el instanceof HTMLElement) {
            el.focus();
            // Follow no safe link away from the page; click everything else.
            const href = el.getAttribute('href');
            if (!(el instanceof HTMLAnchorElement) || href === null || risky(href)) el.click();
          }
        }
        return {
          tags: [...new Set(elements.map((el) => el.tagName))].filter((t) => !allowed.includes(t)),
          handlers: elements.flatMap((el) => el.getAttributeNames().filter((n) => n.toLowerCase().startsWith('on'))),
          urls: elements
            .flatMap((el) => ['href', 'src', 'action', 'formaction', 'data', 'xlink:href'].map((a) => el.getAttribute(a)))
            .filter((v): v is string => v !== null && risky(v)),
          styles: elements
            .map((el) => el.getAttribute('style') ?? '')
            .filter((s) => /url\(|expression|behavior|binding|import/i.test(s)),
          dangerous: document.querySelectorAll('iframe, object, embed, base, meta[http-equiv="refresh"], link[rel="import"]')
            .length,
        };
      }, ALLOWED_TAGS);
      expect(report).toEqual({ tags: [], handlers: [], urls: [], styles: [], dangerous: 0 });
      await expectNothingRan(page, traps);
      expect(new URL(page.url()).pathname).toBe(`/news/${row.id}`);
    });
  }

  test('a title and summary made of markup stay text in the page, its meta tags and its JSON-LD', async ({
    page,
    adminApi: publisher,
    tag,
  }) => {
    const title = `${tag} </script><script>window.__xss='title'</script>`;
    const summary = `"><img src=x onerror="window.__xss='summary'"> ${tag} </title><script>alert(1)</script>`;
    const row = await publish(publisher, 'news', { title, summary, tags: `<script>alert(1)</script>, ${tag}` });
    const traps = await setTraps(page);
    await page.goto(`/news/${row.id}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
    await expect(page.getByRole('main')).toContainText(summary);
    await expectNothingRan(page, traps);
    const jsonLd = await page.locator('script[type="application/ld+json"]').first().textContent();
    expect((JSON.parse(jsonLd ?? '{}') as { headline?: string }).headline).toBe(title);
    await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', summary);
    await expect(page.locator('body img[onerror]')).toHaveCount(0);
  });
});

test.describe('editor tools', () => {
  /** One line per tool; each is typed as a paragraph, then formatted with the real toolbar. */
  const LINES = {
    h1: 'Heading one text',
    h2: 'Heading two text',
    h3: 'Heading three text',
    paragraph: 'Back to paragraph text',
    bold: 'Bold words here',
    italic: 'Italic words here',
    underline: 'Underlined words here',
    center: 'Centered line here',
    right: 'Right aligned line here',
    bullet: 'Bullet item text',
    numbered: 'Numbered item text',
    size: 'Large text here',
    colour: 'Coloured text here',
    link: 'Linked text here',
    refused: 'Refused link text',
    quote: 'Quoted text here',
    cleared: 'Cleared text here',
  } as const;

  test("every tool's formatting survives publishing and shows on the public article page", async ({
    page,
    browser,
    tag,
    signIn,
  }) => {
    test.setTimeout(90_000);
    await signIn('EDITOR');
    const dialogs: { type: string; message: string }[] = [];
    const answers: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push({ type: dialog.type(), message: dialog.message() });
      void (dialog.type() === 'prompt' ? dialog.accept(answers.shift() ?? '') : dialog.accept());
    });
    await openForm(page, 'news');
    const editor = editorOf(page);
    const tool = (name: string) => page.getByRole('group', { name: 'Formatting' }).getByRole('button', { name, exact: true });
    const line = (text: string) => editor.getByText(text, { exact: true });

    await editor.click();
    for (const text of Object.values(LINES)) {
      await page.keyboard.type(text);
      await page.keyboard.press('Enter');
    }

    // Block tools act where the cursor is; mark tools on the selected words.
    for (const [key, name, select] of [
      ['h1', 'Heading 1', false],
      ['h2', 'Heading 2', false],
      ['h3', 'Heading 3', false],
      ['center', 'Align center', false],
      ['right', 'Align right', false],
      ['bullet', 'Bullet list', false],
      ['numbered', 'Numbered list', false],
      ['quote', 'Quote', false],
      ['bold', 'Bold', true],
      ['italic', 'Italic', true],
      ['underline', 'Underline', true],
    ] as const) {
      await (select ? line(LINES[key]).selectText() : line(LINES[key]).click());
      await tool(name).click();
      await expect(tool(name)).toHaveAttribute('aria-pressed', 'true');
    }
    await line(LINES.paragraph).click();
    await tool('Heading 2').click();
    await tool('Paragraph').click();
    await expect(tool('Paragraph')).toHaveAttribute('aria-pressed', 'true');

    await line(LINES.size).selectText();
    await page.getByLabel('Font size').selectOption('5');
    await line(LINES.colour).selectText();
    await page.getByLabel('Text colour').evaluate((input: HTMLInputElement) => {
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, '#b91c1c');
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });

    await line(LINES.link).selectText();
    answers.push('https://example.org');
    await tool('Link').click();
    await expect(tool('Remove link')).toHaveAttribute('aria-pressed', 'true');
    await line(LINES.refused).selectText();
    answers.push('javascript:alert(1)');
    await tool('Link').click();
    await expect.poll(() => dialogs.map((d) => d.type)).toEqual(['prompt', 'prompt', 'alert']);
    expect(dialogs[2]!.message).toBe('Links must start with https://, http:// or mailto:');

    await line(LINES.cleared).selectText();
    await tool('Bold').click();
    await tool('Italic').click();
    await tool('Align center').click();
    await expect(editor.locator('p[style*="center"] strong em, p[style*="center"] em strong')).toHaveText(LINES.cleared);
    await line(LINES.cleared).selectText();
    await tool('Clear formatting').click();
    await expect(tool('Bold')).toHaveAttribute('aria-pressed', 'false');

    const title = `${tag} Every editor tool`;
    await page.getByLabel('Title').fill(title);
    await page.getByLabel('Category').selectOption('education');
    await page.getByLabel('Summary').fill('Formatting round trip.');
    await page.getByRole('button', { name: 'Publish' }).click();
    await expectToast(page, publishedMessage('news', 'create'));
    const row = await storedItem(title);

    // A visitor's view of the article.
    const visitor = await (await browser.newContext({ viewport: DESKTOP })).newPage();
    await visitor.goto(`/news/${row.id}`);
    const body = visitor.getByText(LINES.bold, { exact: true }).locator('xpath=ancestor::p[1]/..');
    const within = (selector: string, text: string) => body.locator(selector).filter({ hasText: text });
    // The page title is the one h1: a body's heading 1 reads as h2.
    await expect(body.locator('h1')).toHaveCount(0);
    await expect(within('h2', LINES.h1)).toHaveCount(1);
    await expect(within('h2', LINES.h2)).toHaveCount(1);
    await expect(within('h3', LINES.h3)).toHaveCount(1);
    await expect(within('p', LINES.paragraph)).toHaveCount(1);
    await expect(within('strong', LINES.bold)).toHaveCount(1);
    await expect(within('em', LINES.italic)).toHaveCount(1);
    await expect(within('u', LINES.underline)).toHaveCount(1);
    await expect(within('p', LINES.center)).toHaveCSS('text-align', 'center');
    await expect(within('p', LINES.right)).toHaveCSS('text-align', 'right');
    await expect(within('ul > li', LINES.bullet)).toHaveCount(1);
    await expect(within('ol > li', LINES.numbered)).toHaveCount(1);
    await expect(within('span', LINES.size)).toHaveAttribute('style', /font-size:\s*x-large/);
    await expect(within('span', LINES.colour)).toHaveCSS('color', 'rgb(185, 28, 28)');
    const link = within('a', LINES.link);
    await expect(link).toHaveAttribute('href', 'https://example.org');
    await expect(link).toHaveAttribute('rel', /(^|\s)noopener(\s|$)/);
    await expect(within('a', LINES.refused)).toHaveCount(0);
    await expect(within('blockquote', LINES.quote)).toHaveCount(1);
    const cleared = within('p', LINES.cleared);
    await expect(cleared).toHaveCount(1);
    expect(await cleared.evaluate((p) => ({ html: p.innerHTML, style: p.getAttribute('style') }))).toEqual({
      html: LINES.cleared,
      style: null,
    });
    expect(contentRow(row.id)?.content).toContain('<h2');
    await visitor.context().close();
  });
});

test.describe("the editor's code", () => {
  /** The text of every script the page loaded. */
  async function scriptsOf(page: Page, path: string): Promise<Map<string, string>> {
    const pending: Promise<void>[] = [];
    const scripts = new Map<string, string>();
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script' || /\.m?js(\?|$)/.test(response.url()))
        pending.push(
          response.text().then(
            (text) => void scripts.set(response.url(), text),
            () => undefined,
          ),
        );
    });
    await page.goto(path, { waitUntil: 'networkidle' });
    await Promise.all(pending);
    return scripts;
  }
  const hasEditor = (scripts: Map<string, string>) =>
    [...scripts.values()].some((t) => t.includes('ProseMirror') || t.includes('tiptap'));

  test('no public page downloads it; the content form does', async ({ browser, page, signIn }) => {
    // Five pages loaded until the network is idle take a while on a busy machine.
    test.setTimeout(60_000);
    const article = db().prepare("SELECT id FROM content WHERE collection = 'news' ORDER BY created_at DESC LIMIT 1").get() as {
      id: string;
    };
    for (const path of ['/', '/blog', '/news', `/news/${article.id}`]) {
      const visitor = await browser.newPage();
      const scripts = await scriptsOf(visitor, path);
      expect(scripts.size, path).toBeGreaterThan(0);
      expect(hasEditor(scripts), path).toBe(false);
      await visitor.close();
    }
    await signIn('AUTHOR');
    const scripts = await scriptsOf(page, '/admin/content/new/news');
    expect(hasEditor(scripts)).toBe(true);
  });
});
