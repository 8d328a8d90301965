import pg from "pg";

/**
 * Throw-away PostgreSQL databases for the test suites, the e2e server and the benchmarks: each
 * creates its own on the server of an admin URL (any database there, e.g. .../postgres) and
 * drops it afterwards.
 */
export async function withAdminClient<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The URL of database `name` on the server of `adminUrl`. */
export function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Creates database `name` (optionally as a copy of `template`) and returns its URL. */
export async function createDatabase(adminUrl: string, name: string, { template }: { template?: string } = {}): Promise<string> {
  await withAdminClient(adminUrl, (client) =>
    client.query(template ? `CREATE DATABASE "${name}" TEMPLATE "${template}"` : `CREATE DATABASE "${name}"`),
  );
  return databaseUrl(adminUrl, name);
}

/** Drops database `name`, closing whatever connections remain. */
export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  await withAdminClient(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}
