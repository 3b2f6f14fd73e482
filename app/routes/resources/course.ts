import { redirect } from 'react-router';
import { getConfig } from '~/server/config.server';

/** spec §2 /course: the external awareness-training course site (COURSE_URL). */
export function loader() {
  return redirect(getConfig().organisation.courseUrl, 302);
}
