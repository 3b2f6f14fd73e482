import { translator, useI18n } from '~/lib/i18n/i18n';
import { pathInLanguage, type Language } from '~/lib/languages';

// Issue 26, items 4 and 5 (docs/decisions/031-translated-content.md): what a page in Luganda or
// Swahili shows about an item's language: a marker on an item shown in English, the notice on its
// page, and the links between an item's published versions.

/** `lang="en"` for something shown in English on a page in another language; nothing otherwise. */
export function useEnglishLang(shown: Language): { lang?: string } {
  const { language } = useI18n();
  return shown !== language ? { lang: shown } : {};
}

/** The visible "In English" marker of a list item shown in English on a page in another language. */
export function EnglishMarker({ shown }: { shown: Language }) {
  const { language, t } = useI18n();
  if (shown !== 'en' || language === 'en') return null;
  return (
    <span lang={language} className="inline-block rounded-full bg-amber-100 px-3 py-1 text-xs font-semibold text-amber-950">
      {t('translation.englishMarker')}
    </span>
  );
}

/** The short notice, in the page's language, above an item shown in English because it has no version in it. */
export function NotTranslatedNotice({ shown }: { shown: Language }) {
  const { language, t } = useI18n();
  if (shown !== 'en' || language === 'en') return null;
  return (
    <p lang={language} role="note" className="mt-6 rounded-lg border-l-4 border-amber-500 bg-amber-50 p-4 text-amber-950">
      {t('translation.notTranslated')}
    </p>
  );
}

/**
 * Links from an item's page to the same item in each other language it is published in (English
 * always), each named in its own language. hrefLang comes before href, so the link to English is
 * left as it is by lib/localise-links.ts.
 */
export function ArticleLanguageLinks({ path, versions }: { path: string; versions: readonly Language[] }) {
  const { language, t } = useI18n();
  const others = (['en', ...versions] as Language[]).filter((l) => l !== language);
  if (others.length === 0) return null;
  return (
    <nav aria-label={t('translation.otherLanguages')} className="mt-5">
      <ul className="flex flex-wrap gap-2">
        {others.map((other) => (
          <li key={other}>
            <a
              lang={other}
              hrefLang={other}
              href={pathInLanguage(path, other)}
              className="inline-flex min-h-11 items-center rounded-full border-2 border-indigo-800 px-4 font-semibold text-indigo-900 hover:bg-indigo-50"
            >
              {translator(other)('translation.readInThis')}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
