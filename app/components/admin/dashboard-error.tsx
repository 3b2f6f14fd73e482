import { isRouteErrorResponse, Link } from 'react-router';

/** A refused or missing dashboard page (403, 404) or a failure, without losing the way back. */
export function DashboardError({ error }: { error: unknown }) {
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const detail =
    isRouteErrorResponse(error) && error.data && typeof error.data === 'object' && 'error' in error.data
      ? String(error.data.error)
      : null;
  const title = status === 403 ? 'Access Restricted' : status === 404 ? 'Page Not Found' : 'Something went wrong';
  const text =
    detail ?? (status === 404 ? 'This dashboard page does not exist.' : 'Sorry, the dashboard had a problem. Please try again.');
  return (
    <main id="main" className="flex min-h-screen items-center justify-center bg-slate-50 px-4">
      <section className="max-w-xl rounded-2xl border border-slate-200 bg-white p-8 text-center shadow-sm">
        <h1 className="text-2xl font-bold text-slate-900">{title}</h1>
        <p className="mt-3 text-slate-700">{text}</p>
        <Link
          to="/admin"
          className="mt-6 inline-block rounded-lg bg-indigo-800 px-5 py-2.5 font-semibold text-white hover:bg-indigo-900"
        >
          Return to Dashboard
        </Link>
      </section>
    </main>
  );
}
