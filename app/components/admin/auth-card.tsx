import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { inputClass } from './form';

/** The frame of the signed-out screens: sign-in, forgot password, set a new password. */
export function AuthCard({
  title,
  intro,
  children,
  back = { to: '/admin', label: 'Back to sign in' },
}: {
  title: string;
  intro?: string;
  children: ReactNode;
  back?: { to: string; label: string };
}) {
  return (
    <main
      id="main"
      className="flex min-h-screen items-center justify-center bg-gradient-to-br from-indigo-950 to-indigo-800 px-4 py-12"
    >
      <div className="w-full max-w-md rounded-2xl bg-white p-8 shadow-xl">
        <img src="/logo.svg" alt="TDG Uganda" width={150} height={40} className="h-10 w-auto" />
        <h1 className="mt-6 text-2xl font-bold text-slate-900">{title}</h1>
        {intro && <p className="mt-1 text-slate-600">{intro}</p>}
        {children}
        <p className="mt-8 text-center">
          <Link to={back.to} className="font-medium text-indigo-800 underline underline-offset-4">
            {back.label}
          </Link>
        </p>
      </div>
    </main>
  );
}

export const fieldClass = (invalid: boolean) => inputClass(invalid, 'lg');

export const primaryButton =
  'w-full rounded-lg bg-indigo-800 px-4 py-3 text-lg font-semibold text-white hover:bg-indigo-900 disabled:cursor-not-allowed disabled:bg-slate-400 disabled:text-slate-900';
