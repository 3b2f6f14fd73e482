// The audit log's actions (the spec leaves the log unshown) with the words the audit page shows for
// each. An action is added here, with its label, or it cannot be recorded.

export const AUDIT_ACTION_LABELS = {
  'auth.sign_in': 'Signed in',
  'auth.sign_in_failed': 'Sign-in failed',
  'auth.sign_out': 'Signed out',
  'user.created': 'User created',
  'user.updated': 'User updated',
  'user.deleted': 'User deleted',
  'user.password_reset_requested': 'Password reset asked for',
  'user.password_reset_sent': 'Password reset sent',
  'user.password_changed': 'Password changed',
  'content.published': 'Content published',
  'content.updated': 'Content updated',
  'content.deleted': 'Content deleted',
  // Issue 13: drafts, scheduled publishing and preview links.
  'content.draft_saved': 'Draft saved',
  'content.scheduled': 'Content scheduled',
  'content.rescheduled': 'Content rescheduled',
  'content.unscheduled': 'Schedule removed (back to draft)',
  'content.published_by_schedule': 'Published on schedule',
  'content.preview_link_created': 'Preview link made',
  // Issue 13: an earlier version saved again from its History (a new revision; the old ones stay).
  'content.restored': 'Earlier version restored',
  // Issue 26: a Luganda or Swahili version of an item, made as a draft from its English words.
  'content.version_created': 'Language version added',
  'message.replied': 'Message replied to',
  'message.status_changed': 'Message marked',
  'message.deleted': 'Message deleted',
  'messages.exported': 'Messages exported',
  'messages.expired': 'Old messages deleted',
  'messages.retention_changed': 'Message retention changed',
  'subscriber.deleted': 'Subscriber deleted',
  'subscribers.exported': 'Subscribers exported',
  'subscribers.asked_to_confirm': 'Earlier subscribers asked to confirm',
  'newsletter.sent': 'Newsletter sent',
  'newsletter.test_sent': 'Newsletter test sent',
  'newsletter.stopped': 'Newsletter sending stopped',
  'newsletter.rate_changed': 'Newsletter sending speed changed',
  'settings.updated': 'Site settings changed',
  'service.created': 'Service added',
  'service.updated': 'Service updated',
  'service.deleted': 'Service deleted',
  // Issue 26: a service's Luganda and Swahili versions.
  'service.version_saved': 'Service version saved as a draft',
  'service.version_published': 'Service version published',
  'service.version_unpublished': 'Service version unpublished',
  'services.reordered': 'Services reordered',
  'demo.removed': 'Demo content removed',
  // Issue 28: how long daily visit counts are kept.
  'analytics.retention_changed': 'Visit count retention changed',
  // Issue 25: the second step of a sign-in.
  'auth.second_step_failed': 'Second sign-in step failed',
  'auth.recovery_code_used': 'Recovery code used',
  'auth.session_ended': 'Session ended from My sign-in',
  'two_factor.totp_added': 'Authenticator app added',
  'two_factor.totp_removed': 'Authenticator app removed',
  'two_factor.enrol_failed': 'Authenticator app set-up code wrong',
  'two_factor.recovery_codes_made': 'New recovery codes made',
  'two_factor.passkey_added': 'Passkey added',
  'two_factor.passkey_removed': 'Passkey removed',
  'two_factor.passkey_renamed': 'Passkey renamed',
  'two_factor.reset': 'Second factor reset',
  'two_factor.required_roles_changed': 'Two-factor requirement changed',
  'two_factor.device_forgotten': 'Remembered device forgotten',
  // Issue 27: trainings and events.
  'event.draft_saved': 'Event draft saved',
  'event.published': 'Event published',
  'event.updated': 'Event updated',
  'event.registration_closed': 'Event registration closed',
  'event.registration_opened': 'Event registration opened',
  'event.cancelled': 'Event cancelled',
  'event.registration_cancelled': 'Event registration cancelled',
  'event.attendance_marked': 'Event attendance marked',
  'event.messaged': 'Event registrants messaged',
  'event.registrations_exported': 'Event registrations exported',
  // Decision 051: an event's Luganda and Swahili versions.
  'event.version_saved': 'Event version saved as a draft',
  'event.version_published': 'Event version published',
  'event.version_unpublished': 'Event version unpublished',
  // Issue 26 item 3: the interface's texts in Luganda and Swahili (the Translations screen).
  'translations.text_saved': 'Interface text changed',
  'translations.text_reset': 'Interface text reset to the built-in one',
  'translations.imported': 'Interface texts imported',
} as const satisfies Record<string, string>;

export type AuditAction = keyof typeof AUDIT_ACTION_LABELS;

const LABELS: Readonly<Partial<Record<string, string>>> = AUDIT_ACTION_LABELS;

/** The label of a stored action; one no longer known (an older release's) reads as stored. */
export function auditActionLabel(action: string): string {
  return (Object.hasOwn(LABELS, action) ? LABELS[action] : undefined) ?? action;
}
