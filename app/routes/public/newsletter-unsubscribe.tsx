import { data } from 'react-router';
import { z } from 'zod';
import { SubscriptionPanel } from '~/components/newsletter-panel';
import { SUBSCRIPTION_PAGE_TEXT as TEXT } from '~/lib/newsletter';
import { pageMeta, siteFromMatches } from '~/lib/seo';
import { secretLinkHeaders } from '~/lib/secret-link';
import { parseForm } from '~/server/http/forms.server';
import { checkUnsubscribeToken, unsubscribe } from '~/server/newsletter/newsletter.server';
import { translateEnglish, useI18n } from '~/lib/i18n/i18n';
import type { Route } from './+types/newsletter-unsubscribe';

// Every newsletter mail's personal unsubscribe link, and its List-Unsubscribe header (RFC 8058,
// docs/decisions/505-newsletter.md). GET shows a button and changes nothing (mail scanners open
// links); a POST unsubscribes at once: the button's, or a mail program's one-click POST of
// "List-Unsubscribe=One-Click", which the root middleware lets through from any origin for this path
// only. The answer is the same whether or not the address is still on the list.

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: translateEnglish(siteFromMatches(matches)?.language ?? 'en', TEXT.unsubscribeTitle),
    description: translateEnglish(siteFromMatches(matches)?.language ?? 'en', 'Stop receiving our newsletter.'),
    path: '/newsletter',
    site: siteFromMatches(matches),
    noindex: true,
  });

export const headers = secretLinkHeaders;

export async function loader({ params }: Route.LoaderArgs) {
  return { valid: await checkUnsubscribeToken(params.token) };
}

export async function action({ request, params }: Route.ActionArgs) {
  // The body says only "List-Unsubscribe=One-Click" (or nothing, from our button): read within a
  // small bound and ignored; only a body too large to read is refused.
  const form = await parseForm(request, z.object({}), { maxBytes: 2_048, requireLength: false });
  if (!form.ok && (form.status === 411 || form.status === 413))
    return data({ unsubscribed: false }, { status: form.status, headers: form.headers });
  const unsubscribed = await unsubscribe(params.token);
  return data({ unsubscribed }, { status: unsubscribed ? 200 : 400 });
}

export default function Unsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  const { tx } = useI18n();
  if (actionData?.unsubscribed)
    return (
      <SubscriptionPanel title={TEXT.unsubscribedTitle} tone="done">
        <p>{tx(TEXT.unsubscribed)}</p>
      </SubscriptionPanel>
    );
  if (actionData || !loaderData.valid)
    return (
      <SubscriptionPanel title={TEXT.unsubscribeInvalidTitle} tone="problem">
        <p>{tx(TEXT.unsubscribeInvalid)}</p>
      </SubscriptionPanel>
    );
  return (
    <SubscriptionPanel title={TEXT.unsubscribeTitle} tone="neutral" action={TEXT.unsubscribeButton}>
      <p>{tx(TEXT.unsubscribeIntro)}</p>
    </SubscriptionPanel>
  );
}
