import { csvDownload } from '~/server/http/dashboard-list.server';
import { messageList } from '~/server/inbox/messages.server';
import type { Route } from './+types/messages-export';

/**
 * The list's messages (its search and status filter apply) as CSV for a spreadsheet: UTF-8 with a
 * BOM for Excel, streamed a page at a time, formula-like cells neutralised, never cached.
 */
export function loader({ request, context }: Route.LoaderArgs) {
  return csvDownload(messageList, request, context);
}
