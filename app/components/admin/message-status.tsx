import { STATUS_LABELS, type MessageStatus } from '~/lib/messages';
import { KIND_LABELS, type InboxKind } from '~/lib/applications';

// A message's status as a small badge, its word always visible (colour is never the only sign).

const LOOKS: Record<MessageStatus, string> = {
  new: 'bg-indigo-800 text-white ring-indigo-800',
  read: 'bg-slate-100 text-slate-800 ring-slate-300',
  replied: 'bg-emerald-50 text-emerald-900 ring-emerald-300',
  archived: 'bg-amber-50 text-amber-950 ring-amber-300',
  spam: 'bg-red-50 text-red-900 ring-red-300',
  contacted: 'bg-sky-50 text-sky-900 ring-sky-300',
  accepted: 'bg-emerald-100 text-emerald-950 ring-emerald-400',
  declined: 'bg-slate-200 text-slate-900 ring-slate-400',
};

export function MessageStatusBadge({ status }: { status: MessageStatus }) {
  return (
    <span className={`inline-flex shrink-0 rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ${LOOKS[status]}`}>
      {STATUS_LABELS[status]}
    </span>
  );
}

/** Issue 27: what an inbox row is (an application's kind), in words. */
export function KindBadge({ kind }: { kind: InboxKind }) {
  return (
    <span className="inline-flex shrink-0 rounded-full bg-violet-50 px-2.5 py-0.5 text-xs font-semibold text-violet-900 ring-1 ring-violet-300">
      {KIND_LABELS[kind].one}
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
