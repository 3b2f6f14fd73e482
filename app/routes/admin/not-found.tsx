import { data, Link } from 'react-router';
import { requireUser } from '~/server/auth.server';
import type { Route } from './+types/not-found';

export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request);
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
