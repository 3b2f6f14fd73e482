import { can, SECTION_INFO, sectionGroupsFor, type DashboardFrameData } from '../../lib/permissions.ts';
import { countUnreadMessages } from '../inbox/messages.server.ts';
import { getConfig } from '../platform/config.server.ts';
import type { StaffUser } from '../staff/auth.server.ts';

/**
 * What the dashboard's frame shows for `user`: their card, their role's sections, the inbox's unread
 * count, and whether mail goes nowhere (staff told "sent" would otherwise believe it).
 */
export async function dashboardFrame(user: StaffUser): Promise<DashboardFrameData> {
  const groups = sectionGroupsFor(user.role).map((group) => ({
    label: group.label,
    sections: group.sections.map((section) => ({ section, ...SECTION_INFO[section] })),
  }));
  // The Messages tab's count of unread (New) messages, only for the roles that manage the inbox.
  const unreadMessages = can(user.role, 'messages:manage') ? await countUnreadMessages() : 0;
  const sendsMail = (['users:manage', 'messages:manage', 'newsletter:send', 'events:manage'] as const).some((p) =>
    can(user.role, p),
  );
  const mailOff = sendsMail && !getConfig().smtpUrl;
  return { user: { id: user.id, name: user.name, email: user.email, role: user.role }, groups, unreadMessages, mailOff };
}
