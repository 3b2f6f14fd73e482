import { data } from 'react-router';
import { PageLink } from '~/components/page-link';
import { translator, useI18n } from '~/lib/i18n/i18n';
import { languageOfPath } from '~/lib/languages';
import type { Route } from './+types/not-found';

export function loader() {
  return data({ title: 'Page Not Found' }, { status: 404 });
}

export const meta: Route.MetaFunction = ({ location }) => [
  { title: translator(languageOfPath(location.pathname))('notFound.title') },
  { name: 'robots', content: 'noindex' },
];

export default function NotFound() {
  const { t, path } = useI18n();
  return (
    <section className="mx-auto flex max-w-2xl flex-col items-center px-4 py-24 text-center">
      <p className="text-6xl font-extrabold text-indigo-700" aria-hidden="true">
        404
      </p>
      <h1 className="mt-4 text-2xl font-bold text-slate-900 min-[20rem]:text-3xl min-[22.5rem]:text-4xl">
        {t('notFound.title')}
      </h1>
      <p className="mt-4 text-lg text-slate-700">{t('notFound.text')}</p>
      <PageLink
        to={path('/')}
        className="mt-8 inline-block rounded-full bg-indigo-700 px-6 py-3 font-semibold text-white hover:bg-indigo-800"
      >
        {t('notFound.back')}
      </PageLink>
    </section>
  );
}
