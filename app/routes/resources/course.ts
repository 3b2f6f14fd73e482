import { redirect } from 'react-router';
import { getOutgoingLink } from '~/server/site/site.server';

/** spec §2 /course: the external awareness-training course site (Site settings' course link, else COURSE_URL). */
export async function loader() {
  return redirect(await getOutgoingLink('courseUrl'), 302);
}
