import { index, layout, route, type RouteConfig, type RouteConfigEntry } from '@react-router/dev/routes';

/**
 * The public pages (spec §2, in spec order, then the pages the spec leaves unshown), once per language
 * (issue 26, docs/decisions/030-languages.md): English at the root, Luganda under /lg and Swahili under
 * /sw, each copy with route ids of its own. The layout answers 404 under a language that is turned off.
 */
function publicPages(language: '' | 'lg' | 'sw'): RouteConfigEntry[] {
  const page = (path: string, file: string, options: { id?: string } = {}) =>
    route(path, file, language ? { id: `${language}:${options.id ?? file.replace(/\.tsx$/, '')}` } : options);
  return [
    index('routes/public/home.tsx', language ? { id: `${language}:routes/public/home` } : {}),
    page('about', 'routes/public/about.tsx'),
    page('blog', 'routes/public/blog.tsx'),
    page('blog/:id', 'routes/public/article.tsx', { id: 'article-blogs' }),
    page('news', 'routes/public/news.tsx'),
    page('news/:id', 'routes/public/article.tsx', { id: 'article-news' }),
    page('resources', 'routes/public/resources.tsx'),
    page('resources/:id', 'routes/public/article.tsx', { id: 'article-resources' }),
    // Issue 26 item 6: an item's easy-read version (one module; what it is comes from the path).
    page('blog/:id/easy-read', 'routes/public/easy-read.tsx', { id: 'easy-read-blogs' }),
    page('news/:id/easy-read', 'routes/public/easy-read.tsx', { id: 'easy-read-news' }),
    page('resources/:id/easy-read', 'routes/public/easy-read.tsx', { id: 'easy-read-resources' }),
    page('services', 'routes/public/services.tsx'),
    page('services/awareness-course', 'routes/public/awareness-course.tsx'),
    page('services/:id', 'routes/public/service.tsx'),
    page('services/:id/easy-read', 'routes/public/easy-read.tsx', { id: 'easy-read-services' }),
    // Issue 27: trainings and events, each event's page and registration, and a registrant's cancellation link.
    page('events', 'routes/public/events.tsx'),
    page('events/cancel/:token', 'routes/public/event-cancel.tsx'),
    page('events/:slug', 'routes/public/event.tsx'),
    page('contact', 'routes/public/contact.tsx'),
    // Issue 27: the footer's and home page's calls to action, each a form of its own (one module).
    page('volunteer', 'routes/public/application.tsx', { id: 'application-volunteer' }),
    page('partner', 'routes/public/application.tsx', { id: 'application-partner' }),
    page('book-speaker', 'routes/public/application.tsx', { id: 'application-speaker' }),
    page('design-help', 'routes/public/application.tsx', { id: 'application-design' }),
    page('newsletter', 'routes/public/newsletter.tsx'),
    page('newsletter/confirm/:token', 'routes/public/newsletter-confirm.tsx'),
    page('newsletter/unsubscribe/:token', 'routes/public/newsletter-unsubscribe.tsx'),
    page('privacy', 'routes/public/privacy.tsx'),
    page('terms', 'routes/public/terms.tsx'),
    page('accessibility', 'routes/public/accessibility.tsx'),
    // Issue 13: a draft or scheduled item seen through its preview link.
    page('preview/:token', 'routes/public/preview.tsx'),
    page('*', 'routes/public/not-found.tsx'),
  ];
}

// The route table of spec §2, in spec order, then the pages and endpoints the spec leaves unshown.
export default [
  layout('routes/public/layout.tsx', publicPages('')),
  route('lg', 'routes/public/layout.tsx', { id: 'lg:routes/public/layout' }, publicPages('lg')),
  route('sw', 'routes/public/layout.tsx', { id: 'sw:routes/public/layout' }, publicPages('sw')),
  // The staff dashboard (spec §2 "Admin dashboard"). Every /admin route sits inside this layout, whose
  // middleware refuses what routes/admin/access.ts does not allow (spec §6).
  layout('routes/admin/layout.tsx', [
    route('admin', 'routes/admin/sign-in.tsx'),
    route('admin/logout', 'routes/admin/logout.ts'),
    // Issue 25: the second step of a sign-in, and the staff member's own sign-in settings.
    route('admin/verify', 'routes/admin/sign-in-verify.tsx'),
    route('admin/passkey', 'routes/admin/passkey.ts'),
    route('admin/security/passkeys', 'routes/admin/security-passkeys.ts'),
    route('admin/forgot-password', 'routes/admin/forgot-password.tsx'),
    route('admin/reset-password/:token', 'routes/admin/reset-password.tsx'),
    route('admin/uploads/profile', 'routes/admin/upload-profile.ts'),
    route('admin/uploads/content', 'routes/admin/upload-content.ts'),
    // Issue 14: a sign-language video, uploaded in chunks, and one upload's state.
    route('admin/uploads/video', 'routes/admin/upload-video.ts'),
    route('admin/uploads/video/:id', 'routes/admin/upload-video-chunk.ts'),
    route('admin/content/preview', 'routes/admin/content-preview.ts'),
    route('admin/content/autosave', 'routes/admin/content-autosave.ts'),
    route('admin/uploads/services', 'routes/admin/upload-services.ts'),
    route('admin/uploads/site', 'routes/admin/upload-site.ts'),
    route('admin/messages/export', 'routes/admin/messages-export.ts'),
    route('admin/subscribers/export', 'routes/admin/subscribers-export.ts'),
    route('admin/newsletter/:id/preview', 'routes/admin/newsletter-preview.ts'),
    route('admin/events/:id/export', 'routes/admin/event-export.ts'),
    route('admin/analytics/export', 'routes/admin/analytics-export.ts'),
    layout('routes/admin/dashboard.tsx', [
      route('admin/overview', 'routes/admin/overview.tsx'),
      route('admin/users', 'routes/admin/users.tsx'),
      route('admin/users/new', 'routes/admin/user-new.tsx'),
      route('admin/users/roles', 'routes/admin/roles.tsx', { id: 'user-roles' }),
      route('admin/users/:id/edit', 'routes/admin/user-edit.tsx'),
      route('admin/users/:id/delete', 'routes/admin/user-delete.tsx'),
      route('admin/profile', 'routes/admin/profile.tsx'),
      route('admin/security', 'routes/admin/security.tsx'),
      route('admin/users/:id/two-factor', 'routes/admin/user-two-factor.tsx'),
      route('admin/roles', 'routes/admin/roles.tsx'),
      route('admin/audit', 'routes/admin/audit.tsx'),
      route('admin/content', 'routes/admin/content.tsx'),
      route('admin/content/new/:type', 'routes/admin/content-new.tsx'),
      route('admin/content/:id/edit', 'routes/admin/content-edit.tsx'),
      route('admin/content/:id/history', 'routes/admin/content-history.tsx'),
      route('admin/content/:id/history/:revisionId', 'routes/admin/content-revision.tsx'),
      route('admin/content/:id/delete', 'routes/admin/content-delete.tsx'),
      // Issue 26: a Luganda or Swahili version of an item, added from its edit screen.
      route('admin/content/:id/versions', 'routes/admin/content-version-new.tsx'),
      route('admin/messages', 'routes/admin/messages.tsx'),
      route('admin/messages/:id', 'routes/admin/message.tsx'),
      route('admin/messages/:id/delete', 'routes/admin/message-delete.tsx'),
      route('admin/subscribers', 'routes/admin/subscribers.tsx'),
      route('admin/subscribers/:id/delete', 'routes/admin/subscriber-delete.tsx'),
      route('admin/newsletter/:id', 'routes/admin/newsletter-send.tsx'),
      route('admin/services', 'routes/admin/services.tsx'),
      route('admin/services/new', 'routes/admin/service-new.tsx'),
      route('admin/services/:id/edit', 'routes/admin/service-edit.tsx'),
      // Issue 26: a service's version in Luganda or Swahili.
      route('admin/services/:id/versions/:language', 'routes/admin/service-version.tsx'),
      route('admin/services/:id/delete', 'routes/admin/service-delete.tsx'),
      // Issue 27: trainings and events.
      route('admin/events', 'routes/admin/events.tsx'),
      route('admin/events/new', 'routes/admin/event-new.tsx'),
      route('admin/events/:id/edit', 'routes/admin/event-edit.tsx'),
      route('admin/events/:id/registrations', 'routes/admin/event-registrations.tsx'),
      // Decision 051: an event's Luganda and Swahili versions.
      route('admin/events/:id/versions/:language', 'routes/admin/event-version.tsx'),
      route('admin/settings', 'routes/admin/settings.tsx'),
      route('admin/translations', 'routes/admin/translations.tsx'),
      route('admin/translations/export', 'routes/admin/translations-export.ts'),
      route('admin/demo-content', 'routes/admin/demo-content.tsx'),
      // Issue 28: visit counts.
      route('admin/analytics', 'routes/admin/analytics.tsx'),
      route('admin/*', 'routes/admin/not-found.tsx'),
    ]),
  ]),
  route('course', 'routes/resources/course.ts'),
  route('donate', 'routes/resources/donate.ts'),
  route('sitemap.xml', 'routes/resources/sitemap.ts'),
  route('events/:slug/calendar.ics', 'routes/resources/event-calendar.ts'),
  route('robots.txt', 'routes/resources/robots.ts'),
  route('blog/rss.xml', 'routes/resources/rss.ts', { id: 'rss-blogs' }),
  route('news/rss.xml', 'routes/resources/rss.ts', { id: 'rss-news' }),
  // Issue 26: each language's feeds, of its published versions (404 while the language is turned off).
  route('lg/blog/rss.xml', 'routes/resources/rss.ts', { id: 'rss-blogs-lg' }),
  route('lg/news/rss.xml', 'routes/resources/rss.ts', { id: 'rss-news-lg' }),
  route('sw/blog/rss.xml', 'routes/resources/rss.ts', { id: 'rss-blogs-sw' }),
  route('sw/news/rss.xml', 'routes/resources/rss.ts', { id: 'rss-news-sw' }),
] satisfies RouteConfig;
