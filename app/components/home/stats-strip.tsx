import { CountUp } from '~/components/count-up';
import { useI18n } from '~/lib/i18n/i18n';
import type { Stat } from '~/lib/stats';

/** Home section 3: the organisation's figures (spec §9, changed in Site settings), each counting up once when seen. */
export function StatsStrip({ stats }: { stats: readonly Stat[] }) {
  const { t, english } = useI18n();
  return (
    <section aria-labelledby="stats-title" className="bg-indigo-900 text-white">
      <div className="mx-auto max-w-7xl px-4 py-14">
        <h2 id="stats-title" className="text-center text-sm font-semibold tracking-widest text-amber-300 uppercase">
          {t('home.impact')}
        </h2>
        <dl className="mt-8 grid grid-cols-1 gap-x-6 gap-y-10 text-center min-[22.5rem]:grid-cols-2 lg:grid-cols-4">
          {stats.map((stat, i) => (
            <div key={i} className="flex flex-col-reverse items-center justify-end gap-2">
              <dt lang={english} className="text-base font-medium text-indigo-100">
                {stat.label}
              </dt>
              <dd>
                <CountUp
                  id={`stat-${i}-${stat.label}`}
                  target={stat.number}
                  suffix={stat.suffix}
                  className="text-4xl font-extrabold md:text-5xl"
                />
              </dd>
            </div>
          ))}
        </dl>
      </div>
    </section>
  );
}
