import { Link } from 'react-router';

/** spec §2: what a role sees in a section it cannot use. The server sends no data with it. */
export function AccessRestricted({ message }: { message: string }) {
  return (
    <section
      className="mx-auto max-w-xl rounded-2xl border border-amber-300 bg-amber-50 p-8 text-center"
      aria-labelledby="restricted-title"
    >
      <h2 id="restricted-title" className="text-2xl font-bold text-amber-950">
        Access Restricted
      </h2>
      <p className="mt-3 text-amber-950">{message}</p>
      <Link
        to="/admin"
        className="mt-6 inline-block rounded-lg bg-indigo-800 px-5 py-2.5 font-semibold text-white hover:bg-indigo-900"
      >
        Return to Dashboard
      </Link>
    </section>
  );
}
