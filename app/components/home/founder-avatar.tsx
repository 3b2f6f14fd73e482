import { Image } from '~/components/image';
import { useI18n } from '~/lib/i18n/i18n';

/** The founder's picture, or the first letter of their name in a circle when there is none. */
export function FounderAvatar({ name, pictureUrl, size }: { name: string; pictureUrl: string | null; size: 'md' | 'lg' }) {
  const { t } = useI18n();
  const box = size === 'lg' ? 'h-40 w-40 md:h-56 md:w-56' : 'h-32 w-32 md:h-40 md:w-40';
  if (pictureUrl) {
    return (
      <Image
        src={pictureUrl}
        alt={t('home.founderPortrait', { name })}
        width={400}
        height={400}
        sizes="224px"
        className={`${box} shrink-0 rounded-full`}
      />
    );
  }
  return (
    <div
      role="img"
      aria-label={t('home.founderNoPhoto', { name })}
      className={`${box} flex shrink-0 items-center justify-center rounded-full bg-indigo-800 text-6xl font-extrabold text-white md:text-7xl`}
    >
      <span aria-hidden="true">{name.trim().charAt(0).toUpperCase() || '?'}</span>
    </div>
  );
}
