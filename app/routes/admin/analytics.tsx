import { data, Form, Link, redirect, useNavigation } from 'react-router';
import { getStaff } from '~/server/http/staff-context.server';
import { analyticsReport, getAnalyticsRetention, setAnalyticsRetention } from '~/server/analytics/report.server';
import { flushAnalytics } from '~/server/analytics/counting.server';
import { parseForm } from '~/server/http/forms.server';
import { RuleError } from '~/server/platform/rule-error.server';
import { ruleResponse } from '~/server/http/rules.server';
import { flashCookie } from '~/server/http/flash.server';
import { clientIp } from '~/server/http/request-info.server';
import {
  ANALYTICS_RANGES,
  ANALYTICS_RETENTION,
  ANALYTICS_TEXT,
  analyticsRetentionSchema,
  percent,
  RANGE_LABELS,
  rangeOf,
  type TopRow,
} from '~/lib/analytics';
import { can } from '~/lib/permissions';
import { Field, inputClass } from '~/components/admin/form';
import { periodLabel, VisitsChart } from '~/components/admin/visits-chart';
import type { Route } from './+types/analytics';
import { dashboardMeta } from '~/lib/seo';

export const meta: Route.MetaFunction = () => dashboardMeta('Analytics');

export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = getStaff(context);
  const params = new URL(request.url).searchParams;
  const range = rangeOf(params);
  // What this process counted in the last few seconds is written first, so the screen is current.
  await flushAnalytics();
  const [report, retentionMonths] = await Promise.all([
    analyticsReport(staff, range),
    can(staff.role, 'analytics:all') ? getAnalyticsRetention() : Promise.resolve(null),
  ]);
  const exportQuery = new URLSearchParams({ range: report.range.range, from: report.range.from, to: report.range.to }).toString();
  return data(
    {
      report,
      retentionMonths,
      error: range.error ?? null,
      asked: { from: params.get('from') ?? '', to: params.get('to') ?? '' },
      exportQuery,
    },
    { status: range.error ? 400 : 200 },
  );
}

/** How long the daily counts are kept (ADMIN and above; audited). */
export async function action({ request, context }: Route.ActionArgs) {
  const actor = getStaff(context);
  const form = await parseForm(request, analyticsRetentionSchema, { maxBytes: 2_048 });
  if (!form.ok) {
    const message = form.refused ? form.formError : (form.fieldErrors.months ?? ANALYTICS_TEXT.retentionInvalid);
    return data({ ok: false, message }, { status: form.status, headers: form.headers });
  }
  try {
    const { to } = await setAnalyticsRetention(actor, form.values.months, clientIp(context));
    const back = new URL(request.url);
    return redirect(`${back.pathname}${back.search}`, {
      status: 303,
      headers: { 'Set-Cookie': flashCookie({ type: 'success', message: ANALYTICS_TEXT.retentionSaved(to), toast: true }) },
    });
  } catch (error) {
    if (error instanceof RuleError) return ruleResponse(error);
    throw error;
  }
}

const card = 'mt-8 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm';
const number = new Intl.NumberFormat('en-US');

function Table({ caption, columns, rows }: { caption: string; columns: string[]; rows: (string | React.ReactNode)[][] }) {
  return (
    <div
      role="region"
      aria-label={caption}
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling region must take focus (WCAG 2.1.1)
      tabIndex={0}
      className="relative mt-4 overflow-x-auto rounded-xl border border-slate-200 focus:ring-4 focus:ring-indigo-300 focus:outline-none"
    >
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-100 text-slate-800">
          <tr>
            {columns.map((column, i) => (
              <th key={column} scope="col" className={`px-4 py-2 ${i > 0 ? 'text-right' : ''}`}>
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr className="border-t border-slate-200">
              <td colSpan={columns.length} className="px-4 py-2 text-slate-700">
                Nothing counted in this period.
              </td>
            </tr>
          ) : (
            rows.map((cells, r) => (
              <tr key={r} className="border-t border-slate-200">
                {cells.map((cell, i) =>
                  i === 0 ? (
                    <th key={i} scope="row" className="px-4 py-2 font-medium break-words text-slate-900">
                      {cell}
                    </th>
                  ) : (
                    <td key={i} className="px-4 py-2 text-right text-slate-800 tabular-nums">
                      {cell}
                    </td>
                  ),
                )}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}

function topRows(rows: TopRow[]) {
  return rows.map((row) => [
    row.href ? (
      <Link to={row.href} className="text-indigo-800 underline">
        {row.label}
      </Link>
    ) : (
      row.label
    ),
    number.format(row.views),
    number.format(row.visits),
  ]);
}

function Section({ id, title, note, children }: { id: string; title: string; note?: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={id} className={card}>
      <h2 id={id} className="text-xl font-bold text-slate-900">
        {title}
      </h2>
      {note && <p className="mt-1 text-slate-700">{note}</p>}
      {children}
    </section>
  );
}

export default function Analytics({ loaderData, actionData }: Route.ComponentProps) {
  const { report, retentionMonths, error, asked, exportQuery } = loaderData;
  const site = report.scope === 'site';
  const periodWord = report.byMonth ? 'Month' : 'Day';
  return (
    <>
      <h1 className="text-2xl font-bold text-slate-900">Analytics</h1>
      <p className="mt-1 max-w-3xl text-slate-700">
        {site
          ? 'How many people read the site, counted without cookies: no one is followed from day to day, and staff, bots and visitors who ask not to be tracked are not counted.'
          : 'How many people read the stories you wrote, counted without cookies.'}{' '}
        Days are UTC; today’s figures are up to a few seconds old.
      </p>

      <Form method="get" className="mt-6 flex flex-wrap items-end gap-3" aria-label="Period">
        <div>
          <label htmlFor="range" className="block font-semibold text-slate-900">
            Period
          </label>
          <select
            id="range"
            name="range"
            defaultValue={error ? 'custom' : report.range.range}
            className={`${inputClass(false)} mt-1`}
          >
            {ANALYTICS_RANGES.map((range) => (
              <option key={range} value={range}>
                {RANGE_LABELS[range]}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="from" className="block font-semibold text-slate-900">
            From (custom)
          </label>
          <input
            id="from"
            name="from"
            type="date"
            defaultValue={error ? asked.from : report.range.from}
            aria-describedby={error ? 'range-error' : undefined}
            aria-invalid={error ? true : undefined}
            className={`${inputClass(!!error)} mt-1`}
          />
        </div>
        <div>
          <label htmlFor="to" className="block font-semibold text-slate-900">
            To (custom)
          </label>
          <input
            id="to"
            name="to"
            type="date"
            defaultValue={error ? asked.to : report.range.to}
            aria-describedby={error ? 'range-error' : undefined}
            aria-invalid={error ? true : undefined}
            className={`${inputClass(!!error)} mt-1`}
          />
        </div>
        <button
          type="submit"
          className="min-h-11 rounded-lg bg-indigo-800 px-5 py-2.5 font-semibold text-white hover:bg-indigo-900"
        >
          Show
        </button>
        <a
          href={`/admin/analytics/export?${exportQuery}`}
          className="inline-flex min-h-11 items-center rounded-lg border border-slate-300 px-4 font-semibold text-indigo-800 hover:bg-slate-50"
        >
          Download CSV
        </a>
      </Form>
      {error && (
        <p id="range-error" role="alert" className="mt-3 font-semibold text-red-800">
          {error} Showing the last 30 days.
        </p>
      )}

      <section aria-labelledby="over-time" className={card}>
        <h2 id="over-time" className="text-xl font-bold text-slate-900">
          Visits and visitors, {periodLabel(report.range.from)} {report.range.from.slice(0, 4)} to {periodLabel(report.range.to)}{' '}
          {report.range.to.slice(0, 4)}
        </h2>
        <dl className="mt-3 grid grid-cols-3 gap-4 text-center sm:max-w-lg">
          {(
            [
              ['Visits', report.totals.visits],
              ['Visitors', report.totals.visitors],
              ['Page views', report.totals.views],
            ] as const
          ).map(([label, value]) => (
            <div key={label} className="rounded-xl bg-slate-50 p-3">
              <dt className="text-sm text-slate-700">{label}</dt>
              <dd className="text-2xl font-bold text-slate-900" data-total={label}>
                {number.format(value)}
              </dd>
            </div>
          ))}
        </dl>
        <VisitsChart series={report.series} title={`Visits and visitors by ${periodWord.toLowerCase()}`} />
        <details className="mt-4" open>
          <summary className="cursor-pointer font-semibold text-indigo-800">The figures as a table</summary>
          <Table
            caption={`Visits, visitors and page views by ${periodWord.toLowerCase()}`}
            columns={[periodWord, 'Visits', 'Visitors', 'Page views']}
            rows={report.series.map((p) => [
              periodLabel(p.period) + (report.byMonth ? '' : ` ${p.period.slice(0, 4)}`),
              number.format(p.visits),
              number.format(p.visitors),
              number.format(p.views),
            ])}
          />
        </details>
        <p className="mt-3 text-sm text-slate-700">
          A visit starts when someone arrives from another site, a link or a bookmark; a visitor is one browser on one day (over a
          longer period, visitors are added up day by day).
        </p>
      </section>

      <Section id="top-items" title={site ? 'Top pages and stories' : 'Your stories'}>
        <Table
          caption={site ? 'Pages and stories by views' : 'Your stories by views'}
          columns={['Page', 'Views', 'Visits']}
          rows={topRows(report.topItems)}
        />
      </Section>

      {site && (
        <>
          <Section id="referrers" title="Where visitors came from" note="The site a visit came from, never the full address.">
            <Table
              caption="Referring sites"
              columns={['Site', 'Visits', 'Views']}
              rows={report.referrers.map((r) => [r.label, number.format(r.visits), number.format(r.views)])}
            />
          </Section>
          <Section id="campaigns" title="Campaign links" note="Links tagged with utm_source or utm_campaign.">
            <Table caption="Campaign tags" columns={['Tag', 'Views', 'Visits']} rows={topRows(report.campaigns)} />
          </Section>
          <div className="grid gap-x-8 lg:grid-cols-2">
            <Section id="languages" title="Languages">
              <Table caption="Views by language" columns={['Language', 'Views', 'Visits']} rows={topRows(report.languages)} />
            </Section>
            <Section id="devices" title="Devices">
              <Table caption="Views by device" columns={['Device', 'Views', 'Visits']} rows={topRows(report.devices)} />
            </Section>
          </div>
          <Section id="save-data" title="Data saver">
            <p className="mt-3 text-slate-800" data-save-data-share>
              {percent(report.saveData.on, report.saveData.on + report.saveData.off)} of page views asked to save data (
              {number.format(report.saveData.on)} of {number.format(report.saveData.on + report.saveData.off)}).
            </p>
          </Section>
        </>
      )}

      <Section
        id="video"
        title="Sign-language videos"
        note="Plays, and how many watched a quarter, half, three quarters and to the end."
      >
        <Table
          caption="Sign-language video plays and how far they got"
          columns={['Page', 'Plays', '25%', '50%', '75%', 'Finished', 'Finished share']}
          rows={report.video.map((v) => [
            v.href ? (
              <Link to={v.href} className="text-indigo-800 underline">
                {v.label}
              </Link>
            ) : (
              v.label
            ),
            number.format(v.plays),
            number.format(v.quarter),
            number.format(v.half),
            number.format(v.threeQuarters),
            number.format(v.completed),
            percent(v.completed, v.plays),
          ])}
        />
      </Section>

      <Section
        id="clicks"
        title="Feed and newsletter"
        note="Links followed from the RSS feeds and the newsletter (how many, never who)."
      >
        <Table
          caption="Links followed from the feeds and the newsletter"
          columns={['From', 'Clicks']}
          rows={[
            ['RSS feeds', number.format(report.clicks.rss)],
            ['Newsletter', number.format(report.clicks.newsletter)],
          ]}
        />
      </Section>

      {site && (
        <Section id="empty-searches" title="Searches that found nothing" note="What visitors looked for and did not find.">
          <Table
            caption="Searches with no result"
            columns={['Words', 'Times']}
            rows={report.emptySearches.map((r) => [r.label, number.format(r.views)])}
          />
        </Section>
      )}

      {retentionMonths !== null && (
        <RetentionForm months={retentionMonths} error={actionData && !actionData.ok ? actionData.message : undefined} />
      )}
    </>
  );
}

function RetentionForm({ months, error }: { months: number; error: string | undefined }) {
  const navigation = useNavigation();
  const saving = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'retention';
  return (
    <section aria-labelledby="retention-title" className={`${card} max-w-xl`}>
      <h2 id="retention-title" className="text-xl font-bold text-slate-900">
        How long counts are kept
      </h2>
      <p className="mt-2 text-slate-700">
        Daily counts older than this are deleted automatically. The daily hashes that count unique visitors are deleted after 48
        hours whatever this says.
      </p>
      <Form method="post" className="mt-4 flex flex-wrap items-end gap-3">
        <input type="hidden" name="intent" value="retention" />
        <div className="w-40">
          <Field
            id="months"
            label="Months"
            error={error}
            note={`${ANALYTICS_RETENTION.minMonths} to ${ANALYTICS_RETENTION.maxMonths}`}
          >
            {(control) => (
              <input
                {...control}
                name="months"
                type="number"
                inputMode="numeric"
                min={ANALYTICS_RETENTION.minMonths}
                max={ANALYTICS_RETENTION.maxMonths}
                step={1}
                required
                defaultValue={months}
                className={inputClass(!!error)}
              />
            )}
          </Field>
        </div>
        <button
          type="submit"
          disabled={saving}
          className="mb-6 min-h-11 rounded-lg bg-indigo-800 px-5 py-2.5 font-semibold text-white hover:bg-indigo-900 disabled:opacity-70"
        >
          {saving ? 'Saving...' : 'Save'}
        </button>
      </Form>
    </section>
  );
}
