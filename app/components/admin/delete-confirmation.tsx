import { Form, Link } from 'react-router';

/** The confirmation page of a delete when JavaScript is off (with it, a dialog asks on the list). */
export function DeleteConfirmation({
  question,
  cancelTo,
  error,
}: {
  question: string;
  cancelTo: string;
  error?: string | undefined;
}) {
  return (
    <section
      aria-labelledby="delete-title"
      className="mx-auto max-w-lg rounded-2xl border border-slate-200 bg-white p-8 shadow-sm"
    >
      <h1 id="delete-title" className="text-2xl font-bold text-slate-900">
        Confirm delete
      </h1>
      {error && (
        <p role="alert" className="mt-4 rounded-lg bg-red-50 p-3 font-medium text-red-900">
          {error}
        </p>
      )}
      <p className="mt-4 text-slate-800">{question}</p>
      <div className="mt-6 flex gap-3">
        <Link
          to={cancelTo}
          className="rounded-lg border-2 border-slate-300 px-4 py-2 font-semibold text-slate-800 hover:bg-slate-100"
        >
          Cancel
        </Link>
        <Form method="post">
          <button type="submit" className="rounded-lg bg-red-700 px-4 py-2 font-semibold text-white hover:bg-red-800">
            Delete
          </button>
        </Form>
      </div>
    </section>
  );
}
