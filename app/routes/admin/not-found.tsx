import { data, Link } from 'react-router';

export function loader() {
  return data(null, { status: 404 });
}

/** A post to an admin address that does not exist (an old endpoint, a typo) is told so: 404. */
export function action() {
  return data(null, { status: 404 });
}

export default function AdminNotFound() {
  return (
    <section className="rounded-2xl border border-slate-200 bg-white p-8 text-center shadow-sm">
      <h1 className="text-2xl font-bold text-slate-900">Page Not Found</h1>
      <p className="mt-3 text-slate-700">This dashboard page does not exist.</p>
      <Link
        to="/admin"
        className="mt-6 inline-block rounded-lg bg-indigo-800 px-5 py-2.5 font-semibold text-white hover:bg-indigo-900"
      >
        Return to Dashboard
      </Link>
    </section>
  );
}
