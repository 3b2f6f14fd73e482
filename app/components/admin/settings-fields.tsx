import { FIELD_SPECS, type SettingField } from '~/lib/site-settings';
import { useHydrated } from '~/lib/use-hydrated';
import { Field, FieldError, inputClass } from './form';
import { RichTextEditor } from './rich-text-editor.client';

// The Site settings form's fields, one component per kind of value (app/lib/site-settings.ts): one
// line, plain paragraphs, email, phone, a link, a whole number, the address of a story, a rich text.

/** The note under a field: its own hint, then its limit. */
function noteOf(field: SettingField, extra?: string): string | undefined {
  const spec = FIELD_SPECS[field];
  const limit =
    spec.kind === 'number'
      ? 'A whole number from 0 to 1,000,000.'
      : spec.kind === 'email' || spec.kind === 'phone' || spec.kind === 'image' || spec.kind === 'onOff'
        ? ''
        : spec.kind === 'link'
          ? `Starts with https://.${spec.required ? '' : ' Leave it empty to hide it.'}`
          : `Up to ${spec.max.toLocaleString('en-US')} characters.`;
  return [spec.hint, extra, limit].filter(Boolean).join(' ') || undefined;
}

const TYPES: Partial<Record<string, { type: string; inputMode?: 'numeric' | 'url' | 'email' | 'tel'; autoComplete?: string }>> = {
  email: { type: 'email', inputMode: 'email', autoComplete: 'off' },
  phone: { type: 'tel', inputMode: 'tel', autoComplete: 'off' },
  link: { type: 'url', inputMode: 'url', autoComplete: 'off' },
  number: { type: 'text', inputMode: 'numeric', autoComplete: 'off' },
};

export interface SettingsFieldProps {
  field: SettingField;
  value: string;
  error: string | undefined;
  /** Shown but not sent (a role that may not change it). */
  readOnly?: boolean;
  /** Added to the field's hint (where an automatic story link leads now). */
  extraNote?: string | undefined;
  onEdit?: (field: SettingField) => void;
}

/** One setting as a labelled control: its label (short inside a set), its hint and limit, its error. */
export function SettingsField({ field, value, error, readOnly = false, extraNote, onEdit }: SettingsFieldProps) {
  const spec = FIELD_SPECS[field];
  const label = spec.set?.shortLabel ?? spec.label;
  const note = readOnly ? undefined : noteOf(field, extraNote);
  const look = `${inputClass(Boolean(error))}${readOnly ? ' bg-slate-100' : ''}`;
  const common = {
    name: readOnly ? undefined : field,
    defaultValue: value,
    readOnly,
    onChange: onEdit ? () => onEdit(field) : undefined,
  };
  if (spec.kind === 'rich') return <RichTextField field={field} value={value} error={error} onEdit={onEdit} />;
  return (
    <Field id={field} label={label} required={spec.required && !readOnly} note={note} error={error}>
      {(control) =>
        spec.kind === 'textarea' ? (
          <textarea
            {...control}
            {...common}
            rows={spec.max > 600 ? 9 : spec.max >= 600 ? 5 : spec.max > 300 ? 4 : 2}
            className={look}
          />
        ) : spec.kind === 'onOff' ? (
          readOnly ? (
            <input {...control} type="text" readOnly defaultValue={value === 'on' ? 'On' : 'Off'} className={look} />
          ) : (
            <select {...control} {...common} className={look}>
              <option value="off">Off</option>
              <option value="on">On</option>
            </select>
          )
        ) : (
          <input
            {...control}
            {...common}
            {...(TYPES[spec.kind] ?? { type: 'text' })}
            spellCheck={spec.kind === 'link' ? false : undefined}
            className={look}
          />
        )
      }
    </Field>
  );
}

/**
 * A policy page's text: the stories' rich-text editor once the page runs JavaScript, its HTML in a
 * plain text area before (as the content form does). Sanitised on the server either way.
 */
function RichTextField({
  field,
  value,
  error,
  onEdit,
}: {
  field: SettingField;
  value: string;
  error: string | undefined;
  onEdit: ((field: SettingField) => void) | undefined;
}) {
  const hydrated = useHydrated();
  const spec = FIELD_SPECS[field];
  const noteId = `${field}-note`;
  const describedBy = [error ? `${field}-error` : '', noteId].filter(Boolean).join(' ');
  return (
    <div>
      <p id={`${field}-label`} className="mb-1 font-medium text-slate-900">
        {spec.label} <span aria-hidden="true">*</span>
      </p>
      {hydrated ? (
        <RichTextEditor
          id={field}
          name={field}
          initialHtml={value}
          invalid={Boolean(error)}
          describedBy={describedBy}
          onChange={() => onEdit?.(field)}
        />
      ) : (
        <textarea
          id={field}
          name={field}
          rows={14}
          defaultValue={value}
          aria-labelledby={`${field}-label`}
          aria-describedby={describedBy}
          aria-invalid={error ? true : undefined}
          className={inputClass(Boolean(error))}
        />
      )}
      <p id={noteId} className="mt-1 text-sm text-slate-600">
        {`Headings, lists, links and emphasis as in stories. Up to ${spec.max.toLocaleString('en-US')} characters.`}
      </p>
      <FieldError id={`${field}-error`} message={error} />
    </div>
  );
}
