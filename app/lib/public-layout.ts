import { useMatches } from 'react-router';
import type { SiteInfo } from './site';

/** What the public layout's loader gives the pages under it (app/routes/public/layout.tsx). */
export interface PublicLayoutData {
  site?: SiteInfo;
  saveData?: boolean;
  language?: string;
}

/**
 * The public layout's data among a page's matched routes, whichever language the page is in: the
 * layout is there once per language (issue 26), as `routes/public/layout`, `lg:routes/public/layout`
 * and `sw:routes/public/layout`, so it must not be asked for by the English id alone.
 */
export function publicLayoutOf(
  matches: ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>,
): PublicLayoutData | undefined {
  return matches.find((match) => match?.id.endsWith('routes/public/layout'))?.loaderData as PublicLayoutData | undefined;
}

/** The public layout's data, for a component of a page under it. */
export function usePublicLayout(): PublicLayoutData | undefined {
  return publicLayoutOf(useMatches());
}
