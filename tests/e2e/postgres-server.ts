import { E2E } from './env.ts';
import { freshPostgresSchema, postgresServerUrl } from './engines.ts';

// The `postgres` project's server: server.ts on an empty PostgreSQL schema of its own, so the
// journeys of both engines run side by side (playwright.config.ts starts it when TEST_DATABASE_URL is set).

const schema = E2E.postgres!.schema;
await freshPostgresSchema(schema);
process.env.DATABASE_URL = postgresServerUrl(schema);
await import('../../server.ts');
