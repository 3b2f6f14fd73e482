import { useI18n } from '~/lib/i18n/i18n';
import { VIDEO_TEXTS } from '~/lib/video';

/** Issue 14: the item (a story, news item or service) has a sign-language video with captions. */
export function SignLanguageBadge() {
  const { tx } = useI18n();
  return (
    <span className="inline-block rounded-full bg-amber-100 px-3 py-1 text-xs font-semibold text-amber-950">
      {tx(VIDEO_TEXTS.badge)}
    </span>
  );
}
