// Where the PostgreSQL suites find their database, and whether they may skip. Outside CI, without
// AGENT_CONTRACTS_PG_URL, they are skipped with a loud reason; with CI or AGENT_CONTRACTS_REQUIRE_PG
// set they run and fail when the database is missing or unreachable.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const PG_URL = process.env.AGENT_CONTRACTS_PG_URL ?? '';
export const PG_REQUIRED = Boolean(process.env.CI || process.env.AGENT_CONTRACTS_REQUIRE_PG);
/** True when the PostgreSQL suites are skipped (never in CI). */
export const PG_SKIP = PG_URL === '' && !PG_REQUIRED;

if (PG_SKIP)
  process.stderr.write(
    '\n!! PostgreSQL suites SKIPPED: AGENT_CONTRACTS_PG_URL is unset. Run `export AGENT_CONTRACTS_PG_URL="$(bash .ci/postgres.sh)"` to run them (CI and AGENT_CONTRACTS_REQUIRE_PG=1 make this a failure).\n\n',
  );

/** The database URL, or a failure naming what to do when it is required but missing. */
export function requirePgUrl(): string {
  if (PG_URL === '')
    throw new Error(
      'AGENT_CONTRACTS_PG_URL is unset but CI or AGENT_CONTRACTS_REQUIRE_PG requires the PostgreSQL suites: start PostgreSQL with `bash .ci/postgres.sh` and export its URL',
    );
  return PG_URL;
}

/** A schema name no other test run uses. */
export const freshSchema = (label: string): string =>
  `ac_test_${label}_${process.pid}_${randomBytes(4).toString('hex')}`.toLowerCase().slice(0, 63);

/** Drops a test schema and everything in it. */
export async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: requirePgUrl() });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}
