import { PageLink } from '~/components/page-link';
import { useI18n } from '~/lib/i18n/i18n';
import { paragraphs } from '~/lib/site';
import type { FounderProfile } from '~/server/site/founder.server';
import { FounderAvatar } from './founder-avatar';
import { BUTTON, EYEBROW } from './styles';

/** Where 'Read {name}'s story' leads when the founder has no story of their own (docs/decisions/301). */
export const FOUNDER_SECTION_PATH = '/about#founder';

/** Home section 4: the founder's story with 'Read {name}'s story' (spec §2; docs/decisions/301, 502). */
export function FounderStory({ founder, storyPath }: { founder: FounderProfile; storyPath: string | null }) {
  const { t, english } = useI18n();
  return (
    <section aria-labelledby="founder-title" className="bg-slate-50">
      <div className="mx-auto flex max-w-7xl flex-col items-center gap-10 px-4 py-16 md:flex-row md:items-start md:gap-16 md:py-24">
        <FounderAvatar name={founder.name} pictureUrl={founder.pictureUrl} size="lg" />
        <div className="max-w-3xl">
          <p className={EYEBROW}>{t('home.founderKicker')}</p>
          <h2 id="founder-title" className="mt-3 text-3xl font-bold text-slate-900 md:text-4xl">
            {t('home.meetFounder', { name: founder.name })}
          </h2>
          {founder.title && (
            <p lang={english} className="mt-2 text-lg font-medium text-indigo-800">
              {founder.title}
            </p>
          )}
          {paragraphs(founder.bio || founder.fullBio).map((paragraph, i) => (
            <p
              key={i}
              lang={english}
              className={`${i === 0 ? 'mt-5' : 'mt-4'} text-lg leading-relaxed whitespace-pre-line text-slate-700`}
            >
              {paragraph}
            </p>
          ))}
          <PageLink to={storyPath ?? FOUNDER_SECTION_PATH} className={`${BUTTON.primary} mt-8`}>
            {t('home.readFounderStory', { name: founder.name })}
          </PageLink>
        </div>
      </div>
    </section>
  );
}
