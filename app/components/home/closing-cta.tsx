import { useI18n } from '~/lib/i18n/i18n';
import { ClosingCallToAction } from './call-to-action';

/** Home section 7: the closing call to action. */
export function ClosingCta() {
  const { t } = useI18n();
  return (
    <ClosingCallToAction
      id="closing-title"
      tone="light"
      title={t('home.closingTitle')}
      text={t('home.closingText')}
      links={[
        { to: '/contact', label: t('home.getInTouch') },
        { to: '/services', label: t('home.exploreServices') },
      ]}
    />
  );
}
