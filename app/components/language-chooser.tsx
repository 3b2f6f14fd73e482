import { useI18n } from '~/lib/i18n/i18n';
import { LANGUAGE_NAMES, pathInLanguage, type Language } from '~/lib/languages';

// Issue 26: the language chooser (the header and the phone menu) and the page's hreflang alternates.
// Plain links to the same page in each language, each in its own name, so it works without JavaScript.
// Shown only while the Super Admin offers a language besides English (Site settings → Languages).

interface ChooserProps {
  languages: readonly Language[];
  /** This page's address in English (routes/public/layout.tsx). */
  englishPath: string;
  className?: string;
  linkClassName: string;
  currentClassName: string;
}

export function LanguageChooser({ languages, englishPath, className, linkClassName, currentClassName }: ChooserProps) {
  const { language: current, t } = useI18n();
  if (languages.length < 2) return null;
  return (
    <nav aria-label={t('language.label')} className={className}>
      <ul className="flex flex-wrap items-center gap-1">
        {languages.map((language) => (
          <li key={language}>
            {/* hrefLang comes just before href: the link to English is left as it is (lib/localise-links.ts). */}
            <a
              lang={language}
              hrefLang={language}
              href={pathInLanguage(englishPath, language)}
              aria-current={language === current ? 'true' : undefined}
              className={`${linkClassName} ${language === current ? currentClassName : ''}`}
            >
              {LANGUAGE_NAMES[language]}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The page in every language offered, and x-default (English), for search engines; React puts them in the head. */
export function LanguageAlternates({
  languages,
  englishPath,
  publicUrl,
}: {
  languages: readonly Language[];
  englishPath: string;
  publicUrl: string;
}) {
  if (languages.length < 2) return null;
  return (
    <>
      {languages.map((language) => (
        <link key={language} rel="alternate" hrefLang={language} href={publicUrl + pathInLanguage(englishPath, language)} />
      ))}
      <link rel="alternate" hrefLang="x-default" href={publicUrl + englishPath} />
    </>
  );
}
