import { afterAll, beforeAll } from "vitest";
import { appRouter } from "../../server/api/root";
import { createRestDispatcher } from "../../server/api/rest/dispatcher";
import type { Db } from "../../server/db/client";
import { createTestDatabase, type TestDatabase } from "./db";
import { apiClient, serveRestOnLoopback } from "./http";

/** The service's REST API over real HTTP on 127.0.0.1 (as the production server serves it), backed by the given database. */
export async function startRestServer(db: Db) {
  const server = await serveRestOnLoopback(createRestDispatcher({ router: appRouter, getDb: () => db }));
  return { ...server, api: apiClient(server.baseUrl) };
}

export type RestServer = Awaited<ReturnType<typeof startRestServer>>;

/**
 * What a REST API test file runs in: a database of its own and the REST API served on it over
 * real HTTP, both closed when the file ends. Registers the file's beforeAll and afterAll; call it
 * at the top level before the file's own hooks (which then find both open), and read
 * `testDb.db` and `server.api` inside hooks and tests.
 */
export function restTestBed(): { testDb: Pick<TestDatabase, "db" | "url">; server: Pick<RestServer, "api" | "baseUrl"> } {
  let testDb: TestDatabase | undefined;
  let server: RestServer | undefined;
  beforeAll(async () => {
    testDb = await createTestDatabase();
    server = await startRestServer(testDb.db);
  });
  afterAll(async () => {
    await server?.close();
    await testDb?.close();
  });
  const opened = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("restTestBed: the database and the server are opened in beforeAll");
    return value;
  };
  return {
    testDb: {
      get db() {
        return opened(testDb).db;
      },
      get url() {
        return opened(testDb).url;
      },
    },
    server: {
      get api() {
        return opened(server).api;
      },
      get baseUrl() {
        return opened(server).baseUrl;
      },
    },
  };
}
