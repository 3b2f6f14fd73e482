import { ActionCards } from '~/components/home/action-cards';
import { AwarenessProject } from '~/components/home/awareness-project';
import { ClosingCta } from '~/components/home/closing-cta';
import { FounderStory } from '~/components/home/founder-story';
import { Hero } from '~/components/home/hero';
import { LatestStories } from '~/components/home/latest-stories';
import { Mission } from '~/components/home/mission';
import { NextEvents } from '~/components/home/next-events';
import { formatEventWhen } from '~/lib/events';
import { eventsInLanguage } from '~/server/events/event-versions.server';
import { listNextEvents, readEventTimeZone } from '~/server/events/events.server';
import { StatsStrip } from '~/components/home/stats-strip';
import { metaTranslator } from '~/lib/i18n/i18n';
import { languageOfPath } from '~/lib/languages';
import { absoluteUrl, pageMeta, siteFromMatches } from '~/lib/seo';
import type { SiteInfo } from '~/lib/site';
import { listRecentContent } from '~/server/content/content.server';
import { findFounderStoryPath, getFounderProfile } from '~/server/site/founder.server';
import { getLogger } from '~/server/platform/logger.server';
import { getHomeTexts } from '~/server/site/site.server';
import type { Route } from './+types/home';

export async function loader({ request }: Route.LoaderArgs) {
  const language = languageOfPath(new URL(request.url).pathname);
  const [founder, home, nextEvents, timeZone] = await Promise.all([
    getFounderProfile(),
    getHomeTexts(),
    // Issue 27: the next events (none when they cannot be read; the page stands without them).
    listNextEvents(3),
    readEventTimeZone(),
  ]);
  // Decision 051: each in the page's language where it has a published version there; in English if
  // the versions cannot be read.
  const shownEvents = await eventsInLanguage(nextEvents, language).catch((error: unknown) => {
    getLogger().error({ err: error }, 'the versions of the next events could not be read');
    return nextEvents;
  });
  const events = shownEvents.map((event) => ({
    ...event,
    when: formatEventWhen(event.startsAt, event.endsAt, timeZone, language),
  }));
  const [storyPath, stories] = await Promise.all([
    findFounderStoryPath(founder),
    // The page stands without its latest stories; a failed read is logged and the section left out.
    // Issue 26: each in the page's language where it has a published version there.
    listRecentContent('blogs', 3, language).catch((error: unknown) => {
      getLogger().error({ err: error }, 'the latest stories could not be read for the home page');
      return [];
    }),
  ]);
  return { home, founder, storyPath, stories, events };
}

/** schema.org Organization for search engines (issue 3, item 10). */
function organisationJsonLd(site: SiteInfo): Record<string, unknown> {
  return {
    '@context': 'https://schema.org',
    '@type': 'Organization',
    name: site.name,
    url: absoluteUrl(site, '/'),
    logo: absoluteUrl(site, '/logo.svg'),
    description: site.description,
    email: site.email,
    telephone: site.phone,
    address: { '@type': 'PostalAddress', addressLocality: 'Kampala', addressCountry: 'UG' },
    sameAs: Object.values(site.social).filter(Boolean),
  };
}

export const meta: Route.MetaFunction = ({ matches }) => {
  const site = siteFromMatches(matches);
  const t = metaTranslator(site);
  // Site settings hold the description in English; a page in Luganda or Swahili says it in its own words.
  const english = (site?.language ?? 'en') === 'en';
  return pageMeta({
    title: t('meta.home.title'),
    description: (english ? site?.description : undefined) ?? t('meta.home.description'),
    path: '/',
    site,
    jsonLd: site ? [organisationJsonLd(site)] : [],
  });
};

/** spec §2 Home page sections, in order; the latest stories come after the action cards. */
export default function Home({ loaderData }: Route.ComponentProps) {
  const { home } = loaderData;
  return (
    <>
      <Hero headline={home.heroHeadline} text={home.heroText} />
      <Mission heading={home.missionHeading} text={home.missionText} counter={home.stats[0]!} />
      <StatsStrip stats={home.stats} />
      <FounderStory founder={loaderData.founder} storyPath={loaderData.storyPath} />
      <AwarenessProject />
      <ActionCards />
      <NextEvents events={loaderData.events} />
      <LatestStories stories={loaderData.stories} />
      <ClosingCta />
    </>
  );
}
