import { NoticePanel } from './notice-panel';

export const ACCESS_RESTRICTED_TITLE = 'Access Restricted';

/** spec §2: what a role sees in a section it cannot use. The server sends no data with it. */
export function AccessRestricted({ message }: { message: string }) {
  return (
    <NoticePanel tone="restricted" heading="h1" titleId="restricted-title" title={ACCESS_RESTRICTED_TITLE} message={message} />
  );
}
