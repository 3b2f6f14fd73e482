import type { ComponentProps } from 'react';

/**
 * A link on a public page. Public pages load no router script (decision 025), so React Router's
 * `<Link>` would only resolve its path against the route table at every render to print the same
 * `href`: about a tenth of a page's rendering (issue 29). Every `to` here is a site path.
 */
export function PageLink({ to, children, ...props }: Omit<ComponentProps<'a'>, 'href'> & { to: string }) {
  return (
    <a href={to} {...props}>
      {children}
    </a>
  );
}
