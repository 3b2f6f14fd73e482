import { Link } from 'react-router';
import { Field, inputClass, primaryButton } from './form';

// Decisions 033 and 051: the pieces a service's and an event's versions in Luganda and Swahili share
// on the dashboard: the Languages panel of the edit screen, and the buttons of a version's form.

export interface LanguageVersionEntry {
  language: string;
  name: string;
  status: 'draft' | 'published' | null;
}

/** Where each version stands, with a link to add or edit it (`basePath`/versions/<language>). */
export function LanguageVersionsPanel({ basePath, languages }: { basePath: string; languages: LanguageVersionEntry[] }) {
  return (
    <section
      aria-labelledby="languages-title"
      className="mb-6 max-w-4xl rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
    >
      <h2 id="languages-title" className="text-lg font-bold text-slate-900">
        Languages
      </h2>
      <ul className="mt-3 space-y-2">
        {languages.map((entry) => (
          <li key={entry.language} className="flex flex-wrap items-center gap-3">
            <span className="font-medium text-slate-900">{entry.name}:</span>
            <span className="text-slate-700">
              {entry.status === 'published' ? 'Published' : entry.status === 'draft' ? 'Draft' : 'No version yet'}
            </span>
            <Link
              to={`${basePath}/versions/${entry.language}`}
              className="font-semibold text-indigo-800 underline underline-offset-4"
            >
              {entry.status ? `Edit ${entry.name} version` : `Add ${entry.name} version`}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Publish (Update once published), Save draft, and Unpublish for a published version. */
export function VersionButtons({ status, saving }: { status: 'draft' | 'published' | null; saving: boolean }) {
  return (
    <div className="flex flex-wrap gap-3">
      <button type="submit" name="intent" value="publish" disabled={saving} className={primaryButton}>
        {status === 'published' ? 'Update' : 'Publish'}
      </button>
      <button
        type="submit"
        name="intent"
        value="draft"
        disabled={saving}
        className="rounded-lg border-2 border-indigo-800 bg-white px-5 py-2 font-semibold text-indigo-900 hover:bg-indigo-50"
      >
        Save draft
      </button>
      {status === 'published' && (
        <button
          type="submit"
          name="intent"
          value="unpublish"
          disabled={saving}
          className="rounded-lg border-2 border-slate-400 bg-white px-5 py-2 font-semibold text-slate-800 hover:bg-slate-100"
        >
          Unpublish
        </button>
      )}
    </div>
  );
}

/** The way back to the English item and the screen's heading ("Luganda version: …"). */
export function VersionHeading({ backTo, englishTitle, name }: { backTo: string; englishTitle: string; name: string }) {
  return (
    <>
      <p className="mb-2">
        <Link to={backTo} className="font-semibold text-indigo-800 underline underline-offset-4">
          Back to {englishTitle}
        </Link>
      </p>
      <h1 className="mb-1 text-2xl font-bold break-words text-slate-900">
        {name} version: {englishTitle}
      </h1>
    </>
  );
}

/** One plain field of a version's form, its words marked as the version's language; a textarea when `rows` is given. */
export function VersionTextField({
  field,
  label,
  language,
  value,
  error,
  required,
  note,
  rows,
}: {
  field: string;
  label: string;
  language: string;
  value: string;
  error?: string | undefined;
  required?: boolean;
  note?: string;
  rows?: number;
}) {
  return (
    <Field id={`version-${field}`} label={label} required={required} error={error} note={note}>
      {(control) =>
        rows ? (
          <textarea
            {...control}
            name={field}
            rows={rows}
            lang={language}
            defaultValue={value}
            className={inputClass(Boolean(error))}
          />
        ) : (
          <input {...control} name={field} lang={language} defaultValue={value} className={inputClass(Boolean(error))} />
        )
      }
    </Field>
  );
}
