import { data, Form, Link, redirect, useNavigation } from 'react-router';
import { z } from 'zod';
import { getStaff } from '~/server/http/staff-context.server';
import { getConfig } from '~/server/platform/config.server';
import {
  countRecipients,
  getSendRate,
  getSendableItem,
  listSends,
  previewNewsletter,
  resumeNewsletterSend,
  sendTestNewsletter,
  setSendRate,
  startNewsletterSend,
  stopNewsletterSend,
} from '~/server/newsletter/newsletter-send.server';
import { parseForm } from '~/server/http/forms.server';
import { flashCookie } from '~/server/http/flash.server';
import { clientIp } from '~/server/http/request-info.server';
import { articlePath, COLLECTION_INFO } from '~/lib/collections';
import { NEWSLETTER_TEXT, SEND_RATE, subscriberCount } from '~/lib/newsletter';
import { formatMessageTime } from '~/lib/messages';
import { Field, inputClass } from '~/components/admin/form';
import { SendProgressPanel } from '~/components/admin/newsletter-progress';
import { failureAnswer } from '~/server/http/rules.server';
import type { Route } from './+types/newsletter-send';
import { dashboardMeta } from '~/lib/seo';

export const meta: Route.MetaFunction = () => dashboardMeta('Send to subscribers');

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = getStaff(context);
  const item = await getSendableItem(params.id);
  if (!item) throw data({ error: NEWSLETTER_TEXT.itemNotFound }, { status: 404 });
  const [preview, recipients, sends, rate] = await Promise.all([
    previewNewsletter(item.id),
    countRecipients(item.id),
    listSends(item.id),
    getSendRate(),
  ]);
  const confirming = new URL(request.url).searchParams.get('step') === 'confirm';
  return {
    screen: {
      item: {
        id: item.id,
        title: item.title,
        label: COLLECTION_INFO[item.collection].label,
        path: articlePath(item.collection, item.id),
      },
      preview: { subject: preview.subject, html: preview.html, text: preview.text },
      recipients,
      sends,
      rate,
      mailServer: Boolean(getConfig().smtpUrl),
      me: user.email,
      confirming,
    },
  };
}

const ID = z.string().trim().max(120);
const actionSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('test') }),
  z.object({ intent: z.literal('send') }),
  z.object({ intent: z.literal('stop'), sendId: ID }),
  z.object({ intent: z.literal('resume'), sendId: ID }),
  z.object({ intent: z.literal('rate'), rate: z.coerce.number() }),
]);

export async function action({ request, params, context }: Route.ActionArgs) {
  const actor = getStaff(context);
  const ip = clientIp(context);
  const form = await parseForm(request, actionSchema, { maxBytes: 2_048 });
  if (!form.ok) {
    const message = form.refused ? form.formError : (Object.values(form.fieldErrors)[0] ?? 'Please try again.');
    return data(
      { ok: false as const, intent: form.values.intent ?? null, message },
      { status: form.status, headers: form.headers },
    );
  }
  const here = `/admin/newsletter/${params.id}`;
  const done = (message: string) =>
    redirect(here, { status: 303, headers: { 'Set-Cookie': flashCookie({ type: 'success', message, toast: true }) } });
  const input = form.values;
  try {
    switch (input.intent) {
      case 'test':
        return done(NEWSLETTER_TEXT.testSent(await sendTestNewsletter(actor, params.id, ip)));
      case 'send': {
        const { recipients } = await startNewsletterSend(actor, params.id, ip);
        return done(NEWSLETTER_TEXT.started(recipients));
      }
      case 'stop':
        await stopNewsletterSend(actor, params.id, input.sendId, ip);
        return done(NEWSLETTER_TEXT.stopped);
      case 'resume':
        await resumeNewsletterSend(actor, params.id, input.sendId);
        return done(NEWSLETTER_TEXT.resumed);
      case 'rate':
        return done(NEWSLETTER_TEXT.rateSaved(await setSendRate(actor, input.rate, ip)));
    }
  } catch (error) {
    const failed = input.intent === 'test' ? NEWSLETTER_TEXT.testFailed : 'That did not work. Please try again.';
    return failureAnswer(error, failed, `a newsletter action failed (${input.intent})`, { intent: input.intent });
  }
}

type Screen = NonNullable<Route.ComponentProps['loaderData']['screen']>;

const primary =
  'inline-flex min-h-11 items-center rounded-lg bg-indigo-800 px-5 py-2.5 font-semibold text-white hover:bg-indigo-900 disabled:opacity-70';
const secondary =
  'inline-flex min-h-11 items-center rounded-lg border-2 border-slate-300 bg-white px-4 font-semibold text-slate-800 hover:bg-slate-100';
const card = 'mt-6 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm';

/** Issue 12: preview a published item's mail, send a test to yourself, then send it to the confirmed subscribers. */
export default function NewsletterSend({ loaderData, actionData }: Route.ComponentProps) {
  const screen = loaderData.screen;
  const here = `/admin/newsletter/${screen.item.id}`;
  const current = screen.sends[0];
  const sending = current?.status === 'sending';
  const problem = actionData && !actionData.ok ? actionData : undefined;
  return (
    <>
      <Link to="/admin/content" className="font-semibold text-indigo-900 underline underline-offset-4">
        <span aria-hidden="true">← </span>Manage Content
      </Link>
      <h1 className="mt-3 text-2xl font-bold text-slate-900">{NEWSLETTER_TEXT.sendTitle}</h1>
      <p className="mt-1 text-slate-700">
        {screen.item.label}:{' '}
        <a href={screen.item.path} className="font-semibold text-indigo-900 underline underline-offset-4">
          {screen.item.title}
        </a>
      </p>

      {problem && problem.intent !== 'rate' && (
        <p role="alert" className="mt-4 rounded-lg border border-red-300 bg-red-50 p-4 font-medium text-red-900">
          {problem.message}
        </p>
      )}

      {current && <SendProgressPanel send={current} here={here} />}

      {!sending && <SendSection screen={screen} here={here} />}

      <section aria-labelledby="preview-title" className={card}>
        <h2 id="preview-title" className="text-xl font-bold text-slate-900">
          Preview
        </h2>
        <p className="mt-1 text-slate-700">
          Subject: <span className="font-semibold text-slate-900">{screen.preview.subject}</span>
        </p>
        {/* No scripts may run in it; same origin only so the site's images load (they are sent same-origin only). */}
        <iframe
          title="Preview of the email"
          sandbox="allow-same-origin"
          srcDoc={screen.preview.html}
          className="mt-4 h-[36rem] w-full rounded-lg border border-slate-300 bg-slate-100"
        />
        <p className="mt-2">
          <a
            href={`${here}/preview`}
            target="_blank"
            rel="noreferrer"
            className="font-semibold text-indigo-900 underline underline-offset-4"
          >
            Open the email on its own<span className="sr-only"> (opens in a new tab)</span>
          </a>
        </p>
        <details className="mt-4">
          <summary className="cursor-pointer font-semibold text-slate-900">Plain text version</summary>
          <pre className="mt-2 max-h-96 overflow-auto rounded-lg bg-slate-100 p-4 text-sm break-words whitespace-pre-wrap text-slate-900">
            {screen.preview.text}
          </pre>
        </details>
      </section>

      <TestSection me={screen.me} />
      <RateSection rate={screen.rate} error={problem?.intent === 'rate' ? problem.message : undefined} />

      {screen.sends.length > 1 && <EarlierSends sends={screen.sends.slice(1)} />}
    </>
  );
}

function SendSection({ screen, here }: { screen: Screen; here: string }) {
  const navigation = useNavigation();
  const starting = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'send';
  const minutes = Math.max(1, Math.ceil(screen.recipients / screen.rate));
  return (
    <section aria-labelledby="send-title" className={card}>
      <h2 id="send-title" className="text-xl font-bold text-slate-900">
        Send to confirmed subscribers
      </h2>
      {!screen.mailServer ? (
        <p className="mt-2 font-medium text-red-900">{NEWSLETTER_TEXT.noMailServer}</p>
      ) : screen.recipients === 0 ? (
        <p className="mt-2 text-slate-800">{NEWSLETTER_TEXT.nobodyToSend}</p>
      ) : screen.confirming ? (
        <div className="mt-3 rounded-xl border-2 border-amber-400 bg-amber-50 p-5">
          <p className="text-lg font-semibold text-slate-900">
            Send “{screen.item.title}” to {subscriberCount(screen.recipients)}?
          </p>
          <p className="mt-2 text-slate-800">
            Each confirmed subscriber receives it once. At {screen.rate.toLocaleString('en-US')} emails a minute this takes about{' '}
            {minutes === 1 ? 'a minute' : `${minutes.toLocaleString('en-US')} minutes`}. You can stop it while it runs, but emails
            already sent cannot be taken back.
          </p>
          <div className="mt-4 flex flex-wrap gap-3">
            <Form method="post" action={here}>
              <input type="hidden" name="intent" value="send" />
              <button type="submit" disabled={starting} className={primary}>
                {starting ? 'Starting...' : `Yes, send to ${subscriberCount(screen.recipients)}`}
              </button>
            </Form>
            <Link to={here} className={secondary}>
              Cancel
            </Link>
          </div>
        </div>
      ) : (
        <>
          <p className="mt-2 text-slate-800">
            {subscriberCount(screen.recipients)} will receive it: every confirmed subscriber who has not received this item yet.
          </p>
          <Link to={`${here}?step=confirm`} className={`mt-4 ${primary}`}>
            Send to {subscriberCount(screen.recipients)}…
          </Link>
        </>
      )}
    </section>
  );
}

function TestSection({ me }: { me: string }) {
  const navigation = useNavigation();
  const sendingTest = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'test';
  return (
    <section aria-labelledby="test-title" className={card}>
      <h2 id="test-title" className="text-xl font-bold text-slate-900">
        Send a test to yourself
      </h2>
      <p className="mt-1 text-slate-700">
        The email goes to <span className="font-semibold break-all">{me}</span>, marked as a test. Subscribers receive nothing.
      </p>
      <Form method="post" className="mt-4">
        <input type="hidden" name="intent" value="test" />
        <button type="submit" disabled={sendingTest} className={primary}>
          {sendingTest ? 'Sending...' : 'Send a test to me'}
        </button>
      </Form>
    </section>
  );
}

function RateSection({ rate, error }: { rate: number; error: string | undefined }) {
  const navigation = useNavigation();
  const saving = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'rate';
  return (
    <section aria-labelledby="rate-title" className={card}>
      <h2 id="rate-title" className="text-xl font-bold text-slate-900">
        Sending speed
      </h2>
      <p className="mt-1 text-slate-700">
        How many emails go out each minute, for every newsletter (a change applies to a send already running). Your mail provider
        may limit how many you may send; ask them before raising it.
      </p>
      <Form method="post" className="mt-4 flex flex-wrap items-end gap-3">
        <input type="hidden" name="intent" value="rate" />
        <div className="w-48">
          <Field
            id="rate"
            label="Emails a minute"
            error={error}
            note={`${SEND_RATE.min} to ${SEND_RATE.max.toLocaleString('en-US')}`}
          >
            {(control) => (
              <input
                {...control}
                name="rate"
                type="number"
                inputMode="numeric"
                min={SEND_RATE.min}
                max={SEND_RATE.max}
                step={1}
                required
                defaultValue={rate}
                className={inputClass(!!error)}
              />
            )}
          </Field>
        </div>
        <button type="submit" disabled={saving} className={`mb-6 ${primary}`}>
          {saving ? 'Saving...' : 'Save'}
        </button>
      </Form>
    </section>
  );
}

function EarlierSends({ sends }: { sends: Screen['sends'] }) {
  return (
    <section aria-labelledby="earlier-title" className={card}>
      <h2 id="earlier-title" className="text-xl font-bold text-slate-900">
        Earlier sends of this item
      </h2>
      <div
        role="region"
        aria-label="Table of earlier sends"
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling region must take focus (WCAG 2.1.1)
        tabIndex={0}
        className="relative mt-3 overflow-x-auto focus:ring-4 focus:ring-indigo-300 focus:outline-none"
      >
        <table className="w-full text-left text-sm">
          <thead>
            <tr className="border-b border-slate-300 text-slate-800">
              <th scope="col" className="py-2 pr-4">
                Started
              </th>
              <th scope="col" className="py-2 pr-4">
                By
              </th>
              <th scope="col" className="py-2 pr-4">
                Sent
              </th>
              <th scope="col" className="py-2 pr-4">
                Failed
              </th>
              <th scope="col" className="py-2">
                Status
              </th>
            </tr>
          </thead>
          <tbody>
            {sends.map((send) => (
              <tr key={send.id} className="border-b border-slate-200 text-slate-900">
                <td className="py-2 pr-4">
                  <time dateTime={send.createdAt}>{formatMessageTime(send.createdAt)}</time>
                </td>
                <td className="py-2 pr-4 break-all">{send.createdBy}</td>
                <td className="py-2 pr-4">
                  {send.counts.sent.toLocaleString('en-US')} of {send.recipients.toLocaleString('en-US')}
                </td>
                <td className="py-2 pr-4">{send.counts.failed.toLocaleString('en-US')}</td>
                <td className="py-2">
                  {send.status === 'finished' ? 'Finished' : send.status === 'stopped' ? 'Stopped' : 'Sending'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
