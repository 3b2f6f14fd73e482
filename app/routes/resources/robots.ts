import { getConfig } from '~/server/platform/config.server';

// Crawlers may read every public page; the staff dashboard is off limits (it also needs a sign-in).
export function loader() {
  const body = ['User-agent: *', 'Allow: /', 'Disallow: /admin', '', `Sitemap: ${getConfig().publicUrl}/sitemap.xml`, ''].join(
    '\n',
  );
  return new Response(body, {
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=3600' },
  });
}
