import { sql, type Kysely } from 'kysely';
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';
import type { Engine } from './db.server.ts';
import m0001 from './migrations/0001_initial.ts';
import m0002 from './migrations/0002_content_list_indexes.ts';
import m0003 from './migrations/0003_search_by_row_number.ts';
import m0004 from './migrations/0004_jobs_and_limits.ts';
import m0005 from './migrations/0005_sanitise_stored_bodies.ts';
import m0006 from './migrations/0006_dashboard_runs_the_site.ts';
import m0007 from './migrations/0007_newsletter_double_opt_in.ts';
import m0008 from './migrations/0008_editorial_states.ts';
import m0009 from './migrations/0009_revisions.ts';
import m0010 from './migrations/0010_sign_language_video.ts';
import m0011 from './migrations/0011_services_video.ts';
import m0012 from './migrations/0012_two_factor.ts';
import m0013 from './migrations/0013_applications.ts';
import m0014 from './migrations/0014_events.ts';
import m0015 from './migrations/0015_analytics.ts';
import m0016 from './migrations/0016_languages_and_easy_read.ts';
import m0017 from './migrations/0017_interface_texts.ts';
import m0018 from './migrations/0018_search_per_language.ts';
import m0019 from './migrations/0019_public_lists_by_language.ts';
import m0020 from './migrations/0020_search_scope.ts';
import m0021 from './migrations/0021_search_prefix_index.ts';
import m0022 from './migrations/0022_registration_phone_key.ts';
import m0023 from './migrations/0023_visitor_language.ts';
import m0024 from './migrations/0024_event_versions.ts';

// One set of migrations for both engines, one file each in ./migrations (issue 23): a migration is
// history, so each file stands alone, with what it needs copied in (./migrations/frozen.ts holds the
// few helpers they share, never changed). Dialect differences (full-text search) are branched on
// `engine` inside a migration, never in separate files. A new migration is a new file, listed here.

function migrations(engine: Engine): Record<string, Migration> {
  return {
    '0001_initial': m0001(engine),
    '0002_content_list_indexes': m0002(),
    '0003_search_by_row_number': m0003(engine),
    '0004_jobs_and_limits': m0004(),
    '0005_sanitise_stored_bodies': m0005(),
    '0006_dashboard_runs_the_site': m0006(),
    '0007_newsletter_double_opt_in': m0007(),
    '0008_editorial_states': m0008(),
    '0009_revisions': m0009(),
    '0010_sign_language_video': m0010(),
    '0011_services_video': m0011(),
    '0012_two_factor': m0012(),
    '0013_applications': m0013(),
    '0014_events': m0014(),
    '0015_analytics': m0015(),
    '0016_languages_and_easy_read': m0016(),
    '0017_interface_texts': m0017(),
    '0018_search_per_language': m0018(engine),
    '0019_public_lists_by_language': m0019(),
    '0020_search_scope': m0020(engine),
    '0021_search_prefix_index': m0021(engine),
    '0022_registration_phone_key': m0022(),
    '0023_visitor_language': m0023(),
    '0024_event_versions': m0024(),
  };
}

export async function createMigrator(db: Kysely<any>, engine: Engine): Promise<Migrator> {
  const provider: MigrationProvider = { getMigrations: async () => migrations(engine) };
  if (engine === 'sqlite') return new Migrator({ db, provider });
  // Kysely looks for its bookkeeping tables in every schema unless told which one is ours: name the
  // current schema, so another schema's tables on the same server are never mistaken for ours.
  const { rows } = await sql<{ schema: string }>`SELECT current_schema() AS schema`.execute(db);
  return new Migrator({ db, provider, migrationTableSchema: rows[0]!.schema });
}

/** Applies every pending migration; throws with the failing migration's name. */
export async function migrateToLatest(db: Kysely<any>, engine: Engine): Promise<string[]> {
  const { error, results } = await (await createMigrator(db, engine)).migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Names of every migration this code knows, in order. */
export function migrationNames(engine: Engine): string[] {
  return Object.keys(migrations(engine)).sort();
}
