import { index, layout, route, type RouteConfig } from '@react-router/dev/routes';

// The route table of spec §2, in spec order.
export default [
  layout('routes/public/layout.tsx', [
    index('routes/public/home.tsx'),
    route('privacy', 'routes/public/privacy.tsx'),
    route('terms', 'routes/public/terms.tsx'),
    route('accessibility', 'routes/public/accessibility.tsx'),
    route('*', 'routes/public/not-found.tsx'),
  ]),
] satisfies RouteConfig;
