import { useMatches } from 'react-router';
import type { SiteInfo } from './site';

/** What the public layout's loader gives the pages under it (app/routes/public/layout.tsx). */
export interface PublicLayoutData {
  site?: SiteInfo;
  saveData?: boolean;
  language?: string;
}

/**
 * The public layout's data, whichever language the page is in: the layout is there once per
 * language (issue 26), as `routes/public/layout`, `lg:routes/public/layout` and
 * `sw:routes/public/layout`, so a page must not ask for it by the English id alone.
 */
export function usePublicLayout(): PublicLayoutData | undefined {
  return useMatches().find((match) => match.id.endsWith('routes/public/layout'))?.loaderData as PublicLayoutData | undefined;
}
