import { publicLayoutOf } from '~/lib/public-layout';
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useMatches,
  type LinksFunction,
} from 'react-router';
import { useContext, useEffect } from 'react';
import { FrameworkScriptsAllowed } from '~/lib/framework-scripts';
import { CROSS_ORIGIN_REFUSAL, isCrossOriginWrite } from './server/http/origin-guard.server';
import { requestContext } from '~/server/http/request-context.server';
import type { Route } from './+types/root';
import publicStylesheet from './styles/public.css?url';

/**
 * Issue 24: the stylesheet is the layout's (the public site's apart from the dashboard's, so a reader
 * on 2G downloads only the public one); this page's own boundary names the public one itself.
 */
export const links: LinksFunction = () => [{ rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' }];

/**
 * Every write, on every route, must come from this site (issue: mutating requests from another origin
 * are refused). The HTTP server refuses them first (server/cross-origin.ts); this stays for any other
 * way a request reaches the routes.
 */
export const middleware: Route.MiddlewareFunction[] = [
  ({ request, pattern, context }) => {
    // The operator's request metrics count each request under its route, not its address.
    context.get(requestContext).routeMatched?.(`/${pattern.replace(/^\/+/, '')}`);
    if (isCrossOriginWrite(request)) {
      throw new Response(CROSS_ORIGIN_REFUSAL, { status: 403 });
    }
  },
];

/**
 * Issue 24 (docs/decisions/025-reading-pages-without-react.md): a route whose `handle` says
 * `{ scripts: false }` is a document only. React renders it on the server and the browser gets no
 * framework runtime, no modulepreload links and no hydration data; what it needs in the browser comes
 * from a small page script its layout names. The innermost route that says either way decides.
 */
export interface ScriptsHandle {
  scripts?: boolean;
}

export function wantsFrameworkScripts(matches: readonly { handle?: unknown }[]): boolean {
  for (let i = matches.length - 1; i >= 0; i--) {
    const handle = matches[i]!.handle as ScriptsHandle | undefined;
    if (typeof handle?.scripts === 'boolean') return handle.scripts;
  }
  return true;
}

export function Layout({ children }: { children: React.ReactNode }) {
  const matches = useMatches();
  const scripts = useContext(FrameworkScriptsAllowed) && wantsFrameworkScripts(matches);
  // The public layout, there once per language (issue 26): its page's language and data saver.
  const layout = publicLayoutOf(matches);
  // Issue 24: pages sent for the phone's data saver say so to their scripts (the video picks 240p).
  const saveData = layout?.saveData === true;
  return (
    <html lang={layout?.language ?? 'en'} data-save-data={saveData ? '' : undefined}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#312e81" />
        <Meta />
        <Links />
      </head>
      <body className="min-h-screen">
        {children}
        {scripts && (
          <>
            <ScrollRestoration />
            <Scripts />
          </>
        )}
      </body>
    </html>
  );
}

export default function App() {
  // Marks the page as interactive: scripts have run (browser tests wait for it before clicking).
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
  }, []);
  return <Outlet />;
}

/** Last resort when even the shared layout cannot render: a plain page; details stay in the log. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const title = notFound ? 'Page Not Found' : 'Something went wrong';
  return (
    <main id="main" className="mx-auto max-w-xl px-4 py-24 text-center">
      <link rel="stylesheet" href={publicStylesheet} precedence="default" />
      <title>{title}</title>
      <h1 className="text-3xl font-bold text-slate-900">{title}</h1>
      <p className="mt-4 text-lg text-slate-700">
        {notFound
          ? 'The page you are looking for does not exist or has moved.'
          : 'Sorry, the site had a problem showing this page. Please try again in a moment.'}
      </p>
      <a href="/" className="mt-8 inline-block rounded-lg bg-indigo-700 px-6 py-3 font-semibold text-white hover:bg-indigo-800">
        Back to Home
      </a>
    </main>
  );
}
