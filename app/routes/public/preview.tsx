import { usePublicLayout } from '~/lib/public-layout';
import { data, redirect, type HeadersFunction } from 'react-router';
import { formatDate } from '~/lib/format';
import { pageMeta, siteFromMatches } from '~/lib/seo';
import { openPreviewLink } from '~/server/content/preview-links.server';
import { Article } from './article';
import type { Route } from './+types/preview';

// Issue 13, preview links: a draft or scheduled item shown as its public page will look, with a
// "Preview — not published" banner. Never indexed, never cached (the page cache skips no-store), and,
// once the item is published, a redirect to its public page.

export const PREVIEW_BANNER = 'Preview — not published';
export const PREVIEW_MISSING = {
  title: 'This preview link does not work',
  text: 'It has expired (links work for 7 days) or the item was deleted. Ask for a new link.',
} as const;

export async function loader({ params }: Route.LoaderArgs) {
  const result = await openPreviewLink(params.token);
  if (result.kind === 'published') throw redirect(result.path, 302);
  if (result.kind === 'missing') return data({ found: false as const }, { status: 404 });
  return {
    found: true as const,
    article: result.article,
    author: result.author,
    related: result.related,
    expiresAt: result.expiresAt,
  };
}

export const headers: HeadersFunction = () => ({
  'Cache-Control': 'no-store',
  'X-Robots-Tag': 'noindex, nofollow',
  // The token is the secret: never sent on to another site.
  'Referrer-Policy': 'same-origin',
});

export const meta: Route.MetaFunction = ({ loaderData, matches, location }) => {
  const site = siteFromMatches(matches);
  const title = loaderData?.found ? `${PREVIEW_BANNER}: ${loaderData.article.title}` : PREVIEW_MISSING.title;
  return pageMeta({ title, description: PREVIEW_BANNER, path: location.pathname, site, noindex: true });
};

export default function Preview({ loaderData }: Route.ComponentProps) {
  const layout = usePublicLayout();
  if (!loaderData.found)
    return (
      <section className="mx-auto flex max-w-2xl flex-col items-center px-4 py-24 text-center">
        <h1 className="text-4xl font-bold text-slate-900">{PREVIEW_MISSING.title}</h1>
        <p className="mt-4 text-lg text-slate-700">{PREVIEW_MISSING.text}</p>
      </section>
    );
  return (
    <>
      <div
        role="note"
        aria-label={PREVIEW_BANNER}
        className="border-b-4 border-amber-500 bg-amber-100 px-4 py-3 text-center text-amber-950"
      >
        <p className="text-lg font-bold">{PREVIEW_BANNER}</p>
        <p className="text-sm">
          Only people with this link can see it. The link works until {formatDate(loaderData.expiresAt)} or until the item is
          published.
        </p>
      </div>
      <Article article={loaderData.article} author={loaderData.author} related={loaderData.related} site={layout?.site} />
    </>
  );
}
