import { Link } from 'react-router';
import { VERSION_LANGUAGE_LABELS, type VersionState, type VersionSummary } from '~/lib/content-versions';
import { LANGUAGE_NAMES, type PrefixedLanguage } from '~/lib/languages';

// Issue 26, item 4: the edit screen's Languages panel (docs/decisions/031-translated-content.md). For an
// English item: each language's version and its state, with "Add … version" (a plain form post) or
// "Edit". For a version: the English item it translates and its sibling versions.

const STATE_LABELS: Record<VersionState, string> = {
  none: 'No version yet',
  draft: 'Draft',
  scheduled: 'Scheduled',
  published: 'Published',
};

export type LanguagesPanelData =
  | { kind: 'english'; versions: VersionSummary[] }
  | { kind: 'version'; language: PrefixedLanguage; english: { id: string; title: string }; versions: VersionSummary[] };

const button =
  'inline-flex min-h-11 items-center rounded-lg border-2 border-indigo-800 bg-white px-4 font-semibold text-indigo-900 hover:bg-indigo-50';

export function LanguagesPanel({
  panel,
  itemId,
  offered,
}: {
  panel: LanguagesPanelData;
  itemId: string;
  /** The languages the public site offers now (Site settings → Languages). */
  offered: readonly string[];
}) {
  return (
    <section aria-labelledby="languages-panel" className="mb-6 max-w-4xl rounded-lg border border-slate-300 bg-white p-4">
      <h2 id="languages-panel" className="text-lg font-bold text-slate-900">
        Languages
      </h2>
      {panel.kind === 'version' && (
        <p className="mt-2 text-slate-800">
          This is the <span lang={panel.language}>{LANGUAGE_NAMES[panel.language]}</span> version of{' '}
          <Link
            to={`/admin/content/${encodeURIComponent(panel.english.id)}/edit`}
            className="font-semibold text-indigo-900 underline"
          >
            {panel.english.title || 'the English item'}
          </Link>{' '}
          (English). It is published on its own, and shown on the public site once its English item is published too.
        </p>
      )}
      <ul className="mt-3 divide-y divide-slate-200">
        {panel.versions.map((version) => {
          const current = version.id === itemId;
          return (
            <li key={version.language} className="flex flex-wrap items-center justify-between gap-3 py-3">
              <p>
                <span lang={version.language} className="font-semibold text-slate-900">
                  {version.name}
                </span>{' '}
                <span className="text-slate-700">
                  ({VERSION_LANGUAGE_LABELS[version.language]}): {STATE_LABELS[version.state]}
                  {current && ' · this version'}
                  {!offered.includes(version.language) && ' · not yet offered on the public site'}
                </span>
              </p>
              {version.id && !current && (
                <Link to={`/admin/content/${encodeURIComponent(version.id)}/edit`} className={button}>
                  Edit {VERSION_LANGUAGE_LABELS[version.language]} version
                </Link>
              )}
              {!version.id && panel.kind === 'english' && (
                <form method="post" action={`/admin/content/${encodeURIComponent(itemId)}/versions`}>
                  <input type="hidden" name="language" value={version.language} />
                  <button type="submit" className={button}>
                    Add {VERSION_LANGUAGE_LABELS[version.language]} version
                  </button>
                </form>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
