import { useI18n } from '~/lib/i18n/i18n';

/**
 * A plain reading page: a title, an updated line and prose. `html` is a policy text from Site
 * settings, sanitised on the server when it was saved (the stories' allow-list,
 * app/server/platform/sanitize.server.ts), or the built-in text; this component only renders it.
 */
export function ProsePage({
  title,
  updated,
  html,
  children,
}: {
  title: string;
  updated?: string;
  html: string;
  /** Fixed text after the editable one (the privacy page's statement of what is counted, issue 28). */
  children?: React.ReactNode;
}) {
  const { t, english } = useI18n();
  return (
    <article className="mx-auto max-w-3xl px-4 py-12 md:py-16">
      <h1 className="text-4xl font-bold break-words text-slate-900">{title}</h1>
      {updated && (
        <p className="mt-2 text-slate-600">
          {t('legal.lastUpdated')}
          <span lang={english}>{updated}</span>
        </p>
      )}
      <div
        lang={english}
        className="mt-8 space-y-5 text-lg leading-relaxed break-words text-slate-800 [&_a]:text-indigo-800 [&_a]:underline [&_blockquote]:border-l-4 [&_blockquote]:border-amber-400 [&_blockquote]:pl-5 [&_blockquote]:italic [&_h2]:mt-10 [&_h2]:text-2xl [&_h2]:font-bold [&_h2]:text-slate-900 [&_h3]:mt-8 [&_h3]:text-xl [&_h3]:font-bold [&_h3]:text-slate-900 [&_li]:mt-2 [&_ol]:list-decimal [&_ol]:pl-6 [&_ul]:list-disc [&_ul]:space-y-2 [&_ul]:pl-6"
        // Sanitised on the server when it was saved; see the comment above.
        dangerouslySetInnerHTML={{ __html: html }}
      />
      {children}
    </article>
  );
}
