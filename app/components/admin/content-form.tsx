import { useEffect, useRef, useState, type FormEvent } from 'react';
import { data, Form, isRouteErrorResponse, Link, useFetcher } from 'react-router';
import { categoryLabel } from '~/lib/categories';
import {
  CONTENT_MESSAGES,
  categoriesFor,
  failedMessage,
  intentOf,
  schemaFor,
  summaryLabelOf,
  SUMMARY_MAX,
  TITLE_MAX,
  type ContentAnswer,
  type ContentErrors,
  type ContentField,
  type ContentFormValues,
  type ContentStatus,
  type ContentType,
} from '~/lib/content-form';
import { useHydrated } from '~/lib/use-hydrated';
import { ArticleBody } from '../article-body';
import { useToast } from '../toast';
import { Banner } from './banner';
import { AutosaveBanner, AutosaveScope, useAutosave } from './autosave';
import { Field, FieldError, inputClass, primaryButton, useTypedState } from './form';
import { FeaturedImage } from './featured-image';
import { checkPostedForm, focusFirstError } from './form-checks';
import { RichTextEditor } from './rich-text-editor.client';
import { ConflictPanel, PreviewLinkForm } from './editorial';
import { SignLanguageVideo } from './sign-language-video';
import { EasyReadField } from './easy-read-field';
import { CAPTIONS_MESSAGES } from '~/lib/webvtt';
import type { VideoFormState } from '~/lib/video-upload';

export type { ContentFormValues };

/** Issue 13: where the item stands (drafts, scheduling) and the version the form was opened at. */
export interface EditorialState {
  /** null for a new item. */
  status: ContentStatus | null;
  version: number | null;
  /** The organisation's time zone, in which the schedule is entered and shown. */
  timeZone: string;
  scheduleDate: string;
  scheduleTime: string;
  /** "December 5, 2026 at 9:00 AM (Africa/Kampala)" for a scheduled item. */
  scheduledLabel: string | null;
}

export const NEW_ITEM: Omit<EditorialState, 'timeZone'> = {
  status: null,
  version: null,
  scheduleDate: '',
  scheduleTime: '',
  scheduledLabel: null,
};

export const EMPTY_CONTENT: ContentFormValues = {
  title: '',
  category: '',
  tags: '',
  summary: '',
  imageUrl: '',
  imageAlt: '',
  content: '',
  easyRead: '',
};

/** Where focus goes for each field when it is the first one in error. */
const FOCUS_ID: Record<ContentField, string> = {
  title: 'title',
  category: 'category',
  tags: 'tags',
  summary: 'summary',
  imageUrl: 'imageFile',
  imageAlt: 'imageAlt',
  content: 'content',
  easyRead: 'easyRead',
};
const ORDER: ContentField[] = ['title', 'category', 'tags', 'summary', 'imageUrl', 'imageAlt', 'content', 'easyRead'];

const focusFirst = (errors: ContentErrors) => focusFirstError(errors, ORDER, FOCUS_ID);

/** An answer's message; one made in the browser is worded here, where the type and mode are known. */
function wording(answer: ContentAnswer, type: ContentType, mode: 'create' | 'edit'): string {
  return answer.reason ? failedMessage(type, mode, answer.reason) : answer.message;
}

/**
 * The routes' clientAction: the server's answer as it is. A lost connection, or an item deleted
 * since the form opened, becomes an answer the form shows (with an error status, so nothing reloads).
 */
export async function saveThroughServer<T>(serverAction: () => Promise<T>) {
  const failed = (status: number, reason: string) =>
    data({ ok: false, status, message: '', errors: {}, values: {}, reason } satisfies ContentAnswer, { status });
  try {
    return await serverAction();
  } catch (error) {
    if (error instanceof Response) throw error;
    if (isRouteErrorResponse(error)) {
      if (error.status === 404) return failed(404, CONTENT_MESSAGES.notFound);
      throw error;
    }
    return failed(503, CONTENT_MESSAGES.network);
  }
}

/**
 * The content form with autosave (issue 13): `itemId` names an existing item's slot (a new item's is
 * its type); `restoredVersion` when the form opens filled from a revision, so it holds unsaved changes.
 */
export function ContentForm({
  itemId,
  restoredVersion = false,
  ...props
}: Parameters<typeof ContentFormBody>[0] & { itemId?: string; restoredVersion?: boolean }) {
  const slot = itemId ?? (props.mode === 'create' ? `new-${props.type}` : null);
  return (
    <AutosaveScope slot={slot} unsavedFromStart={restoredVersion}>
      {(refill) => (
        <ContentFormBody
          key={refill.generation}
          {...props}
          initial={refill.values ? { ...props.initial, ...refill.values } : props.initial}
        />
      )}
    </AutosaveScope>
  );
}

/**
 * spec §2 Content form (Add Story / Add Blog, and edit): title with a counter, author (read-only),
 * category, tags, summary or excerpt, featured image, rich-text body; Publish/Update, Show/Hide
 * Preview, Cancel Edit. Checked in the browser for quick feedback and again on the server.
 */
function ContentFormBody({
  type,
  mode,
  author,
  initial,
  result,
  onCreated,
  editorial,
  video = null,
  videoUnavailable = null,
  language = 'en',
}: {
  type: ContentType;
  mode: 'create' | 'edit';
  author: string;
  initial: ContentFormValues;
  /** The answer to a post made without JavaScript. */
  result?: ContentAnswer | undefined;
  onCreated: () => void;
  editorial: EditorialState;
  /** Issue 14: the item's sign-language video as stored, and why video processing is unavailable (or null). */
  video?: VideoFormState | null;
  videoUnavailable?: string | null;
  /** Issue 26: the item's language ('en', 'lg', 'sw'): the easy read's score is for English only. */
  language?: string;
}) {
  const hydrated = useHydrated();
  const toast = useToast();
  const fetcher = useFetcher<ContentAnswer>();
  // An item whose category the list does not offer keeps it (lib/content-form.ts, categoriesFor).
  const keptCategory = mode === 'edit' ? initial.category : undefined;
  const [title, setTitle, titleRef] = useTypedState(initial.title);
  const [summary, setSummary, summaryRef] = useTypedState(initial.summary);
  const [content, setContent] = useState(initial.content);
  const [errors, setErrors] = useState<ContentErrors>(result?.errors ?? {});
  const [banner, setBanner] = useState<{ type: 'error' | 'success'; message: string } | null>(
    result ? { type: result.ok ? 'success' : 'error', message: wording(result, type, mode) } : null,
  );
  const saving = fetcher.state !== 'idle';
  const [showPreview, setShowPreview] = useState(false);
  const [previewHtml, setPreviewHtml] = useState('');
  // A preview the server did not make (too much sent at once, too long) keeps the last one, with why.
  const [previewProblem, setPreviewProblem] = useState('');
  const summaryLabel = summaryLabelOf(type);
  // Issue 13: a published item is only updated; drafts and scheduled items can also be scheduled.
  const published = editorial.status === 'published';
  const [version, setVersion] = useState(result?.conflict?.version ?? editorial.version);
  const [conflict, setConflict] = useState(result?.conflict);
  const [pressed, setPressed] = useState<string | null>(null);

  // After a plain post that failed, put the cursor where the first problem is.
  const focusedOnce = useRef(false);
  useEffect(() => {
    if (!focusedOnce.current && result?.errors) focusFirst(result.errors);
    focusedOnce.current = true;
  }, [result]);

  // Live preview through the server's sanitiser (the public page's), a moment after typing stops.
  useEffect(() => {
    if (!showPreview) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      const body = new FormData();
      body.append('content', content);
      fetch('/admin/content/preview', { method: 'POST', body, signal: controller.signal })
        .then((r) => r.json() as Promise<{ html?: string; error?: string }>)
        .then((r) => {
          if (r.html !== undefined) setPreviewHtml(r.html);
          setPreviewProblem(r.html === undefined ? (r.error ?? '') : '');
        })
        .catch(() => undefined);
    }, 300);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [content, showPreview]);

  // The answer to a save made with JavaScript: shown in the form as soon as it is in...
  const [answer, setAnswer] = useState<ContentAnswer | undefined>(undefined);
  const latest = fetcher.state === 'idle' ? fetcher.data : undefined;
  // Issue 13: unsaved changes are kept every few seconds, offered back, and asked about before leaving.
  const formRef = useRef<HTMLFormElement>(null);
  const autosave = useAutosave({ formRef, baseline: initial, saved: answer?.ok ? answer : undefined });
  if (latest && latest !== answer) {
    setAnswer(latest);
    setConflict(latest.conflict);
    // After a save, the next is checked against the new version; after a 409, Overwrite sends theirs.
    const next = latest.conflict?.version ?? latest.version;
    if (next !== undefined) setVersion(next);
    if (!latest.ok) {
      setErrors(latest.errors);
      setBanner(latest.conflict ? null : { type: 'error', message: wording(latest, type, mode) });
    } else if (mode === 'edit') setBanner({ type: 'success', message: wording(latest, type, mode) });
  }
  // ...and, once, beyond it: the toast, an empty form after publishing, the cursor on the first problem.
  const actedOn = useRef<ContentAnswer | undefined>(undefined);
  useEffect(() => {
    if (!answer || actedOn.current === answer) return;
    actedOn.current = answer;
    const message = wording(answer, type, mode);
    if (answer.ok) {
      toast('success', message);
      if (mode === 'create') onCreated();
      return;
    }
    // A 409 says itself in its panel (an alert) with what to do.
    if (answer.status !== 400 && !answer.conflict) toast('error', message);
    focusFirst(answer.errors);
  }, [answer, type, mode, toast, onCreated]);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // The button pressed (Publish, Save draft, Schedule, Overwrite) is part of the post, as without JavaScript.
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    const form = new FormData(event.currentTarget, submitter);
    form.set('content', content);
    const intent = intentOf(form.get('intent'));
    // An item with a video is published or scheduled only with its captions.
    const checked = checkPostedForm(form, schemaFor(type, intent, keptCategory), {
      goesPublic: intent !== 'draft',
      message: CAPTIONS_MESSAGES.required,
    });
    const values = checked.values;
    const found = checked.found as ContentErrors;
    if (intent === 'schedule' && (!values.scheduleDate || !values.scheduleTime))
      found.scheduleAt = CONTENT_MESSAGES.scheduleRequired;
    if (Object.keys(found).length > 0) {
      setErrors(found);
      setBanner({ type: 'error', message: CONTENT_MESSAGES.fixErrors });
      focusFirst(found);
      return;
    }
    setErrors({});
    setBanner(null);
    setConflict(undefined);
    setPressed(intent);
    // To this route's own action, as the form would post without JavaScript.
    void fetcher.submit(form, { method: 'post', encType: 'multipart/form-data' });
  }

  const clearError = (name: ContentField) => setErrors((e) => (e[name] ? { ...e, [name]: undefined } : e));
  const field = inputClass;
  // The editor is labelled by a paragraph, not a <label>, so it is wired by hand.
  const contentDescribedBy = errors.content ? 'content-error' : undefined;

  return (
    <div className={`grid gap-8 ${showPreview ? 'xl:grid-cols-2' : 'max-w-4xl'}`}>
      <div className="space-y-6">
        <Form
          ref={formRef}
          method="post"
          encType="multipart/form-data"
          noValidate
          onSubmit={hydrated ? onSubmit : undefined}
          className="space-y-6 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm md:p-8"
        >
          {banner && (
            <Banner key={banner.message} type={banner.type} message={banner.message} autoClose={banner.type === 'success'} />
          )}
          <AutosaveBanner autosave={autosave} />
          <Field
            id="title"
            label="Title"
            required
            note={`${title.length}/${TITLE_MAX} characters`}
            noteId="title-count"
            noteWarns={title.length > TITLE_MAX}
            error={errors.title}
          >
            {(control) => (
              <input
                {...control}
                ref={titleRef}
                name="title"
                value={title}
                onChange={(e) => {
                  setTitle(e.target.value);
                  clearError('title');
                }}
                className={field(Boolean(errors.title))}
              />
            )}
          </Field>
          <Field
            id="author"
            label="Author"
            note={mode === 'create' ? 'Published under your name.' : 'The original author is kept.'}
            noteId="author-hint"
          >
            {(control) => <input {...control} value={author} readOnly className={`${field(false)} bg-slate-100`} />}
          </Field>
          <Field id="category" label="Category" required error={errors.category}>
            {(control) => (
              <select
                {...control}
                name="category"
                defaultValue={initial.category}
                onChange={() => clearError('category')}
                className={field(Boolean(errors.category))}
              >
                <option value="">Choose a category</option>
                {categoriesFor(type, keptCategory).map((c) => (
                  <option key={c} value={c}>
                    {categoryLabel(c)}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field
            id="tags"
            label="Tags"
            note="Separate tags with commas, for example: sign language, youth, employment"
            noteId="tags-hint"
            error={errors.tags}
          >
            {(control) => <input {...control} name="tags" defaultValue={initial.tags} className={field(Boolean(errors.tags))} />}
          </Field>
          <Field
            id="summary"
            label={summaryLabel}
            required
            note={`${summary.length}/${SUMMARY_MAX} characters`}
            noteId="summary-count"
            noteWarns={summary.length > SUMMARY_MAX}
            error={errors.summary}
          >
            {(control) => (
              <textarea
                {...control}
                ref={summaryRef}
                name="summary"
                rows={3}
                value={summary}
                onChange={(e) => {
                  setSummary(e.target.value);
                  clearError('summary');
                }}
                className={field(Boolean(errors.summary))}
              />
            )}
          </Field>
          <FeaturedImage type={type} initialUrl={initial.imageUrl} initialAlt={initial.imageAlt} error={errors.imageUrl} />
          <SignLanguageVideo
            initial={video}
            unavailable={videoUnavailable}
            errors={{ video: errors.video, captions: errors.captions, transcript: errors.transcript }}
            initialTranscript={result && !result.ok ? result.values.transcript : undefined}
          />
          <div>
            <p id="content-label" className="mb-1 font-medium text-slate-900">
              Content <span aria-hidden="true">*</span>
            </p>
            {hydrated ? (
              <RichTextEditor
                id="content"
                name="content"
                initialHtml={initial.content}
                invalid={Boolean(errors.content)}
                describedBy={contentDescribedBy}
                onChange={(html) => {
                  setContent(html);
                  clearError('content');
                }}
              />
            ) : (
              <textarea
                id="content"
                name="content"
                rows={16}
                defaultValue={initial.content}
                aria-labelledby="content-label"
                aria-describedby={contentDescribedBy}
                className={field(Boolean(errors.content))}
              />
            )}
            <FieldError id="content-error" message={errors.content} />
          </div>
          <EasyReadField
            initial={initial.easyRead}
            error={errors.easyRead}
            language={language}
            onChange={() => clearError('easyRead')}
          />
          {mode === 'edit' && version !== null && <input type="hidden" name="version" value={version} />}
          {!published && (
            <fieldset
              className="rounded-xl border border-slate-300 p-4"
              aria-describedby={errors.scheduleAt ? 'scheduleAt-error' : undefined}
            >
              <legend className="px-1 font-medium text-slate-900">Schedule</legend>
              {editorial.scheduledLabel && (
                <p className="mb-2 text-sm text-slate-700">Scheduled for {editorial.scheduledLabel}.</p>
              )}
              <div className="flex flex-wrap items-end gap-3">
                <div>
                  <label htmlFor="scheduleDate" className="block text-sm font-medium text-slate-900">
                    Publish on
                  </label>
                  <input
                    id="scheduleDate"
                    name="scheduleDate"
                    type="date"
                    defaultValue={result?.values.scheduleDate ?? editorial.scheduleDate}
                    aria-invalid={errors.scheduleAt ? true : undefined}
                    className={field(Boolean(errors.scheduleAt))}
                  />
                </div>
                <div>
                  <label htmlFor="scheduleTime" className="block text-sm font-medium text-slate-900">
                    Time ({editorial.timeZone})
                  </label>
                  <input
                    id="scheduleTime"
                    name="scheduleTime"
                    type="time"
                    defaultValue={result?.values.scheduleTime ?? editorial.scheduleTime}
                    aria-invalid={errors.scheduleAt ? true : undefined}
                    className={field(Boolean(errors.scheduleAt))}
                  />
                </div>
                <button
                  type="submit"
                  name="intent"
                  value="schedule"
                  disabled={saving}
                  className="rounded-lg border-2 border-indigo-800 bg-white px-5 py-2 font-semibold text-indigo-900 hover:bg-indigo-50 disabled:border-slate-400 disabled:text-slate-700"
                >
                  {saving && pressed === 'schedule'
                    ? 'Scheduling...'
                    : editorial.status === 'scheduled'
                      ? 'Reschedule'
                      : 'Schedule'}
                </button>
              </div>
              <FieldError id="scheduleAt-error" message={errors.scheduleAt} />
            </fieldset>
          )}
          {conflict && <ConflictPanel conflict={conflict} saving={saving} />}
          <div className="flex flex-wrap gap-3">
            <button type="submit" name="intent" value="publish" disabled={saving} className={primaryButton}>
              {saving && pressed === 'publish' ? (published ? 'Updating...' : 'Publishing...') : published ? 'Update' : 'Publish'}
            </button>
            {!published && (
              <button
                type="submit"
                name="intent"
                value="draft"
                disabled={saving}
                className="rounded-lg border-2 border-slate-300 bg-white px-5 py-2 font-semibold text-slate-800 hover:bg-slate-100 disabled:text-slate-600"
              >
                {saving && pressed === 'draft' ? 'Saving...' : editorial.status === 'scheduled' ? 'Back to draft' : 'Save draft'}
              </button>
            )}
            {hydrated && (
              <button
                type="button"
                aria-expanded={showPreview}
                aria-controls="content-preview"
                onClick={() => setShowPreview((v) => !v)}
                className="rounded-lg border-2 border-slate-300 px-5 py-2 font-semibold text-slate-800 hover:bg-slate-100"
              >
                {showPreview ? 'Hide Preview' : 'Show Preview'}
              </button>
            )}
            {mode === 'edit' && (
              <Link
                to={`/admin/content?type=${type}`}
                className="rounded-lg border-2 border-slate-300 px-5 py-2 font-semibold text-slate-800 hover:bg-slate-100"
              >
                Cancel Edit
              </Link>
            )}
          </div>
        </Form>
        {mode === 'edit' && editorial.status !== null && !published && <PreviewLinkForm result={result} />}
      </div>
      {showPreview && (
        <section
          id="content-preview"
          aria-labelledby="preview-title"
          className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm md:p-8"
        >
          <h2 id="preview-title" className="text-sm font-semibold tracking-wide text-slate-600 uppercase">
            Preview
          </h2>
          <p className="mt-4 text-3xl font-bold text-slate-900">{title || 'Untitled'}</p>
          {summary && <p className="mt-3 text-lg text-slate-700">{summary}</p>}
          <div role="status">
            {previewProblem && <p className="mt-4 rounded-lg bg-amber-50 p-3 text-sm text-amber-900">{previewProblem}</p>}
          </div>
          <div className="mt-6">
            <ArticleBody html={previewHtml} />
          </div>
        </section>
      )}
    </div>
  );
}
