import { Link, useRouteLoaderData } from 'react-router';
import { ExternalLink } from '~/components/external-link';
import { CallToAction } from '~/components/home/call-to-action';
import { CardGridSection } from '~/components/home/card-grid-section';
import { CheckList } from '~/components/home/check-list';
import { PageHero } from '~/components/home/page-hero';
import { BUTTON, TEXT_LINK } from '~/components/home/styles';
import { Image } from '~/components/image';
import { pageMeta, siteFromMatches } from '~/lib/seo';
import type { loader as layoutLoader } from './layout';
import type { Route } from './+types/awareness-course';

const COURSE_TITLE = 'Deaf / Hard of Hearing Awareness Training';

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: COURSE_TITLE,
    description:
      'A short online course, taught by Deaf trainers, on Deaf culture, basic Ugandan Sign Language and communicating with deaf and hard-of-hearing colleagues, customers and guests.',
    path: '/services/awareness-course',
    site: siteFromMatches(matches),
    image: '/images/home/course.svg',
  });

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
  const site = useRouteLoaderData<typeof layoutLoader>('routes/public/layout')?.site;
  const courseUrl = site?.courseUrl ?? '/course';
  return (
    <>
      <PageHero
        id="course-title"
        kicker="New course"
        title={COURSE_TITLE}
        intro="Learn how to welcome, work with and talk to deaf and hard-of-hearing people, from trainers who are Deaf themselves."
        aside={
          <Image
            src="/images/home/course.svg"
            alt="Illustration of an ear with sound waves, drawn in white on a deep navy-to-teal background"
            priority
            sizes="(min-width: 768px) 50vw, 100vw"
            className="rounded-2xl"
          />
        }
      >
        <ExternalLink href={courseUrl} className={BUTTON.accent}>
          Enroll Now
        </ExternalLink>
        <Link to="/contact?subject=Awareness%20Training%20for%20a%20group" className={BUTTON.outlineOnDark}>
          Train your team
        </Link>
      </PageHero>

      <div className="mx-auto grid max-w-7xl gap-6 px-4 py-16 lg:grid-cols-2">
        <section aria-labelledby="audience" className="rounded-2xl border border-slate-200 bg-white p-8 shadow-sm">
          <h2 id="audience" className="text-2xl font-bold text-slate-900">
            Who it is for
          </h2>
          <p className="mt-3 text-slate-700">Anyone who wants to include deaf and hard-of-hearing people. No signing needed.</p>
          <CheckList items={AUDIENCE} className="mt-6" />
        </section>
        <section aria-labelledby="topics" className="rounded-2xl border border-slate-200 bg-white p-8 shadow-sm">
          <h2 id="topics" className="text-2xl font-bold text-slate-900">
            What you will learn
          </h2>
          <CheckList items={TOPICS} className="mt-6" />
        </section>
      </div>

      <CardGridSection id="format" title="How the course works" items={FORMAT} columns={4} />

      <div className="mx-auto max-w-7xl px-4 py-16">
        <CallToAction
          id="certificate"
          tone="dark"
          title="Earn a certificate"
          text="Finish every module and pass the final quiz to receive a certificate of completion from TDG Uganda, to show your school, employer or community that you are ready to include deaf people."
          footer={
            <>
              Questions about the course?{' '}
              <Link
                to="/contact?subject=Awareness%20Training"
                className="font-semibold text-white underline underline-offset-4 hover:text-amber-200"
              >
                Contact us
              </Link>
            </>
          }
        >
          <ExternalLink href={courseUrl} className={BUTTON.accent}>
            Enroll Now
          </ExternalLink>
        </CallToAction>
        <p className="mt-8 text-center">
          <Link to="/services" className={TEXT_LINK}>
            See all our services
          </Link>
        </p>
      </div>
    </>
  );
}
