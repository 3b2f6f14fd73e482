import { Link } from 'react-router';
import { CallToAction } from './call-to-action';
import { BUTTON } from './styles';

/** Home section 7: the closing call to action. */
export function ClosingCta() {
  return (
    <div className="mx-auto max-w-7xl px-4 pb-16 md:pb-24">
      <CallToAction
        id="closing-title"
        tone="light"
        title="Ready to make a difference?"
        text="Whether you run a school, a business or a community group, or you simply want to learn, there is a place for you in building a Uganda where everyone is included."
      >
        <Link to="/contact" className={BUTTON.primary}>
          Get in touch
        </Link>
        <Link to="/services" className={BUTTON.outline}>
          Explore our services
        </Link>
      </CallToAction>
    </div>
  );
}
