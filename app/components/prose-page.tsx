import type { ReactNode } from 'react';

/** A plain reading page: a title, an updated line and prose. */
export function ProsePage({ title, updated, children }: { title: string; updated?: string; children: ReactNode }) {
  return (
    <article className="mx-auto max-w-3xl px-4 py-12 md:py-16">
      <h1 className="text-4xl font-bold text-slate-900">{title}</h1>
      {updated && <p className="mt-2 text-slate-600">Last updated {updated}</p>}
      <div className="mt-8 space-y-5 text-lg leading-relaxed text-slate-800 [&_a]:text-indigo-800 [&_a]:underline [&_h2]:mt-10 [&_h2]:text-2xl [&_h2]:font-bold [&_h2]:text-slate-900 [&_ul]:list-disc [&_ul]:space-y-2 [&_ul]:pl-6">
        {children}
      </div>
    </article>
  );
}
