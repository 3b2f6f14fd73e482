import { useI18n } from '~/lib/i18n/i18n';
import { useEffect, useRef, type FormEvent } from 'react';
import { Form, useLocation, useSubmit } from 'react-router';
import { VIDEO_TEXTS } from '~/lib/video';

/** spec §2 lists: typing pauses this long before the results update. */
export const SEARCH_DEBOUNCE_MS = 300;
export const MAX_SEARCH_LENGTH = 200;

export interface ListSearchProps {
  /** The search text and category in force (from the loader, i.e. from the URL). */
  q: string;
  category: string;
  /** Omit to show the search box alone. */
  categories?: { value: string; label: string }[];
  searchLabel: string;
  placeholder: string;
  allCategoriesLabel?: string;
  /** Issue 14: whether "Sign language only" is ticked; omit to leave the filter out. */
  signLanguage?: boolean | undefined;
  /** Issue 26: whether "Easy read only" is ticked; omit to leave the filter out. */
  easyRead?: boolean | undefined;
}

/** The form's fields without empty values, so the address stays short (`/blog?q=sign`). */
function searchParamsOf(form: HTMLFormElement): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of new FormData(form)) {
    if (typeof value === 'string' && value.trim()) params.set(name, value.trim());
  }
  return params;
}

/**
 * A plain GET form (works without JavaScript; the results are in the URL and can be shared). With
 * JavaScript, typing updates the results after a short pause without a full reload, replacing the
 * history entry, and choosing a category updates them at once.
 */
export function ListSearch({
  q,
  category,
  categories,
  searchLabel,
  placeholder,
  allCategoriesLabel,
  signLanguage,
  easyRead,
}: ListSearchProps) {
  const { t, tx } = useI18n();
  const submit = useSubmit();
  const { pathname } = useLocation();
  const form = useRef<HTMLFormElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const select = useRef<HTMLSelectElement>(null);
  const sign = useRef<HTMLInputElement>(null);
  const easy = useRef<HTMLInputElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  // The text last sent from this box: when the URL catches up with it, the box is left alone, so a
  // slow response never overwrites what the visitor has typed since.
  const sent = useRef(q);

  // Keep the fields in step with the URL (back and forward buttons, links such as "Clear search").
  useEffect(() => {
    if (input.current && q !== sent.current && input.current.value.trim() !== q) input.current.value = q;
    sent.current = q;
  }, [q]);
  useEffect(() => {
    if (select.current) select.current.value = category;
  }, [category]);
  useEffect(() => {
    if (sign.current) sign.current.checked = Boolean(signLanguage);
  }, [signLanguage]);
  useEffect(() => {
    if (easy.current) easy.current.checked = Boolean(easyRead);
  }, [easyRead]);
  useEffect(() => () => clearTimeout(timer.current), []);

  function send(replace: boolean) {
    clearTimeout(timer.current);
    if (!form.current) return;
    const params = searchParamsOf(form.current);
    sent.current = params.get('q') ?? '';
    void submit(params, { method: 'get', action: pathname, replace, preventScrollReset: true });
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    send(false);
  }

  const id = pathname.replace(/\W+/g, '') || 'list';
  return (
    <Form
      ref={form}
      method="get"
      action={pathname}
      role="search"
      onSubmit={onSubmit}
      data-list-search=""
      data-debounce={SEARCH_DEBOUNCE_MS}
      className="flex flex-col gap-4 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:flex-row sm:items-end md:p-6"
    >
      <div className="flex-1">
        <label htmlFor={`${id}-q`} className="block text-sm font-semibold text-slate-900">
          {searchLabel}
        </label>
        <input
          ref={input}
          id={`${id}-q`}
          name="q"
          type="search"
          defaultValue={q}
          maxLength={MAX_SEARCH_LENGTH}
          placeholder={placeholder}
          autoComplete="off"
          enterKeyHint="search"
          onChange={() => {
            clearTimeout(timer.current);
            timer.current = setTimeout(() => send(true), SEARCH_DEBOUNCE_MS);
          }}
          className="mt-1 block min-h-12 w-full rounded-xl border-2 border-slate-400 bg-white px-4 text-base text-slate-900 placeholder:text-slate-500 focus:border-indigo-800"
        />
      </div>
      {categories && (
        <div className="sm:w-64">
          <label htmlFor={`${id}-category`} className="block text-sm font-semibold text-slate-900">
            {t('list.category')}
          </label>
          <select
            ref={select}
            id={`${id}-category`}
            name="category"
            defaultValue={category}
            onChange={() => send(false)}
            className="mt-1 block min-h-12 w-full rounded-xl border-2 border-slate-400 bg-white px-3 text-base text-slate-900 focus:border-indigo-800"
          >
            <option value="">{allCategoriesLabel ?? t('list.allCategories')}</option>
            {categories.map((c) => (
              <option key={c.value} value={c.value}>
                {tx(c.label)}
              </option>
            ))}
          </select>
        </div>
      )}
      {signLanguage !== undefined && (
        <div className="flex min-h-12 items-center gap-2">
          <input
            ref={sign}
            id={`${id}-sign`}
            name="sign"
            type="checkbox"
            value="1"
            defaultChecked={signLanguage}
            onChange={() => send(false)}
            className="size-5 accent-indigo-800"
          />
          <label htmlFor={`${id}-sign`} className="text-sm font-semibold text-slate-900">
            {tx(VIDEO_TEXTS.filter)}
          </label>
        </div>
      )}
      {easyRead !== undefined && (
        <div className="flex min-h-12 items-center gap-2">
          <input
            ref={easy}
            id={`${id}-easy`}
            name="easy"
            type="checkbox"
            value="1"
            defaultChecked={easyRead}
            onChange={() => send(false)}
            className="size-5 accent-indigo-800"
          />
          <label htmlFor={`${id}-easy`} className="text-sm font-semibold text-slate-900">
            {t('easyRead.filter')}
          </label>
        </div>
      )}
      <button type="submit" className="min-h-12 rounded-full bg-amber-400 px-8 font-semibold text-slate-900 hover:bg-amber-300">
        {t('list.search')}
      </button>
    </Form>
  );
}
