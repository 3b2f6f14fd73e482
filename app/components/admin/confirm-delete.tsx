import { useRef } from 'react';
import { Form, Link } from 'react-router';
import { useHydrated } from '~/lib/use-hydrated';

/**
 * spec §5: deleting asks first, naming the item and saying 'This action cannot be undone.'. With
 * JavaScript a modal dialog asks; without it the link leads to a confirmation page at `href`, which
 * posts to the same URL.
 */
export function ConfirmDelete({
  href,
  label,
  itemName,
  question,
  buttonClass,
}: {
  href: string;
  label: string;
  /** Added for screen readers so each card's button is distinct: 'Delete Ann'. */
  itemName: string;
  question: string;
  buttonClass: string;
}) {
  const hydrated = useHydrated();
  const dialog = useRef<HTMLDialogElement>(null);
  if (!hydrated) {
    return (
      <Link to={href} className={buttonClass}>
        {label}
        <span className="sr-only"> {itemName}</span>
      </Link>
    );
  }
  return (
    <>
      <button type="button" className={buttonClass} onClick={() => dialog.current?.showModal()}>
        {label}
        <span className="sr-only"> {itemName}</span>
      </button>
      <dialog
        ref={dialog}
        aria-labelledby={`${href}-title`}
        className="m-auto max-w-md rounded-2xl p-0 shadow-2xl backdrop:bg-slate-900/60"
      >
        <div className="p-6">
          <h2 id={`${href}-title`} className="text-xl font-bold text-slate-900">
            Confirm delete
          </h2>
          <p className="mt-3 text-slate-800">{question}</p>
          <div className="mt-6 flex justify-end gap-3">
            <button
              type="button"
              onClick={() => dialog.current?.close()}
              className="rounded-lg border-2 border-slate-300 px-4 py-2 font-semibold text-slate-800 hover:bg-slate-100"
            >
              Cancel
            </button>
            <Form method="post" action={href} onSubmit={() => dialog.current?.close()}>
              <button type="submit" className="rounded-lg bg-red-700 px-4 py-2 font-semibold text-white hover:bg-red-800">
                Delete
              </button>
            </Form>
          </div>
        </div>
      </dialog>
    </>
  );
}
