import { data } from 'react-router';
import { z } from 'zod';
import { SubscriptionPanel } from '~/components/newsletter-panel';
import { SUBSCRIPTION_PAGE_TEXT as TEXT } from '~/lib/newsletter';
import { pageMeta, siteFromMatches } from '~/lib/seo';
import { secretLinkHeaders } from '~/lib/secret-link';
import { parseForm } from '~/server/http/forms.server';
import { checkConfirmToken, confirmSubscription } from '~/server/newsletter/newsletter.server';
import { translateEnglish, useI18n } from '~/lib/i18n/i18n';
import type { Route } from './+types/newsletter-confirm';

// The link in the confirmation mail (docs/decisions/505-newsletter.md). Opening it changes nothing:
// mail scanners open links too, and must not subscribe anyone. The button confirms, once.

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: translateEnglish(siteFromMatches(matches)?.language ?? 'en', TEXT.confirmTitle),
    description: translateEnglish(siteFromMatches(matches)?.language ?? 'en', 'Confirm your subscription to our newsletter.'),
    path: '/newsletter',
    site: siteFromMatches(matches),
    noindex: true,
  });

export const headers = secretLinkHeaders;

export async function loader({ params }: Route.LoaderArgs) {
  return { valid: await checkConfirmToken(params.token) };
}

export async function action({ request, params }: Route.ActionArgs) {
  const form = await parseForm(request, z.object({}), { maxBytes: 1_024, requireLength: false });
  if (!form.ok) return data({ confirmed: false, refused: true }, { status: form.status, headers: form.headers });
  const confirmed = await confirmSubscription(params.token);
  return data({ confirmed, refused: false }, { status: confirmed ? 200 : 410 });
}

export default function ConfirmSubscription({ loaderData, actionData }: Route.ComponentProps) {
  const { t, tx } = useI18n();
  if (actionData?.confirmed)
    return (
      <SubscriptionPanel title={TEXT.confirmedTitle} tone="done">
        <p>{tx(TEXT.confirmed)}</p>
      </SubscriptionPanel>
    );
  if (actionData || !loaderData.valid)
    return (
      <SubscriptionPanel title={TEXT.confirmInvalidTitle} tone="problem">
        <p>{tx(TEXT.confirmInvalid)}</p>
        <p>
          <a href="/newsletter" className="font-semibold text-indigo-900 underline underline-offset-4">
            {t('newsletter.subscribeAgain')}
          </a>
        </p>
      </SubscriptionPanel>
    );
  return (
    <SubscriptionPanel title={TEXT.confirmTitle} tone="neutral" action={TEXT.confirmButton}>
      <p>{tx(TEXT.confirmIntro)}</p>
    </SubscriptionPanel>
  );
}
