import css from '~/styles/public.css?inline';
import href from '~/styles/public.css?url';
import { inlinesStylesheet } from '~/lib/first-visit';

/**
 * Issue 24: the public stylesheet's address, and whether the page carries it inside on a reader's
 * first page of a visit. Its text reaches the layout through `InlineStylesheet`, provided by
 * app/entry.server.tsx from `publicStylesheetText` (issue 29: not as loader data).
 */
export function publicStylesheetFor(request: Request): { href: string; inline: boolean } {
  return { href, inline: inlinesStylesheet(request.headers.get('sec-fetch-site')) };
}

/** The same build of app/styles/public.css as text. */
export const publicStylesheetText = css;
