import { GROUP_SPECS, SETTINGS_MESSAGES, type SettingsAnswer, type SettingsGroupView } from '~/lib/site-settings';
import { Banner } from './banner';
import { ReadOnlyGroup, SettingsGroupForm } from './settings-group';

export interface SettingsPageProps {
  groups: SettingsGroupView[];
  /** Where "Read the story" leads while no story is chosen. */
  storyAuto: string | null;
  canEditLinks: boolean;
  /** The answer to a group posted without JavaScript. */
  answer: SettingsAnswer | undefined;
}

/**
 * Site settings (issue 11): every group of the site's words, links and figures, each a section with
 * its own form and Save, listed at the top so a long page is quick to move through.
 */
export function SettingsPage({ groups, storyAuto, canEditLinks, answer }: SettingsPageProps) {
  // A refusal no form of this page could show (a group this role only reads, a post made by hand).
  const unshown = answer && !answer.ok && !groups.some((group) => group.editable && group.id === answer.group);
  return (
    <div className="max-w-4xl">
      <h1 className="text-2xl font-bold text-slate-900">Site settings</h1>
      <p className="mt-2 text-slate-700">
        The words, figures and links of the public website. Each section saves on its own, and the website shows a saved change at
        once.
      </p>
      {unshown && (
        <div className="mt-4">
          <Banner type="error" message={answer.message} autoClose={false} />
        </div>
      )}
      {!canEditLinks && (
        <p className="mt-4 rounded-lg border-l-4 border-indigo-700 bg-indigo-50 p-4 text-indigo-950">
          {SETTINGS_MESSAGES.linksForbidden}
        </p>
      )}
      <nav aria-labelledby="settings-sections" className="mt-6 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
        <h2 id="settings-sections" className="font-semibold text-slate-900">
          Sections
        </h2>
        <ul className="mt-2 grid gap-x-6 gap-y-1 sm:grid-cols-2">
          {groups.map((group) => (
            <li key={group.id}>
              <a
                href={`#group-${group.id}`}
                className="inline-block py-1 font-medium text-indigo-800 underline underline-offset-2 hover:text-indigo-950"
              >
                {GROUP_SPECS[group.id].title}
              </a>
              {!group.editable && <span className="text-sm text-slate-600"> (Super Admin only)</span>}
            </li>
          ))}
        </ul>
      </nav>
      <div className="mt-8 space-y-8">
        {groups.map((group) => {
          const spec = GROUP_SPECS[group.id];
          return (
            <section
              key={group.id}
              id={`group-${group.id}`}
              aria-labelledby={`group-${group.id}-title`}
              className="scroll-mt-6 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm md:p-8"
            >
              <h2 id={`group-${group.id}-title`} className="text-xl font-bold text-slate-900">
                {spec.title}
              </h2>
              <p className="mt-1 mb-5 text-slate-700">{spec.description}</p>
              {group.editable ? (
                <SettingsGroupForm
                  view={group}
                  result={answer?.group === group.id ? answer : undefined}
                  storyAuto={group.id === 'founder' ? storyAuto : null}
                />
              ) : (
                <ReadOnlyGroup view={group} />
              )}
            </section>
          );
        })}
      </div>
    </div>
  );
}
