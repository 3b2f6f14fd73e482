import { data, Form, Link } from 'react-router';
import { z } from 'zod';
import { BUTTON } from '~/components/home/styles';
import { EVENT_TEXT } from '~/lib/events';
import { secretLinkHeaders } from '~/lib/secret-link';
import { pageMeta, siteFromMatches } from '~/lib/seo';
import { checkCancelToken, cancelRegistration } from '~/server/events/registrations.server';
import { parseForm } from '~/server/http/forms.server';
import type { Route } from './+types/event-cancel';

// Issue 27: a registrant's private cancellation link. GET shows a button and changes nothing (mail
// scanners open links); the POST cancels, once. A place given back goes to the first waiting.

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: EVENT_TEXT.cancelTitle,
    description: 'Cancel your registration.',
    path: '/events',
    site: siteFromMatches(matches),
    noindex: true,
  });

export const headers = secretLinkHeaders;

export async function loader({ params }: Route.LoaderArgs) {
  return { registration: (await checkCancelToken(params.token)) ?? null };
}

export async function action({ request, params }: Route.ActionArgs) {
  const form = await parseForm(request, z.object({}), { maxBytes: 2_048, requireLength: false });
  if (!form.ok && (form.status === 411 || form.status === 413))
    return data({ cancelled: false }, { status: form.status, headers: form.headers });
  const cancelled = await cancelRegistration(params.token);
  return data({ cancelled }, { status: cancelled ? 200 : 400 });
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
  if (actionData?.cancelled)
    return (
      <Panel title={EVENT_TEXT.cancelledTitle} tone="done">
        <p>Thank you for letting us know: your place goes to the next person waiting.</p>
        <Link to="/events" className={BUTTON.primary}>
          Other events
        </Link>
      </Panel>
    );
  if (actionData || !loaderData.registration)
    return (
      <Panel title={EVENT_TEXT.cancelInvalidTitle} tone="problem">
        <p>{EVENT_TEXT.cancelInvalid}</p>
      </Panel>
    );
  return (
    <Panel title={EVENT_TEXT.cancelTitle} tone="neutral">
      <p>
        Cancel your registration for <strong>{loaderData.registration.eventTitle}</strong>? If you had a place, it goes to the
        first person on the waiting list.
      </p>
      <Form method="post">
        <button type="submit" className={BUTTON.primary}>
          {EVENT_TEXT.cancelButton}
        </button>
      </Form>
    </Panel>
  );
}
