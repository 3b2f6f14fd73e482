import type { ReactNode } from 'react';
import { Form, Link } from 'react-router';
import { inputClass } from './form';

// The dashboard's long lists (the inbox, the subscribers): a search with a status filter, a status
// line read out when it changes, the rows, and Newest / Newer / Older links that carry the filter.
// Every part is a plain link or GET form, so the lists work without JavaScript.

export const secondaryButton =
  'inline-flex min-h-11 items-center rounded-lg border-2 border-slate-300 bg-white px-4 font-semibold text-slate-800 hover:bg-slate-100';

/** The list's address with its filter (what differs from the default) and `changes` (cursors). */
export function listHref(
  path: string,
  filter: { status: string | null; q: string },
  changes: Record<string, string | null> = {},
): string {
  const params = new URLSearchParams();
  if (filter.status !== null) params.set('status', filter.status);
  if (filter.q) params.set('q', filter.q);
  for (const [key, value] of Object.entries(changes)) if (value !== null) params.set(key, value);
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

export interface ListSearchProps<View extends string> {
  /** Names the search landmark and prefixes the controls' ids. */
  name: string;
  searchLabel: string;
  q: string;
  maxLength: number;
  view: View;
  views: readonly View[];
  /** Each choice's label with its count, e.g. "Confirmed (12)". */
  viewLabel: (view: View) => string;
  /** More controls of the same GET form, before the status filter (the inbox's kind, issue 27). */
  filters?: ReactNode;
}

export function ListSearch<View extends string>({
  name,
  searchLabel,
  q,
  maxLength,
  view,
  views,
  viewLabel,
  filters,
}: ListSearchProps<View>) {
  const id = name.toLowerCase();
  return (
    <Form
      method="get"
      role="search"
      aria-label={name}
      className={`mt-6 grid gap-3 sm:items-end ${filters ? 'sm:grid-cols-[1fr_auto_auto_auto]' : 'sm:grid-cols-[1fr_auto_auto]'}`}
    >
      <div>
        <label htmlFor={`${id}-q`} className="block font-medium text-slate-900">
          {searchLabel}
        </label>
        <input id={`${id}-q`} name="q" type="search" defaultValue={q} maxLength={maxLength} className={inputClass(false)} />
      </div>
      {filters}
      <div>
        <label htmlFor={`${id}-status`} className="block font-medium text-slate-900">
          Show
        </label>
        <select id={`${id}-status`} name="status" defaultValue={view} className={`${inputClass(false)} bg-white`}>
          {views.map((choice) => (
            <option key={choice} value={choice}>
              {viewLabel(choice)}
            </option>
          ))}
        </select>
      </div>
      <button
        type="submit"
        className="min-h-11 rounded-lg bg-indigo-800 px-5 py-2.5 font-semibold text-white hover:bg-indigo-900"
      >
        Search
      </button>
    </Form>
  );
}

export interface PagedListProps<Item extends { id: string }> {
  /** The status line once loaded, e.g. "12 messages match". */
  summary: string;
  loading: boolean;
  items: readonly Item[];
  /** Said in place of the list when it is empty. */
  empty: string;
  row: (item: Item) => ReactNode;
  newer: string | null;
  older: string | null;
  /** The list's address with its filter and the given cursor (listHref). */
  href: (changes: Record<string, string | null>) => string;
  /** Names the paging links' landmark: "More {noun}". */
  noun: string;
  newerLabel: string;
  olderLabel: string;
}

export function PagedList<Item extends { id: string }>(props: PagedListProps<Item>) {
  const { summary, loading, items, empty, row, newer, older, href, noun } = props;
  return (
    <>
      <p role="status" className="mt-6 font-medium text-slate-800">
        {loading ? 'Loading...' : summary}
      </p>

      {items.length === 0 ? (
        <p className="mt-4 rounded-2xl border border-slate-200 bg-white p-8 text-center text-lg font-semibold text-slate-800">
          {empty}
        </p>
      ) : (
        <ul className="mt-4 space-y-3" aria-busy={loading}>
          {items.map(row)}
        </ul>
      )}

      {(newer || older) && (
        <nav aria-label={`More ${noun}`} className="mt-6 flex flex-wrap gap-3">
          {newer && (
            <>
              <Link to={href({})} className={secondaryButton}>
                Newest
              </Link>
              <Link to={href({ before: newer })} className={secondaryButton}>
                <span aria-hidden="true">← </span>
                {props.newerLabel}
              </Link>
            </>
          )}
          {older && (
            <Link to={href({ after: older })} className={secondaryButton}>
              {props.olderLabel}
              <span aria-hidden="true"> →</span>
            </Link>
          )}
        </nav>
      )}
    </>
  );
}
