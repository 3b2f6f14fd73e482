import css from '~/styles/public.css?inline';
import href from '~/styles/public.css?url';
import { inlinesStylesheet } from '~/lib/first-visit';

/**
 * Issue 24: the public stylesheet, by address and as text (the same build of app/styles/public.css),
 * for the public layout to link or to carry inside the page on a reader's first page of a visit.
 */
export function publicStylesheetFor(request: Request): { href: string; css?: string } {
  return inlinesStylesheet(request.headers.get('sec-fetch-site')) ? { href, css } : { href };
}
