import { createElement, Fragment, type ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { FragmentKeeperContext, KeptFragment } from '~/lib/kept-fragment';
import { publicContentChanged } from '../platform/public-changes.server.ts';
import { PUBLIC_READS_TTL_MS } from '../platform/public-reads.server.ts';
import { forgetKeptFragments, keptFragmentCount, MAX_KEPT_FRAGMENTS, renderFragments } from './kept-fragments.server.ts';

// Issue 29 (docs/decisions/044-kept-layout-fragments.md): what a page sends is the same whether its
// header and footer were rendered or kept.

let renders = 0;
function Counted({ children }: { children: ReactNode }) {
  renders += 1;
  return children;
}

const header = (text: string) =>
  createElement('header', null, createElement(Counted, null, createElement('a', { href: '/' }, text)));

/** A page with a fragment at `key` around `content`, rendered through the keeper as the entry does. */
function page(
  key: string,
  content: ReactNode,
  options: { keepNew?: boolean; now?: () => number; after?: ReactNode; replacements?: [string, Buffer][] } = {},
) {
  const fragments = renderFragments(options);
  const html = renderToString(
    createElement(
      FragmentKeeperContext,
      { value: fragments.keeper ?? null },
      createElement(
        'body',
        null,
        createElement(KeptFragment, { fragmentKey: key, children: content }),
        createElement('main', null, 'the page'),
        options.after,
      ),
    ),
  );
  return fragments.toBytes(html, options.replacements).toString('utf8');
}

afterEach(() => {
  forgetKeptFragments();
  renders = 0;
});

describe('kept fragments', () => {
  it('renders a fragment once per key and sends the same page from what it kept', () => {
    const plain = renderToString(createElement('body', null, header('Home ŋ 🦻'), createElement('main', null, 'the page')));
    renders = 0;
    const first = page('header:/', header('Home ŋ 🦻'));
    expect(first).toBe(plain);
    expect(keptFragmentCount()).toBe(1);
    expect(renders).toBe(1);
    // The children are not rendered again, and the page is the same bytes.
    const second = page('header:/', header('Something else'));
    expect(second).toBe(plain);
    expect(renders).toBe(1);
    // Another key is rendered afresh.
    expect(page('header:/blog', header('Stories'))).toContain('>Stories</a>');
    expect(renders).toBe(2);
  });

  it('forgets what it kept when public content changes, and after the page cache’s time', () => {
    page('footer', header('Old name'));
    publicContentChanged();
    expect(keptFragmentCount()).toBe(0);
    expect(page('footer', header('New name'))).toContain('>New name<');
    const later = Date.now() + PUBLIC_READS_TTL_MS + 1;
    expect(page('footer', header('Newer name'), { now: () => later })).toContain('>Newer name<');
    expect(page('footer', header('Ignored'))).toContain('>Newer name<');
  });

  it('keeps nothing new for an error page, and uses what it has', () => {
    expect(page('header:/made-up', header('Home'), { keepNew: false })).toContain('>Home<');
    expect(keptFragmentCount()).toBe(0);
    page('header:/', header('Home'));
    expect(page('header:/', header('Other'), { keepNew: false })).toContain('>Home<');
  });

  it('never sends a marker: a fragment inside another, or holding a replaced marker, is sent but not kept', () => {
    const inner = createElement(KeptFragment, { fragmentKey: 'inner', children: header('Inner') });
    const nested = page('outer', createElement(Fragment, null, 'before', inner));
    expect(nested).toContain('before<header><a href="/">Inner</a></header><main>');
    expect(nested).not.toContain('<template');
    expect(keptFragmentCount()).toBe(1);
    expect(page('inner', header('Again'))).toContain('>Inner<');

    const replaced = page('with-marker', createElement('p', null, '/*sheet*/'), {
      replacements: [['/*sheet*/', Buffer.from('body{}')]],
    });
    expect(replaced).toContain('<p>body{}</p>');
    expect(keptFragmentCount()).toBe(1);
  });

  it('puts each replacement in place once, in order with the fragments', () => {
    const html = page('header:/', header('Home'), {
      after: createElement('style', null, '/*sheet*/'),
      replacements: [['/*sheet*/', Buffer.from('a{color:red}')]],
    });
    expect(html).toBe('<body><header><a href="/">Home</a></header><main>the page</main><style>a{color:red}</style></body>');
  });

  it('writes the text between its cuts whole, in any script', () => {
    const after = createElement(
      Fragment,
      null,
      createElement('p', null, 'Ŋŋ, Kiswahili … 🦻'),
      createElement('style', null, '/*sheet*/'),
    );
    const replacements: [string, Buffer][] = [['/*sheet*/', Buffer.from('a::after{content:"→ ŋ"}')]];
    const expected =
      '<body><header><a href="/">Ëkisa 🦻</a></header><main>the page</main><p>Ŋŋ, Kiswahili … 🦻</p><style>a::after{content:"→ ŋ"}</style></body>';
    // Made by this render, then kept from it.
    expect(page('header:/', header('Ëkisa 🦻'), { after, replacements })).toBe(expected);
    expect(page('header:/', header('Ëkisa 🦻'), { after, replacements })).toBe(expected);
    expect(renders).toBe(1);
  });

  it('does not keep a fragment larger than a layout’s', () => {
    const big = 'x'.repeat(70 * 1024);
    expect(page('big', header(big))).toContain(big);
    expect(keptFragmentCount()).toBe(0);
  });

  it('holds at most its limit, forgetting the oldest', () => {
    for (let n = 0; n <= MAX_KEPT_FRAGMENTS; n++) page(`header:/${n}`, header(`Page ${n}`));
    expect(keptFragmentCount()).toBe(MAX_KEPT_FRAGMENTS);
    renders = 0;
    page(`header:/${MAX_KEPT_FRAGMENTS}`, header('kept'));
    expect(renders).toBe(0);
    page('header:/0', header('forgotten'));
    expect(renders).toBe(1);
  });

  it('renders the children where no keeper is given (the dashboard, a browser)', () => {
    const html = renderToString(createElement(KeptFragment, { fragmentKey: 'x', children: header('Plain') }));
    expect(html).toBe('<header><a href="/">Plain</a></header>');
    expect(keptFragmentCount()).toBe(0);
  });

  it('finds its markers however React writes the text beside them', () => {
    const fresh = page('header:/', createElement(Fragment, null, 'words ', header('Home'), ' more'), { after: 'after' });
    const kept = page('header:/', 'ignored', { after: 'after' });
    expect(kept).toBe(fresh);
    expect(fresh).not.toContain('<template');
  });
});
