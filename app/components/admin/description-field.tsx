import { useHydrated } from '~/lib/use-hydrated';
import { FieldError, inputClass } from './form';
import { RichTextEditor } from './rich-text-editor.client';

// Issue 27 and decision 051: an event's (or an event version's) description, a required rich text:
// before the page script runs, a textarea of HTML, so the form works without JavaScript; then the
// content form's TipTap editor. The server cleans what either sends.

export function DescriptionField({
  id,
  initialHtml,
  error,
  lang,
}: {
  id: string;
  initialHtml: string;
  error?: string | undefined;
  /** The language of the words, where it is not the dashboard's English. */
  lang?: string;
}) {
  const hydrated = useHydrated();
  const errorId = `${id}-error`;
  return (
    <div>
      <p id={`${id}-label`} className="font-medium text-slate-900">
        Description <span aria-hidden="true">*</span>
      </p>
      {hydrated ? (
        <RichTextEditor
          id={id}
          name="description"
          initialHtml={initialHtml}
          invalid={Boolean(error)}
          describedBy={error ? errorId : undefined}
          onChange={() => undefined}
        />
      ) : (
        <textarea
          id={id}
          name="description"
          rows={10}
          lang={lang}
          defaultValue={initialHtml}
          aria-labelledby={`${id}-label`}
          aria-describedby={error ? errorId : undefined}
          className={inputClass(Boolean(error))}
        />
      )}
      <FieldError id={errorId} message={error} />
    </div>
  );
}
