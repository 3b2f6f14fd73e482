import { csvDownload } from '~/server/http/dashboard-list.server';
import { subscriberList } from '~/server/newsletter/newsletter-subscribers.server';
import type { Route } from './+types/subscribers-export';

/**
 * The list's subscribers (its search and status filter apply) as CSV for a spreadsheet: UTF-8 with a
 * BOM for Excel, streamed a page at a time however many there are, formula-like cells neutralised,
 * never cached.
 */
export function loader({ request, context }: Route.LoaderArgs) {
  return csvDownload(subscriberList, request, context);
}
