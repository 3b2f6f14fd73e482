import type { SiteInfo } from '~/lib/site';
import { ExternalLink } from './external-link';
import { InstagramLogo, LinkedInLogo, XLogo, YouTubeLogo } from './icons';

const NETWORKS = [
  { key: 'x', label: 'X', Icon: XLogo },
  { key: 'instagram', label: 'Instagram', Icon: InstagramLogo },
  { key: 'linkedin', label: 'LinkedIn', Icon: LinkedInLogo },
  { key: 'youtube', label: 'YouTube', Icon: YouTubeLogo },
] as const;

/** The organisation's social profiles; a network whose link was emptied in Site settings is left out. */
export function SocialLinks({ site, className, linkClassName }: { site: SiteInfo; className?: string; linkClassName: string }) {
  const networks = NETWORKS.filter(({ key }) => site.social[key]);
  if (networks.length === 0) return null;
  return (
    <ul className={className} aria-label={`${site.name} on social media`}>
      {networks.map(({ key, label, Icon }) => (
        <li key={key}>
          <ExternalLink
            href={site.social[key]}
            className={linkClassName}
            aria-label={`${site.name} on ${label} (opens in a new tab)`}
          >
            <Icon />
          </ExternalLink>
        </li>
      ))}
    </ul>
  );
}
