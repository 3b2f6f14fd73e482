import { RuleError } from '~/server/platform/rule-error.server';
import { previewNewsletter } from '~/server/newsletter/newsletter-send.server';
import type { Route } from './+types/newsletter-preview';

/**
 * The newsletter mail of a published item as HTML, as a subscriber would get it now (with a sample
 * unsubscribe link), to open on its own. It holds no script, and the site's CSP (scripts only with
 * the page's nonce) would run none; never cached.
 */
export async function loader({ params }: Route.LoaderArgs) {
  try {
    const mail = await previewNewsletter(params.id);
    return new Response(mail.html, {
      headers: {
        'Content-Type': 'text/html; charset=utf-8',
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
        'X-Robots-Tag': 'noindex',
      },
    });
  } catch (error) {
    if (error instanceof RuleError)
      return new Response(error.message, { status: error.status, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
    throw error;
  }
}
