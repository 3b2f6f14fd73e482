import type { SiteInfo } from '~/lib/site';
import { getConfig } from './config.server.ts';
import { getDb } from './db/db.server.ts';
import { readSetting } from './settings.server.ts';

export const DEFAULT_DESCRIPTION =
  'We raise disability awareness in Uganda through education and storytelling, and create opportunities for young persons with disabilities.';

/** Organisation details: the environment's values, overridden by any staff edits stored in settings. */
export async function getSiteInfo(): Promise<SiteInfo> {
  const config = getConfig();
  const org = config.organisation;
  const stored = (await readSetting<Partial<SiteInfo>>(getDb(), 'organisation')) ?? {};
  return {
    name: stored.name ?? org.name,
    description: stored.description ?? DEFAULT_DESCRIPTION,
    email: stored.email ?? org.email,
    phone: stored.phone ?? org.phone,
    location: stored.location ?? org.location,
    social: { ...org.social, ...stored.social },
    donationUrl: org.donationUrl,
    courseUrl: org.courseUrl,
    publicUrl: config.publicUrl,
    year: new Date().getFullYear(),
  };
}
