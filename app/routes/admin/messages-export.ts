import type { Route } from './+types/messages-export';

// Issue 11: being built.
export function loader(_: Route.LoaderArgs) {
  return new Response('', { status: 404 });
}
