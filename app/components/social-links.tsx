import type { SiteInfo } from '~/lib/site';
import { ExternalLink } from './external-link';
import { InstagramLogo, LinkedInLogo, XLogo, YouTubeLogo } from './icons';

const NETWORKS = [
  { key: 'x', label: 'X', Icon: XLogo },
  { key: 'instagram', label: 'Instagram', Icon: InstagramLogo },
  { key: 'linkedin', label: 'LinkedIn', Icon: LinkedInLogo },
  { key: 'youtube', label: 'YouTube', Icon: YouTubeLogo },
] as const;

export function SocialLinks({ site, className, linkClassName }: { site: SiteInfo; className?: string; linkClassName: string }) {
  return (
    <ul className={className} aria-label={`${site.name} on social media`}>
      {NETWORKS.map(({ key, label, Icon }) => (
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
