import { SUBSCRIBER_STATUS_LABELS, type SubscriberStatus } from '~/lib/newsletter';

// A subscriber's status as a small badge, its word always visible (colour is never the only sign).

const LOOKS: Record<SubscriberStatus, string> = {
  pending: 'bg-amber-50 text-amber-950 ring-amber-300',
  confirmed: 'bg-emerald-50 text-emerald-900 ring-emerald-300',
  unsubscribed: 'bg-slate-100 text-slate-800 ring-slate-300',
};

export function SubscriberStatusBadge({ status }: { status: SubscriberStatus }) {
  return (
    <span className={`inline-flex shrink-0 rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ${LOOKS[status]}`}>
      {SUBSCRIBER_STATUS_LABELS[status]}
    </span>
  );
}
