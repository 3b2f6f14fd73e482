import { Link } from 'react-router';
import { ExternalLink } from '~/components/external-link';
import { ClosingCallToAction } from '~/components/home/call-to-action';
import { CardGridSection } from '~/components/home/card-grid-section';
import { FounderAvatar } from '~/components/home/founder-avatar';
import { PageHero } from '~/components/home/page-hero';
import { BUTTON, EYEBROW, TEXT_LINK } from '~/components/home/styles';
import { LinkedInLogo, XLogo } from '~/components/icons';
import { pageMeta, siteFromMatches } from '~/lib/seo';
import { paragraphs } from '~/lib/site';
import { findFounderStoryPath, getFounderProfile } from '~/server/site/founder.server';
import { getAboutTexts } from '~/server/site/site.server';
import type { Route } from './+types/about';

export async function loader() {
  const [founder, about] = await Promise.all([getFounderProfile(), getAboutTexts()]);
  return { about, founder, storyPath: await findFounderStoryPath(founder) };
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: 'About Us',
    description:
      'Our mission, vision and values, and the founder behind TDG Uganda: raising disability awareness through education and storytelling.',
    path: '/about',
    site: siteFromMatches(matches),
  });

export default function About({ loaderData }: Route.ComponentProps) {
  const { about, founder, storyPath } = loaderData;
  return (
    <>
      <PageHero
        id="about-title"
        kicker="Who we are"
        title="About Us"
        intro="TDG Uganda is an advocacy and awareness organisation for the deaf, hard-of-hearing and wider disability community in Uganda."
      />

      <div className="mx-auto grid max-w-7xl gap-6 px-4 py-16 md:grid-cols-2">
        <section aria-labelledby="mission" className="rounded-2xl border border-slate-200 bg-white p-8 shadow-sm">
          <h2 id="mission" className="text-2xl font-bold text-slate-900">
            Our mission
          </h2>
          <Paragraphs text={about.mission} />
        </section>
        <section aria-labelledby="vision" className="rounded-2xl border border-slate-200 bg-white p-8 shadow-sm">
          <h2 id="vision" className="text-2xl font-bold text-slate-900">
            Our vision
          </h2>
          <Paragraphs text={about.vision} />
        </section>
      </div>

      {about.values.length > 0 && <CardGridSection id="values" title="Our values" items={about.values} columns={3} />}

      <section id="founder" aria-labelledby="founder-title" className="mx-auto max-w-7xl scroll-mt-36 px-4 py-16 md:py-24">
        <div className="flex flex-col items-center gap-10 md:flex-row md:items-start md:gap-16">
          <FounderAvatar name={founder.name} pictureUrl={founder.pictureUrl} size="lg" />
          <div className="max-w-3xl">
            <p className={EYEBROW}>Our founder</p>
            <h2 id="founder-title" className="mt-3 text-3xl font-bold text-slate-900 md:text-4xl">
              {founder.name}
            </h2>
            {founder.title && <p className="mt-2 text-lg font-medium text-indigo-800">{founder.title}</p>}
            {paragraphs(founder.fullBio || founder.bio).map((paragraph, i) => (
              <p key={i} className={`${i === 0 ? 'mt-5' : 'mt-4'} text-lg leading-relaxed whitespace-pre-line text-slate-700`}>
                {paragraph}
              </p>
            ))}
            <div className="mt-8 flex flex-wrap items-center gap-4">
              {storyPath && (
                <Link to={storyPath} className={BUTTON.primary}>
                  {`Read ${founder.name}'s story`}
                </Link>
              )}
              {founder.social.twitter && (
                <ExternalLink href={founder.social.twitter} className={`${TEXT_LINK} inline-flex items-center gap-2`}>
                  <XLogo /> {founder.name} on X
                </ExternalLink>
              )}
              {founder.social.linkedin && (
                <ExternalLink href={founder.social.linkedin} className={`${TEXT_LINK} inline-flex items-center gap-2`}>
                  <LinkedInLogo /> {founder.name} on LinkedIn
                </ExternalLink>
              )}
            </div>
          </div>
        </div>
      </section>

      <ClosingCallToAction
        id="about-cta"
        tone="light"
        title="Work with us"
        text="See how we train young people, speak with schools and employers, and make communication accessible."
        links={[
          { to: '/services', label: 'Our services' },
          { to: '/contact', label: 'Contact us' },
        ]}
      />
    </>
  );
}

/** A plain text from Site settings: a blank line starts a new paragraph. */
function Paragraphs({ text }: { text: string }) {
  return paragraphs(text).map((paragraph, i) => (
    <p key={i} className="mt-4 text-lg leading-relaxed whitespace-pre-line text-slate-700">
      {paragraph}
    </p>
  ));
}
