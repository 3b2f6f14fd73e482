import { randomBytes } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { renderToPipeableStream, renderToString } from 'react-dom/server';
import { ServerRouter, type EntryContext, type RouterContextProvider } from 'react-router';
import { FrameworkScriptsAllowed } from '~/lib/framework-scripts';
import { InlineStylesheet } from '~/lib/inline-stylesheet';
import { FragmentKeeperContext } from '~/lib/kept-fragment';
import { languageOfPath } from '~/lib/languages';
import { localiseLinks } from '~/lib/localise-links';
import { wantsFrameworkScripts } from '~/root';
import { renderFragments } from '~/server/http/kept-fragments.server';
import { requestContext } from '~/server/http/request-context.server';
import { publicStylesheetText } from '~/server/http/stylesheet.server';
import { getLogger } from '~/server/platform/logger.server';

export const streamTimeout = 5_000;

// Issue 29: the public stylesheet (49 KB, about half of a first page) is the same bytes on every
// page that carries it inside. A page rendered to one string gets a marker where the text goes, and
// the stylesheet's UTF-8 bytes, made once, are put in its place: React no longer escapes it, joins it
// into the page and encodes it again on every request. The marker holds a random token of this
// process, so nothing an author writes can stand for it. React escapes `<style` and `</style` inside
// a style element; a stylesheet holding either is rendered as text, as before.
const STYLESHEET_MARKER = `/*stylesheet ${randomBytes(12).toString('hex')}*/`;
const STYLESHEET_BYTES = /<\/?style/i.test(publicStylesheetText) ? undefined : Buffer.from(publicStylesheetText);
const STYLESHEET: readonly (readonly [string, Buffer])[] = STYLESHEET_BYTES ? [[STYLESHEET_MARKER, STYLESHEET_BYTES]] : [];

// Pages are rendered completely before the first byte is sent (no streaming): every loader here is
// fast, and whole pages are what the public page cache and crawlers need.
export default function handleRequest(
  request: Request,
  status: number,
  headers: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  if (request.method.toUpperCase() === 'HEAD') return new Response(null, { status, headers });
  const { nonce } = loadContext.get(requestContext);
  // Issue 29: a document without the framework's scripts (decision 025: every public page) waits for
  // nothing, since its loaders have all answered, so it is rendered to one string at once: about a
  // quarter less CPU than the stream below. A page with scripts streams its hydration data through
  // a Suspense boundary, which only the stream renders.
  //
  // The answer to a form the browser posted itself (a fetcher's post is a data request, never rendered
  // here) is a document only, as a public page is: the browser had no script of ours running, and
  // every form works without one. So a refused post of a megabyte is not also serialised and escaped
  // into hydration data (docs/decisions/042-plain-post-answers-without-scripts.md).
  const plainPostAnswer = request.method.toUpperCase() !== 'GET';
  const modules = routerContext.staticHandlerContext.matches.map((match) => routerContext.routeModules[match.route.id] ?? {});
  const whole = plainPostAnswer || !wantsFrameworkScripts(modules);
  // Issue 29: a page rendered to one string keeps its layout's header and footer for the next
  // (app/lib/kept-fragment.tsx); a page that hydrates renders them every time. An error page (a
  // made-up address) keeps nothing new.
  const fragments = whole ? renderFragments({ keepNew: status < 400 }) : undefined;
  const page = (
    <FrameworkScriptsAllowed value={!plainPostAnswer}>
      <InlineStylesheet value={whole && STYLESHEET_BYTES ? STYLESHEET_MARKER : publicStylesheetText}>
        <FragmentKeeperContext value={fragments?.keeper ?? null}>
          <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
        </FragmentKeeperContext>
      </InlineStylesheet>
    </FrameworkScriptsAllowed>
  );
  headers.set('Content-Type', 'text/html; charset=utf-8');
  // Issue 26: links inside a language stay in it, in the page's own words (stories, buttons) as well as
  // the layout's: a page under /lg or /sw has its links to English public pages put under its prefix,
  // here where the page is still one string (app/lib/localise-links.ts).
  const language = languageOfPath(new URL(request.url).pathname);
  // Given as bytes: a string body is first checked for lone surrogates as a whole (WebIDL's USVString),
  // which for a page with any character past Latin-1 (Luganda's ŋ, an ellipsis) cost about 7 % of its
  // CPU; encoding to UTF-8 replaces a lone surrogate just the same.
  // The stylesheet's and the kept fragments' bytes go in after the links are put in the page's
  // language: a fragment is kept as it was sent, in that language.
  if (fragments)
    return new Response(fragments.toBytes(localiseLinks(`<!DOCTYPE html>${renderToString(page)}`, language), STYLESHEET), {
      headers,
      status,
    });

  return new Promise<Response>((resolve, reject) => {
    let rendered = false;
    const timer = setTimeout(() => abort(), streamTimeout + 1000);
    const { pipe, abort } = renderToPipeableStream(page, {
      nonce,
      onAllReady() {
        rendered = true;
        // Issue 29: the whole page is ready, so it leaves as one piece, which the compression
        // compresses in one go. Streamed as React's many small pieces, each a trip to the thread
        // pool, Brotli cost an uncached page about 10 ms of CPU; in one piece, about 1.5 ms.
        const body = new PassThrough();
        buffer(body)
          .then(
            (html) =>
              resolve(
                new Response(language === 'en' ? html : localiseLinks(html.toString('utf8'), language), { headers, status }),
              ),
            reject,
          )
          .finally(() => clearTimeout(timer));
        pipe(body);
      },
      onShellError(error: unknown) {
        clearTimeout(timer);
        reject(error);
      },
      onError(error: unknown) {
        status = 500;
        if (rendered) getLogger().error({ err: error }, 'render failed');
      },
    });
  });
}

export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  getLogger().error({ err: error, path: new URL(request.url).pathname }, 'request error');
}
