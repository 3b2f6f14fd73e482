import { data, Form, Link, redirect } from 'react-router';
import { z } from 'zod';
import { getStaff } from '~/server/http/staff-context.server';
import { parseForm } from '~/server/http/forms.server';
import { flashCookie } from '~/server/http/flash.server';
import { clientIp, discardBody } from '~/server/http/request-info.server';
import { failureOf } from '~/server/http/rules.server';
import { RuleError } from '~/server/platform/rule-error.server';
import {
  ImportRefusedError,
  importPo,
  listInterfaceTexts,
  resetInterfaceText,
  saveInterfaceText,
} from '~/server/site/interface-texts.server';
import { optionalFile } from '~/lib/forms';
import { formatDate } from '~/lib/format';
import type { PrefixedLanguage } from '~/lib/languages';
import {
  importedMessage,
  INTERFACE_TEXT_MAX,
  isTranslationLanguage,
  isTranslationState,
  languageName,
  PO_MAX_BYTES,
  resetMessage,
  savedMessage,
  STATE_LABELS,
  TEXTS_PER_PAGE,
  TRANSLATION_LANGUAGES,
  TRANSLATION_MESSAGES,
  TRANSLATION_STATES,
  type TranslationRow,
  type TranslationState,
} from '~/lib/translations';
import { FieldError, inputClass } from '~/components/admin/form';
import type { Route } from './+types/translations';
import { dashboardMeta } from '~/lib/seo';

// Issue 26 item 3, Translations: every interface text of Oluganda or Kiswahili with its English
// source and its state, filtered and searched by a GET form; one text edited at a time (?edit=key),
// reset to the built-in text, or the whole language exported and imported as a PO file. Every form
// works without JavaScript; the action reads what to do from ?do= before it reads the body, so an
// import may be large and an edit stays small (docs/decisions/032-translations-screen.md).

interface View {
  language: PrefixedLanguage;
  state: TranslationState | '';
  q: string;
  edit: string;
  /** The page of the list asked for; 0 when none was (the first, or the one holding the text being edited). */
  page: number;
}

function viewOf(url: URL): View {
  const language = url.searchParams.get('lang');
  const state = url.searchParams.get('state');
  return {
    language: isTranslationLanguage(language) ? language : TRANSLATION_LANGUAGES[0]!,
    state: isTranslationState(state) ? state : '',
    q: (url.searchParams.get('q') ?? '').slice(0, 200),
    edit: (url.searchParams.get('edit') ?? '').slice(0, 200),
    page: pageOf(url.searchParams.get('page')),
  };
}

/** A page number as typed in the address: one to four digits; anything else is none. */
function pageOf(raw: string | null): number {
  return raw !== null && /^\d{1,4}$/.test(raw) ? Number(raw) : 0;
}

/** The screen's address for a view (what the filter form shows, and where a save returns to). */
function hrefOf(view: Partial<View> & { language: PrefixedLanguage }, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams({ lang: view.language });
  if (view.state) params.set('state', view.state);
  if (view.q) params.set('q', view.q);
  if (view.page && view.page > 1) params.set('page', String(view.page));
  if (view.edit) params.set('edit', view.edit);
  for (const [name, value] of Object.entries(extra)) params.set(name, value);
  return `/admin/translations?${params.toString()}`;
}

export const meta: Route.MetaFunction = () => dashboardMeta('Translations');

export async function loader({ request }: Route.LoaderArgs) {
  const view = viewOf(new URL(request.url));
  const all = await listInterfaceTexts(view.language);
  const counts = Object.fromEntries(TRANSLATION_STATES.map((state) => [state, 0])) as Record<TranslationState, number>;
  for (const row of all) counts[row.state] += 1;
  const needle = view.q.trim().toLocaleLowerCase();
  const matching = all.filter(
    (row) =>
      (!view.state || row.state === view.state) &&
      (!needle || [row.key, row.source, row.text].some((text) => text.toLocaleLowerCase().includes(needle))),
  );
  const pageCount = Math.max(1, Math.ceil(matching.length / TEXTS_PER_PAGE));
  // Without a page, the list opens where the text being edited is; past the last page, at the last.
  const editedAt = view.page === 0 && view.edit ? matching.findIndex((row) => row.key === view.edit) : -1;
  const page = Math.min(pageCount, editedAt >= 0 ? Math.floor(editedAt / TEXTS_PER_PAGE) + 1 : Math.max(1, view.page));
  const rows = matching.slice((page - 1) * TEXTS_PER_PAGE, page * TEXTS_PER_PAGE);
  return { view: { ...view, page }, rows, matching: matching.length, pageCount, counts, total: all.length };
}

const saveSchema = z.object({ key: z.string().max(200), text: z.string().max(INTERFACE_TEXT_MAX * 4) });
const resetSchema = z.object({ key: z.string().max(200) });
const importSchema = z.object({ file: optionalFile });

export interface TranslationsAnswer {
  ok: false;
  kind: 'save' | 'reset' | 'import' | 'form';
  message: string;
  key?: string;
  text?: string;
  problems?: string[];
}

function answer(status: number, body: TranslationsAnswer, headers: Record<string, string> = {}) {
  return data(body, { status, headers });
}

function done(to: string, message: string, type: 'success' | 'info' = 'success') {
  return redirect(to, { status: 303, headers: { 'Set-Cookie': flashCookie({ type, message }) } });
}

export async function action({ request, context }: Route.ActionArgs) {
  const actor = getStaff(context);
  const url = new URL(request.url);
  const view = viewOf(url);
  const language = url.searchParams.get('lang');
  const what = url.searchParams.get('do');
  if (!isTranslationLanguage(language)) {
    await discardBody(request);
    return answer(400, { ok: false, kind: 'form', message: TRANSLATION_MESSAGES.unknownLanguage });
  }
  const back = hrefOf({ ...view, edit: '' });
  try {
    if (what === 'save') {
      const form = await parseForm(request, saveSchema, { maxBytes: 64_000 });
      if (!form.ok)
        return answer(
          form.status,
          {
            ok: false,
            kind: 'save',
            message: form.formError ?? TRANSLATION_MESSAGES.fixErrors,
            key: form.values.key,
            text: form.values.text,
          },
          form.headers,
        );
      try {
        const saved = await saveInterfaceText(actor, { language, ...form.values }, clientIp(context));
        return done(
          back,
          saved.changed ? savedMessage(language, form.values.key) : TRANSLATION_MESSAGES.nothingChanged,
          saved.changed ? 'success' : 'info',
        );
      } catch (error) {
        if (!(error instanceof RuleError)) throw error;
        return answer(error.status, {
          ok: false,
          kind: 'save',
          message: error.message,
          key: form.values.key,
          text: form.values.text,
        });
      }
    }
    if (what === 'reset') {
      const form = await parseForm(request, resetSchema, { maxBytes: 4_000 });
      if (!form.ok)
        return answer(
          form.status,
          { ok: false, kind: 'reset', message: form.formError ?? TRANSLATION_MESSAGES.unknownKey },
          form.headers,
        );
      const reset = await resetInterfaceText(actor, { language, key: form.values.key }, clientIp(context));
      return done(
        back,
        reset.changed ? resetMessage(language, form.values.key) : TRANSLATION_MESSAGES.nothingChanged,
        reset.changed ? 'success' : 'info',
      );
    }
    if (what === 'import') {
      // The file is counted while it is read: past the cap the rest is dropped and refused with 413.
      const form = await parseForm(request, importSchema, {
        maxBytes: PO_MAX_BYTES + 16_000,
        tooLargeMessage: TRANSLATION_MESSAGES.tooLarge,
      });
      if (!form.ok)
        return answer(
          form.status,
          { ok: false, kind: 'import', message: form.formError ?? TRANSLATION_MESSAGES.noFile },
          form.headers,
        );
      const file = form.values.file;
      if (!file) return answer(400, { ok: false, kind: 'import', message: TRANSLATION_MESSAGES.noFile });
      if (file.size > PO_MAX_BYTES) return answer(413, { ok: false, kind: 'import', message: TRANSLATION_MESSAGES.tooLarge });
      try {
        const result = await importPo(actor, language, Buffer.from(await file.arrayBuffer()), clientIp(context));
        return done(
          back,
          result.updated > 0 ? importedMessage(result.updated) : result.message,
          result.updated > 0 ? 'success' : 'info',
        );
      } catch (error) {
        if (!(error instanceof ImportRefusedError)) throw error;
        return answer(error.status, { ok: false, kind: 'import', message: error.message, problems: error.problems });
      }
    }
    await discardBody(request);
    return answer(400, { ok: false, kind: 'form', message: TRANSLATION_MESSAGES.unknownAction });
  } catch (error) {
    const failure = failureOf(error, TRANSLATION_MESSAGES.failed, 'changing an interface text failed', { language, what });
    return answer(failure.status, { ok: false, kind: what === 'import' ? 'import' : 'form', message: failure.message });
  }
}

const panel = 'rounded-2xl border border-slate-200 bg-white p-5 shadow-sm md:p-6';
const button = 'rounded-lg bg-indigo-800 px-4 py-2 font-semibold text-white hover:bg-indigo-900 focus-visible:outline-offset-2';
const secondary = 'rounded-lg border-2 border-slate-300 bg-white px-4 py-2 font-semibold text-slate-900 hover:bg-slate-50';
const STATE_BADGES: Record<TranslationState, string> = {
  translated: 'bg-emerald-100 text-emerald-900',
  missing: 'bg-red-100 text-red-900',
  changed: 'bg-amber-100 text-amber-900',
  staff: 'bg-indigo-100 text-indigo-900',
};

export default function Translations({ loaderData, actionData }: Route.ComponentProps) {
  const { view, rows, matching, pageCount, counts, total } = loaderData;
  const name = languageName(view.language);
  const failed = actionData as TranslationsAnswer | undefined;
  const editing = failed?.kind === 'save' && failed.key ? failed.key : view.edit;
  return (
    <div className="space-y-6">
      <section aria-labelledby="translations-title" className={panel}>
        <h1 id="translations-title" className="text-2xl font-bold text-slate-900">
          Translations
        </h1>
        <p className="mt-2 max-w-3xl text-slate-700">
          Every text of the public site&rsquo;s interface in Oluganda and Kiswahili, beside its English source. Correct a text
          here, or export the language as a PO file for a translator and import it back. English texts are the source and are not
          changed here.
        </p>
        {failed &&
          (failed.kind === 'form' ||
            failed.kind === 'reset' ||
            (failed.kind === 'save' && !rows.some((row) => row.key === editing))) && (
            <p role="alert" className="mt-4 rounded-lg border border-red-300 bg-red-50 p-3 font-medium text-red-900">
              {failed.message}
            </p>
          )}
        <Form method="get" action="/admin/translations" className="mt-5 flex flex-wrap items-end gap-4">
          <div>
            <label htmlFor="translations-lang" className="block font-medium text-slate-900">
              Language
            </label>
            <select id="translations-lang" name="lang" defaultValue={view.language} className={inputClass(false)}>
              {TRANSLATION_LANGUAGES.map((language) => (
                <option key={language} value={language} lang={language}>
                  {languageName(language)}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="translations-state" className="block font-medium text-slate-900">
              State
            </label>
            <select id="translations-state" name="state" defaultValue={view.state} className={inputClass(false)}>
              <option value="">All ({total})</option>
              {TRANSLATION_STATES.map((state) => (
                <option key={state} value={state}>
                  {STATE_LABELS[state]} ({counts[state]})
                </option>
              ))}
            </select>
          </div>
          <div className="min-w-0 grow">
            <label htmlFor="translations-q" className="block font-medium text-slate-900">
              Search
            </label>
            <input id="translations-q" name="q" type="search" defaultValue={view.q} className={inputClass(false)} />
          </div>
          <button type="submit" className={button}>
            Show
          </button>
        </Form>
      </section>

      <section aria-labelledby="translations-file" className={panel}>
        <h2 id="translations-file" className="text-lg font-bold text-slate-900">
          Translate in a file
        </h2>
        <p className="mt-2 max-w-3xl text-slate-700">
          The PO file opens in translation tools such as Poedit. Each text&rsquo;s key is its context, the English its source; a
          text whose English changed since it was translated is marked fuzzy, and a missing one is empty. Import changes nothing
          unless every text in the file is right.
        </p>
        <p className="mt-3">
          <a href={`/admin/translations/export?lang=${view.language}`} className={`${secondary} inline-block`} download>
            Export {name} (PO file)
          </a>
        </p>
        <Form
          method="post"
          encType="multipart/form-data"
          action={hrefOf({ language: view.language, state: view.state, q: view.q }, { do: 'import' })}
          className="mt-4 flex flex-wrap items-end gap-3"
        >
          <div className="max-w-full min-w-0">
            <label htmlFor="translations-file-input" className="block font-medium text-slate-900">
              PO file of {name} (at most 500 KB)
            </label>
            <input
              id="translations-file-input"
              name="file"
              type="file"
              accept=".po,text/x-gettext-translation"
              aria-describedby={failed?.kind === 'import' ? 'translations-import-error' : undefined}
              className="mt-1 block w-full max-w-full text-slate-900"
            />
          </div>
          <button type="submit" className={button}>
            Import {name}
          </button>
        </Form>
        {failed?.kind === 'import' && (
          <div
            id="translations-import-error"
            role="alert"
            className="mt-4 rounded-lg border border-red-300 bg-red-50 p-3 text-red-900"
          >
            <p className="font-semibold">{failed.message}</p>
            {failed.problems && failed.problems.length > 0 && (
              <ul className="mt-2 list-disc space-y-1 pl-6 break-words">
                {failed.problems.map((problem) => (
                  <li key={problem}>{problem}</li>
                ))}
              </ul>
            )}
          </div>
        )}
      </section>

      <section aria-labelledby="translations-list" className={panel}>
        <h2 id="translations-list" className="text-lg font-bold text-slate-900">
          {name} texts
        </h2>
        <p className="mt-1 text-slate-700" role="status">
          {matching === total ? `${total} texts` : `${matching} of ${total} texts`}
          {pageCount > 1 && `, page ${view.page} of ${pageCount}`}
        </p>
        {rows.length === 0 ? (
          <p className="mt-4 text-slate-700">No text matches. Choose another state or search for other words.</p>
        ) : (
          // On a phone the table scrolls sideways: a region of its own name (not the section's), which takes
          // focus. Positioned, so that the hidden labels in its cells scroll with it, not the page.
          <div
            role="region"
            aria-label={`Table of ${name} texts`}
            // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling region must take focus (WCAG 2.1.1)
            tabIndex={0}
            className="relative mt-4 overflow-x-auto focus:ring-4 focus:ring-indigo-300 focus:outline-none"
          >
            <table className="w-full min-w-[40rem] border-collapse text-left text-sm">
              <caption className="sr-only">Table of {name} texts</caption>
              <thead>
                <tr className="border-b-2 border-slate-300 text-slate-900">
                  <th scope="col" className="p-2">
                    Key
                  </th>
                  <th scope="col" className="p-2">
                    English
                  </th>
                  <th scope="col" className="p-2">
                    {name}
                  </th>
                  <th scope="col" className="p-2">
                    State
                  </th>
                  <th scope="col" className="p-2">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) =>
                  row.key === editing ? (
                    <EditRow key={row.key} row={row} view={view} failed={failed?.kind === 'save' ? failed : undefined} />
                  ) : (
                    <TextRow key={row.key} row={row} view={view} />
                  ),
                )}
              </tbody>
            </table>
          </div>
        )}
        <TextPages view={view} pageCount={pageCount} />
      </section>
    </div>
  );
}

/** Previous and next pages of the list as plain links, keeping the filter. Hidden for one page. */
function TextPages({ view, pageCount }: { view: View; pageCount: number }) {
  if (pageCount <= 1) return null;
  const to = (page: number) => hrefOf({ ...view, edit: '', page });
  return (
    <nav aria-label="Pages of texts" className="mt-4 flex flex-wrap items-center gap-3">
      {view.page > 1 && (
        <Link to={to(view.page - 1)} rel="prev" className={secondary}>
          <span aria-hidden="true">← </span>
          Previous page
        </Link>
      )}
      <span className="text-slate-700">
        Page {view.page} of {pageCount}
      </span>
      {view.page < pageCount && (
        <Link to={to(view.page + 1)} rel="next" className={secondary}>
          Next page
          <span aria-hidden="true"> →</span>
        </Link>
      )}
    </nav>
  );
}

function StateBadge({ row }: { row: TranslationRow }) {
  return (
    <>
      <span className={`inline-block rounded-full px-2 py-0.5 text-xs font-semibold ${STATE_BADGES[row.state]}`}>
        {STATE_LABELS[row.state]}
      </span>
      {row.updatedBy && (
        <span className="mt-1 block text-xs text-slate-700">
          by {row.updatedBy}
          {row.updatedAt ? `, ${formatDate(row.updatedAt, 'short')}` : ''}
        </span>
      )}
    </>
  );
}

function TextRow({ row, view }: { row: TranslationRow; view: View }) {
  return (
    <tr className="border-b border-slate-200 align-top">
      <th scope="row" className="p-2 font-mono text-xs font-normal break-all text-slate-800">
        {row.key}
      </th>
      <td className="p-2 break-words text-slate-900" lang="en">
        {row.source}
        {row.oldSource !== null && (
          <span className="mt-1 block text-xs text-slate-700">
            Translated from: <span className="italic">{row.oldSource}</span>
          </span>
        )}
      </td>
      <td className="p-2 break-words text-slate-900" lang={view.language}>
        {row.state === 'missing' ? (
          <span className="text-slate-700 italic" lang="en">
            (missing)
          </span>
        ) : (
          row.text
        )}
      </td>
      <td className="p-2">
        <StateBadge row={row} />
      </td>
      <td className="p-2">
        <Link
          to={`${hrefOf({ ...view, edit: row.key })}#edit-${row.key}`}
          className="font-semibold text-indigo-800 underline hover:text-indigo-950"
          aria-label={`Edit ${row.key}`}
        >
          Edit
        </Link>
      </td>
    </tr>
  );
}

/** The edit form is what the person asked for: with JavaScript its text takes the focus as it opens. */
function focusOnOpen(element: HTMLTextAreaElement | null): void {
  element?.focus({ preventScroll: false });
}

function EditRow({ row, view, failed }: { row: TranslationRow; view: View; failed: TranslationsAnswer | undefined }) {
  const id = `edit-${row.key}`;
  const error = failed?.message;
  const back = hrefOf({ ...view, edit: '' });
  const stored = row.updatedAt !== null;
  return (
    <tr className="border-b border-slate-200 bg-indigo-50 align-top">
      <th scope="row" className="p-2 font-mono text-xs font-normal break-all text-slate-800">
        {row.key}
      </th>
      <td className="p-2 break-words text-slate-900" lang="en">
        {row.source}
      </td>
      <td className="p-2" colSpan={3}>
        <Form method="post" action={hrefOf({ ...view, edit: '' }, { do: 'save' })}>
          <input type="hidden" name="key" value={row.key} />
          <label htmlFor={id} className="block font-medium text-slate-900">
            {languageName(view.language)} text of {row.key}
          </label>
          <textarea
            id={id}
            name="text"
            rows={3}
            lang={view.language}
            defaultValue={failed?.text ?? row.text}
            aria-invalid={error ? true : undefined}
            aria-describedby={`${id}-note${error ? ` ${id}-error` : ''}`}
            className={inputClass(Boolean(error))}
            ref={focusOnOpen}
          />
          <p id={`${id}-note`} className="mt-1 text-xs text-slate-700">
            Keep the placeholders in braces as in the English, for example {'{name}'}; plain text, no HTML.
          </p>
          <FieldError id={`${id}-error`} message={error} />
          <div className="mt-2 flex flex-wrap gap-2">
            <button type="submit" className={button}>
              Save
            </button>
            <Link to={back} className={secondary}>
              Cancel
            </Link>
          </div>
        </Form>
        {stored && (
          <Form method="post" action={hrefOf({ ...view, edit: '' }, { do: 'reset' })} className="mt-3">
            <input type="hidden" name="key" value={row.key} />
            <button type="submit" className={secondary}>
              Reset to the built-in text
            </button>
            <span className="mt-1 block text-xs text-slate-700" lang={view.language}>
              <span lang="en">Built-in: </span>
              {row.builtIn || <span lang="en">(none)</span>}
            </span>
          </Form>
        )}
      </td>
    </tr>
  );
}
