import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { getDb } from '../db/db.server.ts';
import { newId, nowIso } from './ids.server.ts';
import type { AuditAction } from '../../lib/audit.ts';

// The audit log (the spec leaves it unshown): who did what to whom, when and from where. Details never
// hold passwords, tokens or message bodies. The actions and their labels are in app/lib/audit.ts.

export interface AuditEntry {
  actor: string | null;
  action: AuditAction;
  target?: string | null;
  detail?: Record<string, unknown>;
  ip?: string | null;
}

export async function recordAudit(entry: AuditEntry, db: Kysely<Database> = getDb()): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      id: newId(),
      at: nowIso(),
      actor_email: entry.actor,
      action: entry.action,
      target: entry.target ?? null,
      detail: JSON.stringify(entry.detail ?? {}),
      ip: entry.ip ?? null,
    })
    .execute();
}

export interface AuditRow {
  id: string;
  at: string;
  actor: string | null;
  action: string;
  target: string | null;
  detail: Record<string, unknown>;
  ip: string | null;
}

/** Newest first, `limit` at a time; `before` pages back from a timestamp. */
export async function listAudit(options: { limit: number; before?: string | undefined }): Promise<AuditRow[]> {
  let query = getDb().selectFrom('audit_log').selectAll();
  if (options.before) query = query.where('at', '<', options.before);
  const rows = await query.orderBy('at', 'desc').orderBy('id', 'desc').limit(options.limit).execute();
  return rows.map((r) => ({
    id: r.id,
    at: r.at,
    actor: r.actor_email,
    action: r.action,
    target: r.target,
    detail: safeJson(r.detail),
    ip: r.ip,
  }));
}

function safeJson(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
