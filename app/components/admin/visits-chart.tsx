import type { SeriesPoint } from '~/lib/analytics';

// Issue 28: visits and visitors over time as an SVG drawn by the server with the page (no chart
// library reaches the browser: decision 029). The chart is one image with a text summary; the table
// below it on the Analytics screen holds every figure.

const WIDTH = 720;
const HEIGHT = 240;
const PAD = { top: 16, right: 16, bottom: 36, left: 48 };

/**
 * The top of the chart's scale: four equal whole steps of 1, 2 or 5 (2.5 from 25 up) times a power of
 * ten, so every tick is a whole count (a top of 5 gave ticks 1.25 and 3.75, shown as 1 and 4).
 */
export function niceMax(value: number): number {
  const raw = Math.max(1, value / 4);
  const power = 10 ** Math.floor(Math.log10(raw));
  const steps = power >= 10 ? [1, 2, 2.5, 5, 10] : [1, 2, 5, 10];
  return steps.find((step) => step * power >= raw)! * power * 4;
}

export function periodLabel(period: string): string {
  const [year, month, day] = period.split('-');
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const name = months[Number(month) - 1] ?? month;
  return day ? `${Number(day)} ${name}` : `${name} ${year}`;
}

export function VisitsChart({ series, title }: { series: SeriesPoint[]; title: string }) {
  const max = niceMax(Math.max(1, ...series.map((p) => Math.max(p.visits, p.visitors, p.views))));
  const innerW = WIDTH - PAD.left - PAD.right;
  const innerH = HEIGHT - PAD.top - PAD.bottom;
  const x = (i: number) => PAD.left + (series.length <= 1 ? innerW / 2 : (i / (series.length - 1)) * innerW);
  const y = (v: number) => PAD.top + innerH - (v / max) * innerH;
  const line = (key: 'views' | 'visits' | 'visitors') =>
    series.map((p, i) => `${x(i).toFixed(1)},${y(p[key]).toFixed(1)}`).join(' ');
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((f) => Math.round(max * f));
  const every = Math.max(1, Math.ceil(series.length / 8));
  const total = (key: 'views' | 'visits' | 'visitors') => series.reduce((sum, p) => sum + p[key], 0);
  const peak = series.reduce<SeriesPoint | undefined>((best, p) => (!best || p.views > best.views ? p : best), undefined);
  const summary = `${total('views')} views, ${total('visits')} visits and ${total('visitors')} visitors${
    peak && peak.views > 0 ? `; the busiest was ${periodLabel(peak.period)} with ${peak.views} views` : ''
  }. Every figure is in the table below.`;
  return (
    <figure className="mt-4">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby="visits-chart-title visits-chart-desc"
        className="h-auto w-full max-w-3xl"
        data-chart="visits"
      >
        <title id="visits-chart-title">{title}</title>
        <desc id="visits-chart-desc">{summary}</desc>
        {ticks.map((t) => (
          <g key={t}>
            <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(t)} y2={y(t)} stroke="#cbd5e1" strokeWidth={1} />
            <text x={PAD.left - 6} y={y(t) + 4} textAnchor="end" fontSize={12} fill="#334155">
              {t}
            </text>
          </g>
        ))}
        {series.map((p, i) =>
          i % every === 0 ? (
            <text key={p.period} x={x(i)} y={HEIGHT - 12} textAnchor="middle" fontSize={12} fill="#334155">
              {periodLabel(p.period)}
            </text>
          ) : null,
        )}
        <polyline points={line('views')} fill="none" stroke="#94a3b8" strokeWidth={2} strokeDasharray="2 4" />
        <polyline points={line('visits')} fill="none" stroke="#3730a3" strokeWidth={3} />
        <polyline points={line('visitors')} fill="none" stroke="#b45309" strokeWidth={3} strokeDasharray="8 4" />
      </svg>
      <figcaption className="mt-2 flex flex-wrap gap-4 text-sm text-slate-700">
        <span>
          <span aria-hidden="true" className="mr-1 inline-block h-1 w-6 bg-indigo-800 align-middle" />
          Visits
        </span>
        <span>
          <span aria-hidden="true" className="mr-1 inline-block h-1 w-6 border-t-4 border-dashed border-amber-700 align-middle" />
          Visitors
        </span>
        <span>
          <span aria-hidden="true" className="mr-1 inline-block h-1 w-6 border-t-2 border-dotted border-slate-400 align-middle" />
          Page views
        </span>
      </figcaption>
    </figure>
  );
}
