import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useFetcher } from 'react-router';
import { checkFormSync } from '~/lib/forms';
import {
  FIELD_SPECS,
  GROUP_SPECS,
  groupSchema,
  SETTINGS_MESSAGES,
  type SettingField,
  type SettingsAnswer,
  type SettingsGroupView,
} from '~/lib/site-settings';
import { useHydrated } from '~/lib/use-hydrated';
import { useToast } from '../toast';
import { Banner } from './banner';
import { SettingsField } from './settings-fields';
import { SettingsPhoto } from './settings-photo';
import { primaryButton } from './form';

type Errors = SettingsAnswer['errors'];

/** Where a field's error summary link and the cursor go. */
const focusId = (field: SettingField) => (field === 'founderPhoto' ? 'founderPhotoFile' : field);

/** The fields of a group in order, those of one stat or value under their legend. */
function layout(fields: readonly SettingField[]): (SettingField | { legend: string; fields: SettingField[] })[] {
  const out: (SettingField | { legend: string; fields: SettingField[] })[] = [];
  for (const field of fields) {
    const set = FIELD_SPECS[field].set;
    const last = out.at(-1);
    if (!set) out.push(field);
    else if (last && typeof last !== 'string' && last.legend === set.legend) last.fields.push(field);
    else out.push({ legend: set.legend, fields: [field] });
  }
  return out;
}

/**
 * The list of problems at the top of a group after a failed save, each a link to its field (as the
 * GOV.UK error summary does), so a long form shows at once what needs fixing and where.
 */
function ErrorSummary({
  id,
  message,
  errors,
  fields,
}: {
  id: string;
  message: string;
  errors: Errors;
  fields: readonly SettingField[];
}) {
  const listed = fields.filter((field) => errors[field]);
  return (
    <div
      id={id}
      tabIndex={-1}
      role="alert"
      className="rounded-lg border-l-4 border-red-700 bg-red-50 p-4 text-red-950 outline-none focus:ring-2 focus:ring-red-700"
    >
      <p className="font-semibold">{message}</p>
      {listed.length > 0 && (
        <ul className="mt-2 list-disc space-y-1 pl-5">
          {listed.map((field) => (
            <li key={field}>
              <a href={`#${focusId(field)}`} className="font-medium underline underline-offset-2">
                {errors[field]}
              </a>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function Fields({
  view,
  values,
  errors,
  readOnly,
  storyAuto,
  onEdit,
}: {
  view: SettingsGroupView;
  values: Partial<Record<SettingField, string>>;
  errors: Errors;
  readOnly: boolean;
  storyAuto: string | null;
  onEdit: (field: SettingField) => void;
}) {
  const spec = GROUP_SPECS[view.id];
  const one = (field: SettingField) => {
    const value = values[field] ?? view.values[field] ?? '';
    if (FIELD_SPECS[field].kind === 'image')
      return (
        <SettingsPhoto
          key={field}
          initialUrl={value}
          name={values.founderName ?? view.values.founderName ?? ''}
          error={errors[field]}
          onEdit={() => onEdit(field)}
        />
      );
    const extraNote =
      field === 'founderStoryLink'
        ? storyAuto
          ? `While it is empty it leads to ${storyAuto}.`
          : 'While it is empty it leads to the founder’s profile on About Us.'
        : undefined;
    return (
      <SettingsField
        key={field}
        field={field}
        value={value}
        error={errors[field]}
        readOnly={readOnly}
        extraNote={extraNote}
        onEdit={onEdit}
      />
    );
  };
  return (
    <div className="space-y-5">
      {layout(spec.fields).map((item) =>
        typeof item === 'string' ? (
          one(item)
        ) : (
          <fieldset key={item.legend} className="rounded-xl border border-slate-200 p-4">
            <legend className="px-1 font-semibold text-slate-900">{item.legend}</legend>
            <div className={`grid gap-4 ${item.fields.length === 3 ? 'sm:grid-cols-[1fr_1fr_2fr]' : ''}`}>
              {item.fields.map(one)}
            </div>
          </fieldset>
        ),
      )}
    </div>
  );
}

/** A group a role may only look at: its values without a form, and why (the Super Admin's links). */
export function ReadOnlyGroup({ view }: { view: SettingsGroupView }) {
  return (
    <div className="space-y-5">
      <p id={`${view.id}-read-only`} className="rounded-lg border-l-4 border-indigo-700 bg-indigo-50 p-4 text-indigo-950">
        {view.id === 'languages' ? SETTINGS_MESSAGES.readOnlyLanguages : SETTINGS_MESSAGES.readOnlyNote}
      </p>
      <Fields view={view} values={{}} errors={{}} readOnly storyAuto={null} onEdit={() => undefined} />
    </div>
  );
}

/**
 * One group's form with its own Save: posted with a fetcher (the rest of the page, and what is typed
 * in other groups, stays as it is) or, without JavaScript, as a plain form. Checked in the browser for
 * quick feedback and again on the server; problems are listed at the top and beside each field.
 */
export function SettingsGroupForm({
  view,
  result,
  storyAuto,
}: {
  view: SettingsGroupView;
  /** The answer to a post of this group made without JavaScript. */
  result: SettingsAnswer | undefined;
  storyAuto: string | null;
}) {
  const spec = GROUP_SPECS[view.id];
  const hydrated = useHydrated();
  const toast = useToast();
  const fetcher = useFetcher<SettingsAnswer>({ key: `settings-${view.id}` });
  const saving = fetcher.state !== 'idle';
  const [errors, setErrors] = useState<Errors>(result && !result.ok ? result.errors : {});
  const [banner, setBanner] = useState<{ type: 'success' | 'error'; message: string } | null>(
    result ? { type: result.ok ? 'success' : 'error', message: result.message } : null,
  );
  const summaryId = `${view.id}-summary`;

  // After a plain post that failed, the summary takes the cursor.
  useEffect(() => {
    if (result && !result.ok) document.getElementById(summaryId)?.focus();
  }, [result, summaryId]);

  // The answer to a save made with JavaScript: shown in the group, and once as a toast.
  const [answer, setAnswer] = useState<SettingsAnswer | undefined>(undefined);
  const latest = fetcher.state === 'idle' ? fetcher.data : undefined;
  if (latest && latest !== answer) {
    setAnswer(latest);
    setErrors(latest.ok ? {} : latest.errors);
    setBanner({ type: latest.ok ? 'success' : 'error', message: latest.message });
  }
  const actedOn = useRef<SettingsAnswer | undefined>(undefined);
  useEffect(() => {
    if (!answer || actedOn.current === answer) return;
    actedOn.current = answer;
    if (answer.ok) toast('success', answer.message);
    else document.getElementById(summaryId)?.focus();
  }, [answer, toast, summaryId]);

  const version = answer?.version ?? (result?.version && !result.ok ? result.version : view.version);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const values = Object.fromEntries([...form.entries()].filter(([, v]) => typeof v === 'string'));
    const checked = checkFormSync(groupSchema(view.id), values);
    if (!checked.ok) {
      setErrors(checked.fieldErrors);
      setBanner({ type: 'error', message: SETTINGS_MESSAGES.fixErrors });
      requestAnimationFrame(() => document.getElementById(summaryId)?.focus());
      return;
    }
    setErrors({});
    setBanner(null);
    void fetcher.submit(form, {
      method: 'post',
      action: `?group=${view.id}`,
      encType: spec.multipart ? 'multipart/form-data' : 'application/x-www-form-urlencoded',
    });
  }

  const clearError = (field: SettingField) => setErrors((e) => (e[field] ? { ...e, [field]: undefined } : e));
  const failed = banner?.type === 'error';

  return (
    <fetcher.Form
      method="post"
      action={`?group=${view.id}`}
      encType={spec.multipart ? 'multipart/form-data' : 'application/x-www-form-urlencoded'}
      noValidate
      onSubmit={hydrated ? onSubmit : undefined}
      aria-labelledby={`group-${view.id}-title`}
      className="space-y-5"
    >
      <input type="hidden" name="version" value={version} />
      {banner && failed && <ErrorSummary id={summaryId} message={banner.message} errors={errors} fields={spec.fields} />}
      {banner && !failed && <Banner key={banner.message + String(answer?.version)} type="success" message={banner.message} />}
      <Fields
        view={view}
        values={result && !result.ok ? result.values : {}}
        errors={errors}
        readOnly={false}
        storyAuto={storyAuto}
        onEdit={clearError}
      />
      <button type="submit" disabled={saving} className={primaryButton}>
        {saving ? 'Saving...' : 'Save'}
        <span className="sr-only"> {spec.title}</span>
      </button>
    </fetcher.Form>
  );
}
