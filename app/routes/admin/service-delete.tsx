import type { Route } from './+types/service-delete';

// Issue 11: being built.
export function loader(_: Route.LoaderArgs) {
  return null;
}

export function action(_: Route.ActionArgs) {
  return null;
}

export default function Screen() {
  return <h1 className="text-2xl font-bold text-slate-900">Being built</h1>;
}
