import { isTranslationLanguage, TRANSLATION_MESSAGES } from '~/lib/translations';
import { exportPo } from '~/server/site/interface-texts.server';
import type { Route } from './+types/translations-export';

// Issue 26 item 3: a language's interface texts as a PO file for a translator's tool
// (docs/decisions/032-translations-screen.md). Import is on the Translations screen.

export async function loader({ request }: Route.LoaderArgs) {
  const language = new URL(request.url).searchParams.get('lang');
  if (!isTranslationLanguage(language))
    return new Response(TRANSLATION_MESSAGES.unknownLanguage, {
      status: 400,
      headers: { 'Content-Type': 'text/plain; charset=utf-8' },
    });
  const file = await exportPo(language);
  return new Response(new Uint8Array(file), {
    headers: {
      'Content-Type': 'text/x-gettext-translation; charset=utf-8',
      'Content-Disposition': `attachment; filename="interface-texts-${language}.po"`,
      'Cache-Control': 'no-store',
    },
  });
}
