import { useI18n } from '~/lib/i18n/i18n';

/**
 * The look of a visitor form's input (contact, applications, event registration): a large text,
 * a thick border that turns red with an error, the focus ring the site uses.
 */
export const visitorInputLook = (error: string | undefined) =>
  `block w-full rounded-lg border-2 bg-white px-4 py-3 text-lg text-slate-900 ${error ? 'border-red-700' : 'border-slate-400'} focus:border-indigo-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-800 focus-visible:ring-offset-2`;

/**
 * A text field of a form a visitor sends: label, hint and error tied to the input, what was typed
 * kept. The first field to fix after an answer takes the focus: `autofocus` on a page shown without
 * the page script (decision 401), `data-focus` where the page script shows the answer in place
 * (issue 24).
 */
export function VisitorTextField(props: {
  id: string;
  name: string;
  label: string;
  error: string | undefined;
  defaultValue: string;
  focus: boolean;
  maxLength: number;
  type?: string;
  autoComplete?: string;
  optional?: boolean | undefined;
  multiline?: boolean;
  rows?: number;
  hint?: string | undefined;
  className?: string;
}) {
  const { tx } = useI18n();
  const hintId = props.hint ? `${props.id}-hint` : undefined;
  const errorId = props.error ? `${props.id}-error` : undefined;
  const common = {
    id: props.id,
    name: props.name,
    defaultValue: props.defaultValue,
    maxLength: props.maxLength,
    required: !props.optional,
    autoFocus: props.focus,
    'data-focus': props.focus ? '' : undefined,
    'aria-invalid': props.error ? true : undefined,
    'aria-describedby': [errorId, hintId].filter(Boolean).join(' ') || undefined,
    className: visitorInputLook(props.error),
  };
  return (
    <div className={props.className}>
      <label htmlFor={props.id} className="block font-semibold text-slate-900">
        {props.label}
      </label>
      {props.hint && (
        <p id={hintId} className="mt-1 text-sm text-slate-600">
          {props.hint}
        </p>
      )}
      {props.error && (
        <p id={errorId} className="mt-1 font-medium text-red-700">
          {tx(props.error)}
        </p>
      )}
      <div className="mt-2">
        {props.multiline ? (
          <textarea {...common} rows={props.rows ?? 6} />
        ) : (
          <input {...common} type={props.type ?? 'text'} autoComplete={props.autoComplete} />
        )}
      </div>
    </div>
  );
}
