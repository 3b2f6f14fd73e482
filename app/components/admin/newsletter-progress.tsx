import { useEffect } from 'react';
import { Form, Link, useNavigation, useRevalidator } from 'react-router';
import { formatMessageTime } from '~/lib/messages';
import type { DeliveryStatus, SendStatus } from '~/lib/newsletter';

// A newsletter send's progress on the send screen (issue 12): counts from the deliveries, a progress
// bar, the addresses that failed and why, and Stop / Resume. While sending, the page asks again
// every few seconds: with JavaScript through the revalidator, without it through a meta refresh.

/** How often the screen asks for progress while a send runs. */
const POLL_MS = 3_000;
/** The same without JavaScript: a whole page load, so less often. */
const REFRESH_SECONDS = 15;

export interface SendProgressView {
  id: string;
  status: SendStatus;
  recipients: number;
  counts: Record<DeliveryStatus, number>;
  createdAt: string;
  createdBy: string;
  finishedAt: string | null;
  stalled: string | null;
  retrying: string | null;
  failures: { email: string; error: string }[];
}

const STATUS_WORDS: Record<SendStatus, string> = { sending: 'Sending', finished: 'Finished', stopped: 'Stopped' };

/** Asks for fresh data every POLL_MS while `active`, when nothing else is loading. */
export function useProgressPolling(active: boolean): void {
  const revalidator = useRevalidator();
  const { revalidate, state } = revalidator;
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => {
      if (state === 'idle' && document.visibilityState === 'visible') void revalidate();
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [active, revalidate, state]);
}

export function SendProgressPanel({ send, here }: { send: SendProgressView; here: string }) {
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting';
  const done = send.counts.sent + send.counts.failed + send.counts.skipped;
  const sending = send.status === 'sending';
  useProgressPolling(sending);
  return (
    <section aria-labelledby="progress-title" className="mt-6 rounded-2xl border border-indigo-200 bg-white p-6 shadow-sm">
      {sending && (
        <noscript>
          <meta httpEquiv="refresh" content={String(REFRESH_SECONDS)} />
        </noscript>
      )}
      <h2 id="progress-title" className="text-xl font-bold text-slate-900">
        {sending ? 'Sending now' : `Last send: ${STATUS_WORDS[send.status].toLowerCase()}`}
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        Started <time dateTime={send.createdAt}>{formatMessageTime(send.createdAt)}</time> by {send.createdBy}
        {send.finishedAt && (
          <>
            {' '}
            · {send.status === 'stopped' ? 'stopped' : 'finished'}{' '}
            <time dateTime={send.finishedAt}>{formatMessageTime(send.finishedAt)}</time>
          </>
        )}
      </p>
      <div role="status" className="mt-4">
        <p className="text-lg font-semibold text-slate-900">
          {send.counts.sent.toLocaleString('en-US')} of {send.recipients.toLocaleString('en-US')} sent
          {send.counts.failed > 0 && ` · ${send.counts.failed.toLocaleString('en-US')} failed`}
          {send.counts.skipped > 0 && ` · ${send.counts.skipped.toLocaleString('en-US')} unsubscribed before their turn`}
          {sending && ` · ${(send.counts.queued + send.counts.sending).toLocaleString('en-US')} waiting`}
        </p>
        {send.stalled && (
          <p className="mt-2 font-medium text-red-900">
            Sending has stopped: the mail server could not be reached ({send.stalled}).
          </p>
        )}
        {send.retrying && !send.stalled && (
          <p className="mt-2 text-amber-950">The mail server did not answer; sending tries again shortly ({send.retrying}).</p>
        )}
      </div>
      <progress
        max={Math.max(send.recipients, 1)}
        value={done}
        aria-label="Emails handled"
        className="mt-3 h-3 w-full overflow-hidden rounded-full [&::-moz-progress-bar]:bg-indigo-800 [&::-webkit-progress-bar]:bg-slate-200 [&::-webkit-progress-value]:bg-indigo-800"
      />
      {sending && (
        <div className="mt-4 flex flex-wrap items-center gap-3">
          <Link
            to={here}
            className="inline-flex min-h-11 items-center font-semibold text-indigo-900 underline underline-offset-4"
          >
            Refresh progress
          </Link>
          {send.stalled && (
            <Form method="post">
              <input type="hidden" name="intent" value="resume" />
              <input type="hidden" name="sendId" value={send.id} />
              <button
                type="submit"
                disabled={busy}
                className="min-h-11 rounded-lg bg-indigo-800 px-4 font-semibold text-white hover:bg-indigo-900 disabled:opacity-70"
              >
                Resume sending
              </button>
            </Form>
          )}
          <Form method="post">
            <input type="hidden" name="intent" value="stop" />
            <input type="hidden" name="sendId" value={send.id} />
            <button
              type="submit"
              disabled={busy}
              className="min-h-11 rounded-lg border-2 border-red-700 bg-white px-4 font-semibold text-red-800 hover:bg-red-50 disabled:opacity-70"
            >
              Stop sending
            </button>
          </Form>
        </div>
      )}
      {send.failures.length > 0 && (
        <div className="mt-6">
          <h3 className="font-bold text-slate-900">
            Not delivered ({send.counts.failed.toLocaleString('en-US')}
            {send.counts.failed > send.failures.length ? `, the first ${send.failures.length} shown` : ''})
          </h3>
          <ul className="mt-2 space-y-2">
            {send.failures.map((failure) => (
              <li key={failure.email} className="rounded-lg bg-red-50 p-3 text-sm text-red-950">
                <span className="font-semibold break-all">{failure.email}</span>:{' '}
                <span className="break-words">{failure.error}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
