import { data, Link, redirect } from 'react-router';
import { z } from 'zod';
import { getStaff } from '~/server/http/staff-context.server';
import { createVersion } from '~/server/content/content-versions.server';
import { flashCookie } from '~/server/http/flash.server';
import { clientIp } from '~/server/http/request-info.server';
import { parseForm } from '~/server/http/forms.server';
import { RuleError } from '~/server/platform/rule-error.server';
import { VERSION_MESSAGES } from '~/lib/content-versions';
import { isPrefixedLanguage } from '~/lib/languages';
import type { Route } from './+types/content-version-new';
import { dashboardMeta } from '~/lib/seo';

// Issue 26, item 4: "Add Luganda version" / "Add Swahili version" on an English item's edit screen
// (docs/decisions/031-translated-content.md). A post only: the new draft version opens in its own
// edit screen; a refusal (unknown language, missing item, a version of a version, a second version
// in one language, no permission) is told with its status and changes nothing.

const versionSchema = z.object({ language: z.string().max(10) });

export const meta: Route.MetaFunction = () => dashboardMeta('Add a version in another language');

/** The panel posts here; an address typed in shows the way back (the page that also tells a refusal). */
export function loader() {
  return null;
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const actor = getStaff(context);
  const form = await parseForm(request, versionSchema, { maxBytes: 1_024 });
  if (!form.ok) {
    const message = form.refused ? form.formError : VERSION_MESSAGES.unknownLanguage;
    return data({ ok: false, message }, { status: form.status, headers: form.headers });
  }
  try {
    const version = await createVersion(actor, params.id, form.values.language, clientIp(context));
    const language = isPrefixedLanguage(version.language) ? version.language : 'lg';
    return redirect(`/admin/content/${encodeURIComponent(version.id)}/edit`, {
      status: 303,
      headers: { 'Set-Cookie': flashCookie({ type: 'success', message: VERSION_MESSAGES.created(language), toast: true }) },
    });
  } catch (error) {
    if (error instanceof RuleError) return data({ ok: false, message: error.message }, { status: error.status });
    throw error;
  }
}

function BackToItem({ id }: { id: string }) {
  return (
    <p className="mt-4">
      <Link to={`/admin/content/${encodeURIComponent(id)}/edit`} className="font-semibold text-indigo-900 underline">
        Back to the item
      </Link>
    </p>
  );
}

/** A refusal, told in the dashboard's frame with the way back (the panel is a plain form: no JavaScript needed). */
export default function ContentVersionRefused({ actionData, params }: Route.ComponentProps) {
  if (!actionData)
    return (
      <div className="max-w-2xl">
        <h1 className="text-xl font-bold text-slate-900">Add a version in another language</h1>
        <p className="mt-2 text-slate-800">Versions are added from the Languages panel of the item’s edit screen.</p>
        <BackToItem id={params.id} />
      </div>
    );
  return (
    <div role="alert" className="max-w-2xl rounded-lg border-l-4 border-red-700 bg-red-50 p-4 text-red-950">
      <h1 className="text-xl font-bold">The version was not added</h1>
      <p className="mt-2">{actionData.message}</p>
      <BackToItem id={params.id} />
    </div>
  );
}
