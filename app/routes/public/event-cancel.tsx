import { data, Form } from 'react-router';
import { PageLink } from '~/components/page-link';
import { z } from 'zod';
import { BUTTON } from '~/components/home/styles';
import { metaTranslator, useI18n } from '~/lib/i18n/i18n';
import { languageOfPath } from '~/lib/languages';
import { secretLinkHeaders } from '~/lib/secret-link';
import { pageMeta, siteFromMatches } from '~/lib/seo';
import { checkCancelToken, cancelRegistration } from '~/server/events/registrations.server';
import { parseForm } from '~/server/http/forms.server';
import type { Route } from './+types/event-cancel';

// Issue 27: a registrant's private cancellation link. GET shows a button and changes nothing (mail
// scanners open links); the POST cancels, once. A place given back goes to the first waiting.

export const meta: Route.MetaFunction = ({ matches }) => {
  const site = siteFromMatches(matches);
  const t = metaTranslator(site);
  return pageMeta({
    title: t('events.cancelTitle'),
    description: t('events.cancelDescription'),
    path: '/events',
    site,
    noindex: true,
  });
};

export const headers = secretLinkHeaders;

export async function loader({ params, request }: Route.LoaderArgs) {
  const language = languageOfPath(new URL(request.url).pathname);
  return { registration: (await checkCancelToken(params.token, language)) ?? null };
}

export async function action({ request, params }: Route.ActionArgs) {
  const form = await parseForm(request, z.object({}), { maxBytes: 2_048, requireLength: false });
  if (!form.ok && (form.status === 411 || form.status === 413))
    return data({ cancelled: false, eventCancelled: false }, { status: form.status, headers: form.headers });
  const cancelled = await cancelRegistration(params.token);
  if (cancelled) return data({ cancelled, eventCancelled: false });
  // Staff cancelled the event: the link says so rather than that it does not work.
  const eventCancelled = (await checkCancelToken(params.token))?.eventCancelled ?? false;
  return data({ cancelled, eventCancelled }, { status: eventCancelled ? 409 : 400 });
}

function Panel({ title, children, tone }: { title: string; children: React.ReactNode; tone: 'done' | 'problem' | 'neutral' }) {
  const tones = {
    done: 'border-emerald-300 bg-emerald-50',
    problem: 'border-red-300 bg-red-50',
    neutral: 'border-slate-200 bg-white',
  };
  return (
    <section aria-labelledby="cancel-title" className="mx-auto my-16 max-w-2xl px-4">
      <div className={`rounded-2xl border p-8 shadow-sm ${tones[tone]}`}>
        <h1 id="cancel-title" tabIndex={-1} data-focus="" className="text-3xl font-bold text-slate-900 outline-none">
          {title}
        </h1>
        <div className="mt-4 space-y-4 text-lg text-slate-800">{children}</div>
      </div>
    </section>
  );
}

export default function CancelRegistration({ loaderData, actionData }: Route.ComponentProps) {
  const { t, english } = useI18n();
  if (actionData?.cancelled)
    return (
      <Panel title={t('events.cancelledTitle')} tone="done">
        <p>{t('events.cancelThanks')}</p>
        <PageLink to="/events" className={BUTTON.primary}>
          {t('events.other')}
        </PageLink>
      </Panel>
    );
  if (actionData?.eventCancelled || loaderData.registration?.eventCancelled)
    return (
      <Panel title={t('events.isCancelled')} tone="neutral">
        <p>{t('events.cancelEventGone')}</p>
        <PageLink to="/events" className={BUTTON.primary}>
          {t('events.other')}
        </PageLink>
      </Panel>
    );
  if (actionData || !loaderData.registration)
    return (
      <Panel title={t('events.cancelInvalidTitle')} tone="problem">
        <p>{t('events.cancelInvalid')}</p>
      </Panel>
    );
  return (
    <Panel title={t('events.cancelTitle')} tone="neutral">
      <p>
        {t('events.cancelBefore')}
        <strong lang={loaderData.registration.titleLanguage === 'en' ? english : undefined}>
          {loaderData.registration.eventTitle}
        </strong>
        {t('events.cancelAfter')}
      </p>
      <Form method="post">
        <button type="submit" className={BUTTON.primary}>
          {t('events.cancelButton')}
        </button>
      </Form>
    </Panel>
  );
}
