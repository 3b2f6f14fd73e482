import { data, Form, Link, redirect, useNavigation } from 'react-router';
import { z } from 'zod';
import { getStaff } from '~/server/http/staff-context.server';
import {
  DEMO_KINDS,
  DEMO_MESSAGES,
  demoRemovedMessage,
  demoTotal,
  removeDemoContent,
  summariseDemoContent,
  type DemoCounts,
} from '~/server/demo/demo.server';
import { parseForm } from '~/server/http/forms.server';
import { flashCookie } from '~/server/http/flash.server';
import { clientIp } from '~/server/http/request-info.server';
import { ROLE_INFO } from '~/lib/permissions';
import { formatDate } from '~/lib/format';
import { failureAnswer } from '~/server/http/rules.server';
import type { Route } from './+types/demo-content';
import { dashboardMeta } from '~/lib/seo';

export const meta: Route.MetaFunction = () => dashboardMeta('Remove demo content');

export async function loader() {
  const summary = await summariseDemoContent();
  // Each kind with something to remove, in words ('12 demo stories'); the staff are listed by name.
  const lines = DEMO_KINDS.filter(([key]) => key !== 'staff' && summary.counts[key] > 0).map(([key, one, many]) => {
    const n = summary.counts[key];
    const named = key === 'services' && summary.services.length > 0 ? `: ${summary.services.join(', ')}` : '';
    return `${n} demo ${n === 1 ? one : many}${named}`;
  });
  return { summary, lines };
}

const confirmSchema = z.object({
  confirm: z.literal('yes', { message: DEMO_MESSAGES.confirmRequired }),
});

/** SUPER_ADMIN only (demo:remove): removes every demo row in one transaction, then says what went. */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await parseForm(request, confirmSchema, { maxBytes: 2_000 });
  if (!form.ok) {
    const message = form.refused ? form.formError : DEMO_MESSAGES.confirmRequired;
    return data({ ok: false, message }, { status: form.status, headers: form.headers });
  }
  let counts: DemoCounts;
  try {
    counts = await removeDemoContent(getStaff(context), clientIp(context));
  } catch (error) {
    return failureAnswer(error, DEMO_MESSAGES.failed, 'removing the demo content failed');
  }
  const removed = demoTotal(counts) > 0;
  const message = demoRemovedMessage(counts);
  return redirect('/admin/demo-content', {
    status: 303,
    headers: { 'Set-Cookie': flashCookie({ type: removed ? 'success' : 'info', message }) },
  });
}

const panel = 'rounded-2xl border border-slate-200 bg-white p-6 shadow-sm md:p-8';

/** Remove demo content: what will go, named, then one confirmed action (spec §5's manner). */
export default function DemoContent({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const summary = loaderData.summary!;
  const removing = navigation.state === 'submitting';

  if (summary.total === 0) {
    return (
      <section aria-labelledby="demo-title" className={`${panel} max-w-3xl`}>
        <h1 id="demo-title" className="text-2xl font-bold text-slate-900">
          Remove demo content
        </h1>
        <p className="mt-3 text-slate-700">
          There is no demo content on this site. Everything it shows was written by your team.
        </p>
        <Link
          to="/admin/overview"
          className="mt-6 inline-block rounded-lg bg-indigo-800 px-5 py-2.5 font-semibold text-white hover:bg-indigo-900"
        >
          Back to Overview
        </Link>
      </section>
    );
  }

  const { staff, founder } = summary;
  return (
    <section aria-labelledby="demo-title" className={`${panel} max-w-3xl`}>
      <h1 id="demo-title" className="text-2xl font-bold text-slate-900">
        Remove demo content
      </h1>
      <p className="mt-3 text-slate-700">
        The site was started with example content so it did not look empty. Removing it takes away only what the first start
        added. Everything your team created or changed stays, including anything a demo author wrote later.
      </p>

      <h2 className="mt-6 text-lg font-bold text-slate-900">What will be removed</h2>
      <ul className="mt-2 list-disc space-y-1 pl-6 text-slate-800">
        {loaderData.lines.map((line) => (
          <li key={line}>{line}</li>
        ))}
        {staff.length > 0 && (
          <li>
            {staff.length} demo staff {staff.length === 1 ? 'account' : 'accounts'}, who will no longer be able to sign in:
            <ul aria-label="Demo staff accounts" className="mt-1 list-[circle] space-y-1 pl-6">
              {staff.map((member) => (
                <li key={member.email} className="break-words">
                  {member.name} ({member.email}), {ROLE_INFO[member.role].label},{' '}
                  {member.lastLogin ? `last signed in ${formatDate(member.lastLogin, 'short')}` : 'never signed in'}
                </li>
              ))}
            </ul>
          </li>
        )}
        <li>Their pictures, unless something your team made shows them too.</li>
      </ul>

      {founder && (
        <>
          <h2 className="mt-6 text-lg font-bold text-slate-900">The founder story</h2>
          <p className="mt-2 text-slate-800">
            {founder.accountIsDemo &&
              `The founder shown on the home and About pages, ${founder.name}, is a demo staff account: afterwards those pages show the founder words saved in Site settings, or else the built-in founder profile. `}
            {founder.storyIsDemo &&
              `The “Read ${founder.name}’s story” link points to a demo story: afterwards it leads to the founder’s newest story of their own, or else to the founder section of the About page.`}
          </p>
        </>
      )}

      <Form method="post" className="mt-8 space-y-4 rounded-xl border-2 border-red-200 bg-red-50 p-5">
        {actionData && !actionData.ok && (
          <p id="confirm-error" role="alert" className="font-medium text-red-900">
            {actionData.message}
          </p>
        )}
        <p className="font-semibold text-red-950">This action cannot be undone.</p>
        <div className="flex items-start gap-3">
          <input
            id="confirm"
            name="confirm"
            type="checkbox"
            value="yes"
            required
            aria-invalid={actionData && !actionData.ok ? true : undefined}
            aria-describedby={actionData && !actionData.ok ? 'confirm-error' : undefined}
            className="mt-1 h-5 w-5 shrink-0 accent-red-700"
          />
          <label htmlFor="confirm" className="text-slate-900">
            I understand that the demo content listed above will be removed for good.
          </label>
        </div>
        <button
          type="submit"
          disabled={removing}
          className="rounded-lg bg-red-700 px-5 py-2.5 font-semibold text-white hover:bg-red-800 disabled:bg-slate-400 disabled:text-slate-900"
        >
          {removing ? 'Removing...' : 'Remove demo content'}
        </button>
        <Link to="/admin/overview" className="ml-3 font-semibold text-indigo-800 underline underline-offset-4">
          Cancel
        </Link>
      </Form>
    </section>
  );
}
