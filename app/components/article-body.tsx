/**
 * An article body with reading typography. `html` must already be sanitised on the server: a
 * stored body was sanitised when it was written, a preview just now (app/server/platform/sanitize.server.ts,
 * docs/decisions/202-article-html-sanitising.md). This component only renders it. Pure, so the
 * dashboard's live preview can show a body exactly as visitors will see it.
 */
export function ArticleBody({ html, className = '' }: { html: string; className?: string }) {
  return (
    <div
      className={`max-w-none text-lg leading-relaxed break-words text-slate-800 [&_a]:font-medium [&_a]:text-indigo-800 [&_a]:underline [&_a]:underline-offset-2 [&_a:hover]:text-indigo-950 [&_blockquote]:my-8 [&_blockquote]:border-l-4 [&_blockquote]:border-amber-400 [&_blockquote]:bg-slate-50 [&_blockquote]:py-3 [&_blockquote]:pr-4 [&_blockquote]:pl-5 [&_blockquote]:text-xl [&_blockquote]:text-slate-900 [&_blockquote]:italic [&_h2]:mt-10 [&_h2]:mb-4 [&_h2]:text-2xl [&_h2]:leading-snug [&_h2]:font-bold [&_h2]:text-slate-900 md:[&_h2]:text-3xl [&_h3]:mt-8 [&_h3]:mb-3 [&_h3]:text-xl [&_h3]:font-bold [&_h3]:text-slate-900 md:[&_h3]:text-2xl [&_li]:mt-2 [&_ol]:my-5 [&_ol]:list-decimal [&_ol]:pl-7 [&_p]:my-5 [&_strong]:font-semibold [&_strong]:text-slate-900 [&_ul]:my-5 [&_ul]:list-disc [&_ul]:pl-7 [&>:first-child]:mt-0 ${className}`}
      // Sanitised on the server by an allow-list, on write or for the preview; see the comment above.
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
