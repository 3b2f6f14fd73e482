import { Link } from 'react-router';
import { percent, type ItemNumbers } from '~/lib/analytics';

// Issue 28: an item's own numbers on its edit screen, as a short list of figures (no chart).

const number = new Intl.NumberFormat('en-US');

export function ItemNumbersPanel({ numbers }: { numbers: ItemNumbers }) {
  const figures: [string, string][] = [
    ['Page views', number.format(numbers.views)],
    ['Visits', number.format(numbers.visits)],
    ['Visitors', number.format(numbers.visitors)],
    ['Video plays', number.format(numbers.videoPlays)],
    ['Videos finished', `${number.format(numbers.videoCompleted)} (${percent(numbers.videoCompleted, numbers.videoPlays)})`],
    ['Feed and newsletter clicks', number.format(numbers.clicks)],
  ];
  return (
    <section aria-labelledby="item-numbers" className="mb-6 max-w-4xl rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
      <h2 id="item-numbers" className="text-lg font-bold text-slate-900">
        Readers in the last {numbers.days} days
      </h2>
      <dl className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-3">
        {figures.map(([label, value]) => (
          <div key={label} className="rounded-lg bg-slate-50 p-3">
            <dt className="text-sm text-slate-700">{label}</dt>
            <dd className="text-xl font-bold text-slate-900" data-item-figure={label}>
              {value}
            </dd>
          </div>
        ))}
      </dl>
      <p className="mt-3 text-sm text-slate-700">
        Counted without cookies; staff and bots are left out.{' '}
        <Link to="/admin/analytics" className="font-semibold text-indigo-800 underline">
          All analytics
        </Link>
      </p>
    </section>
  );
}
