import { redirect } from 'react-router';
import { getConfig } from '~/server/config.server';

/** spec §2 /donate: the external donation page (DONATION_URL). */
export function loader() {
  return redirect(getConfig().organisation.donationUrl, 302);
}
