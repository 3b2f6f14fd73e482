import type { FieldChange, WordComparison } from '~/lib/revisions';

// Issue 13: two versions of an item compared word by word, for a revision against the current text
// and for a save that came after someone else's (409).

/** Words deleted and inserted, marked by <del>/<ins> with a visible line and named for screen readers (not only by colour). */
function Comparison({ comparison }: { comparison: WordComparison }) {
  if (comparison === null) return <p className="text-slate-700">The two texts differ too much to compare word by word.</p>;
  return (
    <p className="break-words whitespace-pre-line text-slate-800">
      {comparison.map((change, index) =>
        change.type === 'same' ? (
          <span key={index}>{change.text}</span>
        ) : change.type === 'deleted' ? (
          <del key={index} className="bg-red-50 text-red-900 decoration-2">
            <span className="sr-only">[deleted: </span>
            {change.text}
            <span className="sr-only">]</span>
          </del>
        ) : (
          <ins key={index} className="bg-emerald-50 text-emerald-900 decoration-2 underline-offset-2">
            <span className="sr-only">[inserted: </span>
            {change.text}
            <span className="sr-only">]</span>
          </ins>
        ),
      )}
    </p>
  );
}

/**
 * The fields that differ, each compared word by word, under a key that names the two versions:
 * `before` for struck-through words, `after` for underlined ones.
 */
export function FieldChanges({ changes, before, after }: { changes: FieldChange[]; before: string; after: string }) {
  return (
    <>
      <p className="mt-2 text-sm text-slate-700">
        <del className="bg-red-50 text-red-900">Struck-through words</del> are only in {before};{' '}
        <ins className="bg-emerald-50 text-emerald-900">underlined words</ins> are only in {after}.
      </p>
      <dl className="mt-4 space-y-4">
        {changes.map((change) => (
          <div key={change.label}>
            <dt className="font-semibold text-slate-900">{change.label}</dt>
            <dd className="mt-1">
              <Comparison comparison={change.comparison} />
            </dd>
          </div>
        ))}
      </dl>
    </>
  );
}
