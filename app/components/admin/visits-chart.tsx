import type { SeriesPoint } from '~/lib/analytics';

// Issue 28: visits and visitors over time as an SVG drawn by the server with the page (no chart
// library reaches the browser: decision 029). The chart is one image with a text summary; the table
// below it on the Analytics screen holds every figure.

const WIDTH = 720;
/** The drawing for a phone's width, so its text stays near its 12 px there. */
const NARROW_WIDTH = 360;
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

/**
 * One drawing of the chart, `width` units wide, with at most `labels` dates along the bottom. The
 * Analytics screen has two: on a phone the wide one shrank its text to about 5 px, so a narrow one with
 * fewer dates is shown there instead (only one is ever displayed, so only one is read).
 */
function ChartDrawing(props: {
  series: SeriesPoint[];
  title: string;
  summary: string;
  width: number;
  labels: number;
  id: string;
  className: string;
}) {
  const { series, width, id } = props;
  const max = niceMax(Math.max(1, ...series.map((p) => Math.max(p.visits, p.visitors, p.views))));
  const innerW = width - PAD.left - PAD.right;
  const innerH = HEIGHT - PAD.top - PAD.bottom;
  const x = (i: number) => PAD.left + (series.length <= 1 ? innerW / 2 : (i / (series.length - 1)) * innerW);
  const y = (v: number) => PAD.top + innerH - (v / max) * innerH;
  const line = (key: 'views' | 'visits' | 'visitors') =>
    series.map((p, i) => `${x(i).toFixed(1)},${y(p[key]).toFixed(1)}`).join(' ');
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((f) => Math.round(max * f));
  const every = Math.max(1, Math.ceil(series.length / props.labels));
  return (
    <svg
      viewBox={`0 0 ${width} ${HEIGHT}`}
      role="img"
      aria-labelledby={`${id}-title ${id}-desc`}
      className={props.className}
      data-chart="visits"
    >
      <title id={`${id}-title`}>{props.title}</title>
      <desc id={`${id}-desc`}>{props.summary}</desc>
      {ticks.map((t) => (
        <g key={t}>
          <line x1={PAD.left} x2={width - PAD.right} y1={y(t)} y2={y(t)} stroke="#cbd5e1" strokeWidth={1} />
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
  );
}

export function VisitsChart({ series, title }: { series: SeriesPoint[]; title: string }) {
  const total = (key: 'views' | 'visits' | 'visitors') => series.reduce((sum, p) => sum + p[key], 0);
  const peak = series.reduce<SeriesPoint | undefined>((best, p) => (!best || p.views > best.views ? p : best), undefined);
  const summary = `${total('views')} views, ${total('visits')} visits and ${total('visitors')} visitors${
    peak && peak.views > 0 ? `; the busiest was ${periodLabel(peak.period)} with ${peak.views} views` : ''
  }. Every figure is in the table below.`;
  const drawing = { series, title, summary };
  return (
    <figure className="mt-4">
      <ChartDrawing {...drawing} width={NARROW_WIDTH} labels={4} id="visits-chart-narrow" className="h-auto w-full sm:hidden" />
      <ChartDrawing {...drawing} width={WIDTH} labels={8} id="visits-chart" className="hidden h-auto w-full max-w-3xl sm:block" />
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
