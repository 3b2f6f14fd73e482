import { PageLink } from '~/components/page-link';
import { useI18n } from '~/lib/i18n/i18n';
import { EYEBROW } from './styles';

/** spec §1 and §2: the three action cards; where each leads is docs/decisions/301. */
export const ACTION_CARDS = [
  {
    title: 'Start Training',
    titleId: 'home.card.training',
    textId: 'home.card.trainingText',
    text: 'Sign-language classes, awareness courses and digital skills training for youth with disabilities, with interpreters and assistive technology.',
    // Issue 27: the trainings and events people register for (decision 028).
    to: '/events',
    icon: 'M4 5h16v10H4z M2 19h20 M9 15v4 M15 15v4',
  },
  {
    title: 'Book Speaker',
    titleId: 'home.card.speaker',
    textId: 'home.card.speakerText',
    text: 'Speakers for disability awareness conversations at your school, workplace, church or community group.',
    // Issue 27: each opens its own request form.
    to: '/book-speaker',
    icon: 'M12 3a3 3 0 0 1 3 3v5a3 3 0 0 1-6 0V6a3 3 0 0 1 3-3z M6 11a6 6 0 0 0 12 0 M12 17v4 M8 21h8',
  },
  {
    title: 'Get Design Help',
    titleId: 'home.card.design',
    textId: 'home.card.designText',
    text: 'Inclusive design and social media services: accessible graphics, captioned videos and easy-read documents.',
    to: '/design-help',
    icon: 'M12 3l8 4.5v9L12 21l-8-4.5v-9z M12 12l8-4.5 M12 12v9 M12 12L4 7.5',
  },
] as const;

/** Home section 6: three cards, each one link (the whole card is clickable). */
export function ActionCards() {
  const { t } = useI18n();
  return (
    <section aria-labelledby="actions-title" className="bg-slate-50">
      <div className="mx-auto max-w-7xl px-4 py-16 md:py-24">
        <p className={EYEBROW}>{t('home.workWithUs')}</p>
        <h2 id="actions-title" className="mt-3 text-3xl font-bold text-slate-900 md:text-4xl">
          {t('home.howWeHelp')}
        </h2>
        <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {ACTION_CARDS.map((card) => (
            <li
              key={card.title}
              className="relative flex flex-col rounded-2xl border border-slate-200 bg-white p-8 shadow-sm transition-shadow focus-within:shadow-md hover:shadow-md"
            >
              <span className="flex h-12 w-12 items-center justify-center rounded-xl bg-indigo-100 text-indigo-800">
                <svg
                  aria-hidden="true"
                  focusable="false"
                  viewBox="0 0 24 24"
                  className="h-6 w-6"
                  fill="none"
                  stroke="currentColor"
                  strokeWidth={2}
                  strokeLinecap="round"
                  strokeLinejoin="round"
                >
                  <path d={card.icon} />
                </svg>
              </span>
              <h3 className="mt-6 text-xl font-bold text-slate-900">
                <PageLink to={card.to} className="after:absolute after:inset-0 after:rounded-2xl hover:text-indigo-800">
                  {t(card.titleId)}
                </PageLink>
              </h3>
              <p className="mt-3 text-slate-700">{t(card.textId)}</p>
              <span aria-hidden="true" className="mt-6 font-semibold text-indigo-800">
                {t('home.findOutMore')}
              </span>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
