import { redirect } from 'react-router';
import { getOutgoingLink } from '~/server/site/site.server';

/** spec §2 /donate: the external donation page (Site settings' donation link, else DONATION_URL). */
export async function loader() {
  return redirect(await getOutgoingLink('donationUrl'), 302);
}
