import { index, layout, route, type RouteConfig } from '@react-router/dev/routes';

// The route table of spec §2, in spec order, then the pages and endpoints the spec leaves unshown.
export default [
  layout('routes/public/layout.tsx', [
    index('routes/public/home.tsx'),
    route('about', 'routes/public/about.tsx'),
    route('blog', 'routes/public/blog.tsx'),
    route('blog/:id', 'routes/public/article.tsx', { id: 'article-blogs' }),
    route('news', 'routes/public/news.tsx'),
    route('news/:id', 'routes/public/article.tsx', { id: 'article-news' }),
    route('resources/:id', 'routes/public/article.tsx', { id: 'article-resources' }),
    route('services', 'routes/public/services.tsx'),
    route('services/awareness-course', 'routes/public/awareness-course.tsx'),
    route('services/:id', 'routes/public/service.tsx'),
    route('contact', 'routes/public/contact.tsx'),
    route('newsletter', 'routes/public/newsletter.tsx'),
    route('privacy', 'routes/public/privacy.tsx'),
    route('terms', 'routes/public/terms.tsx'),
    route('accessibility', 'routes/public/accessibility.tsx'),
    route('*', 'routes/public/not-found.tsx'),
  ]),
  route('course', 'routes/resources/course.ts'),
  route('donate', 'routes/resources/donate.ts'),
  route('sitemap.xml', 'routes/resources/sitemap.ts'),
  route('robots.txt', 'routes/resources/robots.ts'),
  route('blog/rss.xml', 'routes/resources/rss.ts', { id: 'rss-blogs' }),
  route('news/rss.xml', 'routes/resources/rss.ts', { id: 'rss-news' }),
] satisfies RouteConfig;
