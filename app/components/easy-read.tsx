import { PageLink } from '~/components/page-link';
import { easyReadBlocks } from '~/lib/easy-read';
import { useI18n } from '~/lib/i18n/i18n';

// Issue 26 item 6 (decision 033): the public pieces of easy read. The text is plain text, shown as
// React text (escaped), in paragraphs and lists.

/** The one control near an item's title that leads to its easy read (a plain link: no JavaScript). */
export function EasyReadLink({ href }: { href: string }) {
  const { t } = useI18n();
  return (
    <p className="mt-4">
      <PageLink
        to={href}
        data-easy-read-link=""
        className="inline-flex min-h-12 items-center gap-2 rounded-full border-2 border-indigo-800 bg-white px-5 font-semibold text-indigo-900 hover:bg-indigo-50"
      >
        <span aria-hidden="true" className="text-lg">
          ☺
        </span>
        <span>
          {t('easyRead.open')}
          <span className="sr-only">: {t('easyRead.openHint')}</span>
        </span>
      </PageLink>
    </p>
  );
}

/** An easy-read text as paragraphs and lists, in large type with room between lines. */
export function EasyReadText({ text, lang }: { text: string; lang?: string | undefined }) {
  return (
    <div lang={lang} className="space-y-6 text-xl leading-relaxed text-slate-900" data-easy-read-text="">
      {easyReadBlocks(text).map((block, index) =>
        block.kind === 'paragraph' ? (
          <p key={index}>{block.text}</p>
        ) : (
          <ul key={index} className="list-disc space-y-3 pl-7">
            {block.items.map((item, i) => (
              <li key={i}>{item}</li>
            ))}
          </ul>
        ),
      )}
    </div>
  );
}

/**
 * Issue 26 item 5: on a page in Luganda or Swahili, a text still in English says so in the page's
 * language (inside an element marked lang="en", so it carries its own lang). Nothing otherwise.
 */
export function NotTranslated({ textLanguage }: { textLanguage?: string | undefined }) {
  const { t, language } = useI18n();
  if (!textLanguage || textLanguage === language) return null;
  return (
    <p
      lang={language}
      className="mb-3 inline-block rounded-lg bg-amber-50 px-3 py-1 text-sm text-amber-950"
      data-not-translated=""
    >
      {t('translation.notTranslated')}
    </p>
  );
}
