import { usePublicLayout } from '~/lib/public-layout';
import { PageLink } from '~/components/page-link';
import { ExternalLink } from '~/components/external-link';
import { CallToAction } from '~/components/home/call-to-action';
import { CardGridSection } from '~/components/home/card-grid-section';
import { CheckList } from '~/components/home/check-list';
import { PageHero } from '~/components/home/page-hero';
import { BUTTON, TEXT_LINK } from '~/components/home/styles';
import { Image } from '~/components/image';
import { pageMeta, siteFromMatches } from '~/lib/seo';
import { metaTranslator, useI18n } from '~/lib/i18n/i18n';
import type { Route } from './+types/awareness-course';

export const meta: Route.MetaFunction = ({ matches }) => {
  const site = siteFromMatches(matches);
  const t = metaTranslator(site);
  return pageMeta({
    title: t('course.title'),
    description: t('course.description'),
    path: '/services/awareness-course',
    site,
    image: '/images/home/course.svg',
  });
};

const AUDIENCE = [
  'Teachers and school staff with deaf or hard-of-hearing learners',
  'Employers, managers and HR teams building inclusive workplaces',
  'Health workers, receptionists and anyone who serves the public',
  'Parents, families and friends of deaf children and adults',
  'Church, mosque and community group leaders, and event organisers',
];

const TOPICS = [
  'Deaf culture and identity: the difference between deaf, Deaf and hard of hearing',
  'Basic Ugandan Sign Language: greetings, the alphabet, numbers and everyday signs',
  'Communicating with deaf and hard-of-hearing colleagues, customers and patients',
  'Lip-reading, writing and texting: what helps and what does not',
  'Working well with sign language interpreters',
  'Planning accessible meetings and events, with captions and good lighting',
  'Your duties under the Persons with Disabilities Act 2020',
];

const FORMAT = [
  { name: 'Where', text: 'Online, on the course site. Lessons are short and work on a phone with a slow connection.' },
  { name: 'Pace', text: 'Self-paced: start when you like and stop and return whenever you need.' },
  { name: 'Teaching', text: 'Video lessons by Deaf trainers in Ugandan Sign Language, with captions and written transcripts.' },
  { name: 'Practice', text: 'A short quiz and a practice activity at the end of each module.' },
];

/** The page behind 'Enroll Now' (spec §2 /services/awareness-course; docs/decisions/303). */
export default function AwarenessCourse() {
  const site = usePublicLayout()?.site;
  const courseUrl = site?.courseUrl ?? '/course';
  const { t, tx } = useI18n();
  return (
    <>
      <PageHero
        id="course-title"
        kicker={t('services.newCourse')}
        title={t('course.title')}
        intro={t('course.intro')}
        aside={
          <Image
            src="/images/home/course.svg"
            alt={t('course.imageAlt')}
            priority
            sizes="(min-width: 768px) 50vw, 100vw"
            className="rounded-2xl"
          />
        }
      >
        <ExternalLink href={courseUrl} className={BUTTON.accent}>
          {t('services.enroll')}
        </ExternalLink>
        <PageLink to="/contact?subject=Awareness%20Training%20for%20a%20group" className={BUTTON.outlineOnDark}>
          {t('course.trainTeam')}
        </PageLink>
      </PageHero>

      <div className="mx-auto grid max-w-7xl gap-6 px-4 py-16 lg:grid-cols-2">
        <section aria-labelledby="audience" className="rounded-2xl border border-slate-200 bg-white p-8 shadow-sm">
          <h2 id="audience" className="text-2xl font-bold text-slate-900">
            {t('course.whoFor')}
          </h2>
          <p className="mt-3 text-slate-700">{t('course.whoForText')}</p>
          <CheckList items={AUDIENCE.map(tx)} className="mt-6" />
        </section>
        <section aria-labelledby="topics" className="rounded-2xl border border-slate-200 bg-white p-8 shadow-sm">
          <h2 id="topics" className="text-2xl font-bold text-slate-900">
            {t('course.learn')}
          </h2>
          <CheckList items={TOPICS.map(tx)} className="mt-6" />
        </section>
      </div>

      <CardGridSection
        id="format"
        title={t('course.how')}
        items={FORMAT.map((item) => ({ name: tx(item.name), text: tx(item.text) }))}
        columns={4}
      />

      <div className="mx-auto max-w-7xl px-4 py-16">
        <CallToAction
          id="certificate"
          tone="dark"
          title={t('course.certificate')}
          text={t('course.certificateText')}
          footer={
            <>
              {t('course.questions')}{' '}
              <PageLink
                to="/contact?subject=Awareness%20Training"
                className="font-semibold text-white underline underline-offset-4 hover:text-amber-200"
              >
                {t('course.contactUs')}
              </PageLink>
            </>
          }
        >
          <ExternalLink href={courseUrl} className={BUTTON.accent}>
            {t('services.enroll')}
          </ExternalLink>
        </CallToAction>
        <p className="mt-8 text-center">
          <PageLink to="/services" className={TEXT_LINK}>
            {t('course.allServices')}
          </PageLink>
        </p>
      </div>
    </>
  );
}
