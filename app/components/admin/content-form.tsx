import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Form, Link } from 'react-router';
import { categoryLabel } from '~/lib/categories';
import {
  CONTENT_MESSAGES,
  contentErrors,
  contentSchema,
  DASHBOARD_CATEGORIES,
  failedMessage,
  SUMMARY_MAX,
  TITLE_MAX,
  type ContentErrors,
  type ContentField,
  type ContentType,
} from '~/lib/content-form';
import { useHydrated } from '~/lib/use-hydrated';
import { ArticleBody } from '../article-body';
import { useToast } from '../toast';
import { Banner } from './banner';
import { Field, FieldError, inputClass } from './form';
import { FeaturedImage } from './featured-image';
import { RichTextEditor } from './rich-text-editor';

export interface ContentFormValues {
  title: string;
  category: string;
  tags: string;
  summary: string;
  imageUrl: string;
  imageAlt: string;
  content: string;
}

export const EMPTY_CONTENT: ContentFormValues = {
  title: '',
  category: '',
  tags: '',
  summary: '',
  imageUrl: '',
  imageAlt: '',
  content: '',
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
};
const ORDER: ContentField[] = ['title', 'category', 'tags', 'summary', 'imageUrl', 'imageAlt', 'content'];

function focusFirst(errors: ContentErrors) {
  const first = ORDER.find((f) => errors[f]);
  if (first) document.getElementById(FOCUS_ID[first])?.focus();
}

type SaveResponse = { ok: boolean; message: string; errors?: ContentErrors };

/**
 * spec §2 Content form (Add Story / Add Blog, and edit): title with a counter, author (read-only),
 * category, tags, summary or excerpt, featured image, rich-text body; Publish/Update, Show/Hide
 * Preview, Cancel Edit. Checked in the browser for quick feedback and again on the server.
 */
export function ContentForm({
  type,
  mode,
  id,
  author,
  initial,
  result,
  onCreated,
}: {
  type: ContentType;
  mode: 'create' | 'edit';
  id?: string;
  author: string;
  initial: ContentFormValues;
  /** The answer to a post made without JavaScript. */
  result?: { ok: boolean; message: string; errors?: ContentErrors } | undefined;
  onCreated: () => void;
}) {
  const hydrated = useHydrated();
  const toast = useToast();
  const [title, setTitle] = useState(initial.title);
  const [summary, setSummary] = useState(initial.summary);
  const [content, setContent] = useState(initial.content);
  const [errors, setErrors] = useState<ContentErrors>(result?.errors ?? {});
  const [banner, setBanner] = useState<{ type: 'error' | 'success'; message: string } | null>(
    result ? { type: result.ok ? 'success' : 'error', message: result.message } : null,
  );
  const [saving, setSaving] = useState(false);
  const [showPreview, setShowPreview] = useState(false);
  const [previewHtml, setPreviewHtml] = useState('');
  const summaryLabel = type === 'news' ? 'Summary' : 'Excerpt';

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
        .then((r) => r.json() as Promise<{ html?: string }>)
        .then((r) => setPreviewHtml(r.html ?? ''))
        .catch(() => undefined);
    }, 300);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [content, showPreview]);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    data.set('content', content);
    const values = Object.fromEntries([...data.entries()].filter(([, v]) => typeof v === 'string')) as Record<string, string>;
    const parsed = contentSchema(type).safeParse(values);
    if (!parsed.success) {
      const found = contentErrors(parsed.error.issues);
      setErrors(found);
      setBanner({ type: 'error', message: CONTENT_MESSAGES.fixErrors });
      focusFirst(found);
      return;
    }
    setErrors({});
    setBanner(null);
    setSaving(true);
    try {
      const query = new URLSearchParams({ type, ...(id ? { id } : {}) });
      const response = await fetch(`/admin/content/save?${query}`, { method: 'POST', body: data });
      const answer = (await response
        .json()
        .catch(() => ({ ok: false, message: failedMessage(type, mode, CONTENT_MESSAGES.generic) }))) as SaveResponse;
      if (answer.ok) {
        toast('success', answer.message);
        if (mode === 'create') onCreated();
        else setBanner({ type: 'success', message: answer.message });
        return;
      }
      const found = answer.errors ?? {};
      setErrors(found);
      setBanner({ type: 'error', message: answer.message });
      if (response.status !== 400) toast('error', answer.message);
      focusFirst(found);
    } catch {
      const message = failedMessage(type, mode, CONTENT_MESSAGES.network);
      setBanner({ type: 'error', message });
      toast('error', message);
    } finally {
      setSaving(false);
    }
  }

  const clearError = (name: ContentField) => setErrors((e) => (e[name] ? { ...e, [name]: undefined } : e));
  const field = inputClass;
  // The editor is labelled by a paragraph, not a <label>, so it is wired by hand.
  const contentDescribedBy = errors.content ? 'content-error' : undefined;

  return (
    <div className={`grid gap-8 ${showPreview ? 'xl:grid-cols-2' : 'max-w-4xl'}`}>
      <Form
        method="post"
        encType="multipart/form-data"
        noValidate
        onSubmit={hydrated ? onSubmit : undefined}
        className="space-y-6 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm md:p-8"
      >
        {banner && (
          <Banner key={banner.message} type={banner.type} message={banner.message} autoClose={banner.type === 'success'} />
        )}
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
              {DASHBOARD_CATEGORIES[type].map((c) => (
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
        <div className="flex flex-wrap gap-3">
          <button
            type="submit"
            disabled={saving}
            className="rounded-lg bg-indigo-800 px-5 py-2.5 font-semibold text-white hover:bg-indigo-900 disabled:bg-slate-400 disabled:text-slate-900"
          >
            {saving ? (mode === 'create' ? 'Publishing...' : 'Updating...') : mode === 'create' ? 'Publish' : 'Update'}
          </button>
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
          <div className="mt-6">
            <ArticleBody html={previewHtml} />
          </div>
        </section>
      )}
    </div>
  );
}
