import { STATUS_LABELS, type MessageStatus } from '~/lib/messages';

// A message's status as a small badge, its word always visible (colour is never the only sign).

const LOOKS: Record<MessageStatus, string> = {
  new: 'bg-indigo-800 text-white ring-indigo-800',
  read: 'bg-slate-100 text-slate-800 ring-slate-300',
  replied: 'bg-emerald-50 text-emerald-900 ring-emerald-300',
  archived: 'bg-amber-50 text-amber-950 ring-amber-300',
  spam: 'bg-red-50 text-red-900 ring-red-300',
};

export function MessageStatusBadge({ status }: { status: MessageStatus }) {
  return (
    <span className={`inline-flex shrink-0 rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ${LOOKS[status]}`}>
      {STATUS_LABELS[status]}
    </span>
  );
}

/**
 * The Messages tab's label with its unread count: the number as a badge for the eye, "3 unread" for
 * a screen reader (the tab is then read "Messages 3 unread"). The badge is `relative` so that the
 * absolutely placed screen-reader text stays inside the tabs' scrolling strip instead of widening
 * the page on a phone.
 */
export function MessagesTabLabel({ label, unread }: { label: string; unread: number }) {
  if (unread <= 0) return <>{label}</>;
  return (
    <>
      {label}{' '}
      <span className="relative ml-1 inline-flex min-w-6 justify-center rounded-full bg-indigo-800 px-1.5 text-sm leading-6 text-white">
        <span aria-hidden="true">{unread > 999 ? '999+' : unread}</span>
        <span className="sr-only">{unread} unread</span>
      </span>
    </>
  );
}
