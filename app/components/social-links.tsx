import type { SiteInfo } from '~/lib/site';
import { ExternalLink } from './external-link';
import { InstagramLogo, LinkedInLogo, XLogo, YouTubeLogo } from './icons';
import { useI18n } from '~/lib/i18n/i18n';

const NETWORKS = [
  { key: 'x', label: 'X', Icon: XLogo },
  { key: 'instagram', label: 'Instagram', Icon: InstagramLogo },
  { key: 'linkedin', label: 'LinkedIn', Icon: LinkedInLogo },
  { key: 'youtube', label: 'YouTube', Icon: YouTubeLogo },
] as const;

/** The organisation's social profiles; a network whose link was emptied in Site settings is left out. */
export function SocialLinks({ site, className, linkClassName }: { site: SiteInfo; className?: string; linkClassName: string }) {
  const { t } = useI18n();
  const networks = NETWORKS.filter(({ key }) => site.social[key]);
  if (networks.length === 0) return null;
  return (
    <ul className={className} aria-label={t('social.list', { name: site.name })}>
      {networks.map(({ key, label, Icon }) => (
        <li key={key}>
          <ExternalLink
            href={site.social[key]}
            className={linkClassName}
            aria-label={`${t('social.link', { name: site.name, network: label })} (${t('link.newTab')})`}
          >
            <Icon />
          </ExternalLink>
        </li>
      ))}
    </ul>
  );
}
