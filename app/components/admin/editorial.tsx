import { useEffect, useRef } from 'react';
import { Form, useFetcher } from 'react-router';
import { CONTENT_MESSAGES, conflictMessage, STATUS_LABELS, type ContentAnswer, type ContentConflict } from '~/lib/content-form';
import { useHydrated } from '~/lib/use-hydrated';
import { ArticleBody } from '../article-body';
import { FieldChanges } from './word-comparison';
import { useToast } from '../toast';

// Issue 13's parts of the content form: the answer to a save made after someone else's (409), and
// "Copy preview link". Both work without JavaScript.

/**
 * Someone saved the item after this form was opened: who and when; Compare (what differs between
 * their version and this form, word by word, then theirs in full); Reload (their version, losing
 * what was typed here); or Overwrite (this form again, sent with their version's number so it
 * replaces it knowingly).
 */
export function ConflictPanel({ conflict, saving }: { conflict: ContentConflict; saving: boolean }) {
  return (
    <section
      role="alert"
      aria-labelledby="conflict-title"
      className="rounded-xl border-l-4 border-amber-600 bg-amber-50 p-4 text-amber-950"
    >
      <h2 id="conflict-title" className="font-bold">
        Someone else saved this item
      </h2>
      <p className="mt-1">{conflictMessage(conflict.by, conflict.at)}</p>
      <details className="mt-3 rounded-lg bg-white p-3 text-slate-900">
        <summary className="cursor-pointer font-semibold">Compare</summary>
        {conflict.changes.length === 0 ? (
          <p className="mt-3 text-slate-700">Your version is the same as theirs.</p>
        ) : (
          <FieldChanges changes={conflict.changes} before="their version" after="yours" />
        )}
        <h3 className="mt-6 font-semibold">
          Their version ({STATUS_LABELS[conflict.theirs.status]}, saved {conflict.at})
        </h3>
        <p className="mt-2 font-bold">{conflict.theirs.title}</p>
        {conflict.theirs.summary && <p className="mt-1 text-slate-700">{conflict.theirs.summary}</p>}
        <ArticleBody html={conflict.theirs.content} className="mt-2" />
      </details>
      <div className="mt-3 flex flex-wrap gap-3">
        {/* A full page load: the form opens again with what is stored now. */}
        <a
          href="?"
          className="inline-flex items-center rounded-lg border-2 border-slate-400 bg-white px-4 py-2 font-semibold text-slate-900 hover:bg-slate-100"
        >
          Reload
        </a>
        <button
          type="submit"
          name="intent"
          value={conflict.intent}
          disabled={saving}
          className="rounded-lg bg-amber-700 px-4 py-2 font-semibold text-white hover:bg-amber-800 disabled:bg-slate-400 disabled:text-slate-900"
        >
          Overwrite with my version
        </button>
      </div>
    </section>
  );
}

/**
 * "Copy preview link": makes a link (the edit route's action, intent=preview-link) and shows it; with
 * JavaScript it is also put on the clipboard. Each press makes a new link, valid 7 days.
 */
export function PreviewLinkForm({ result }: { result?: ContentAnswer | undefined }) {
  const hydrated = useHydrated();
  const toast = useToast();
  const fetcher = useFetcher<ContentAnswer>();
  const answer = fetcher.data ?? result;
  const url = answer?.previewUrl;
  // The link just made goes on the clipboard once (a ref, so copying it causes no render).
  const copied = useRef<string | null>(null);
  useEffect(() => {
    const made = fetcher.data?.previewUrl;
    if (!made || copied.current === made) return;
    copied.current = made;
    navigator.clipboard
      ?.writeText(made)
      .then(() => toast('success', CONTENT_MESSAGES.previewLinkCopied))
      .catch(() => toast('info', CONTENT_MESSAGES.previewLinkMade));
  }, [fetcher.data, toast]);
  const FormOf = hydrated ? fetcher.Form : Form;
  return (
    <section aria-labelledby="preview-link-title" className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id="preview-link-title" className="font-semibold text-slate-900">
        Preview link
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        A link to this item as it will look, for someone without an account. It works for 7 days, or until the item is published.
      </p>
      <FormOf method="post" className="mt-3">
        <input type="hidden" name="intent" value="preview-link" />
        <button
          type="submit"
          disabled={fetcher.state !== 'idle'}
          className="rounded-lg border-2 border-slate-300 px-4 py-2 font-semibold text-slate-800 hover:bg-slate-100"
        >
          Copy preview link
        </button>
      </FormOf>
      {answer && !answer.ok && answer.message && (
        <p role="alert" className="mt-2 text-sm font-medium text-red-800">
          {answer.message}
        </p>
      )}
      {url && (
        <div className="mt-3">
          <label htmlFor="preview-link" className="block text-sm font-medium text-slate-900">
            Preview link (valid 7 days)
          </label>
          <input
            id="preview-link"
            readOnly
            value={url}
            onFocus={(e) => e.currentTarget.select()}
            className="mt-1 block w-full rounded-lg border-2 border-slate-300 bg-slate-50 px-3 py-2 text-slate-900"
          />
        </div>
      )}
    </section>
  );
}
