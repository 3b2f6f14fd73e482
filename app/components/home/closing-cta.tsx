import { ClosingCallToAction } from './call-to-action';

/** Home section 7: the closing call to action. */
export function ClosingCta() {
  return (
    <ClosingCallToAction
      id="closing-title"
      tone="light"
      title="Ready to make a difference?"
      text="Whether you run a school, a business or a community group, or you simply want to learn, there is a place for you in building a Uganda where everyone is included."
      links={[
        { to: '/contact', label: 'Get in touch' },
        { to: '/services', label: 'Explore our services' },
      ]}
    />
  );
}
