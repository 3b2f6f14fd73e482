import { data } from 'react-router';
import { PageLink } from '~/components/page-link';
import { EasyReadText } from '~/components/easy-read';
import { collectionFromPath } from '~/lib/article';
import { languageOfPath, pathWithoutLanguage } from '~/lib/languages';
import { useI18n } from '~/lib/i18n/i18n';
import { pageMeta, siteFromMatches } from '~/lib/seo';
import { truncate } from '~/lib/text';
import { readEasyReadPage, type EasyReadTarget } from '~/server/content/easy-read.server';
import type { Route } from './+types/easy-read';

// Issue 26 item 6 (decision 033): `<item address>/easy-read` for stories, news, resources and services,
// in each language (routes.ts). Its own canonical address; no easy read, or no such item: 404.

const SUFFIX = '/easy-read';

/** What an address names: a service (/services/{id}/easy-read) or an article of a collection. */
function targetOf(pathname: string, id: string): EasyReadTarget {
  const path = pathWithoutLanguage(pathname);
  const itemPath = path.endsWith(SUFFIX) ? path.slice(0, -SUFFIX.length) : path;
  if (itemPath.startsWith('/services/')) return { kind: 'service', id };
  return { kind: 'content', collection: collectionFromPath(itemPath), id };
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const pathname = new URL(request.url).pathname;
  const page = await readEasyReadPage(targetOf(pathname, params.id), languageOfPath(pathname));
  if (!page) return data({ page: null, path: pathWithoutLanguage(pathname) }, { status: 404 });
  return { page, path: `${page.fullPath}${SUFFIX}` };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  const site = siteFromMatches(matches);
  const page = loaderData?.page;
  if (!page)
    return pageMeta({ title: 'Easy read', description: 'No easy read here', path: loaderData?.path ?? '/', site, noindex: true });
  return pageMeta({ title: `Easy read: ${page.title}`, description: truncate(page.text, 160), path: loaderData.path, site });
};

export default function EasyReadPage({ loaderData }: Route.ComponentProps) {
  const { t, language } = useI18n();
  const { page } = loaderData;
  if (!page)
    return (
      <section className="mx-auto flex max-w-2xl flex-col items-center px-4 py-24 text-center">
        <h1 className="text-4xl font-bold text-slate-900">{t('easyRead.notFoundTitle')}</h1>
        <p className="mt-4 text-lg text-slate-700">{t('easyRead.notFoundText')}</p>
        <PageLink
          to="/"
          className="mt-8 inline-flex min-h-12 items-center rounded-full bg-indigo-800 px-6 font-semibold text-white hover:bg-indigo-900"
        >
          {t('notFound.back')}
        </PageLink>
      </section>
    );
  const other = page.textLanguage !== language ? page.textLanguage : undefined;
  return (
    <article className="mx-auto max-w-3xl px-4 pt-8 pb-16 md:pt-12">
      <p className="inline-block rounded-full bg-indigo-100 px-3 py-1 text-sm font-semibold text-indigo-900">
        {t('easyRead.label')}
      </p>
      <h1 lang={other} className="mt-4 text-3xl leading-tight font-extrabold text-balance text-slate-900 md:text-5xl">
        {page.title}
      </h1>
      <p className="mt-4 text-lg text-slate-700">{t('easyRead.intro')}</p>
      <p className="mt-4">
        <PageLink
          to={page.fullPath}
          data-full-text-link=""
          className="inline-flex min-h-12 items-center font-semibold text-indigo-900 underline underline-offset-4 hover:text-indigo-700"
        >
          <span aria-hidden="true">←&nbsp;</span>
          {t('easyRead.back')}
        </PageLink>
      </p>
      <div className="mt-8 border-t border-slate-200 pt-8">
        <EasyReadText text={page.text} lang={other} />
      </div>
    </article>
  );
}
