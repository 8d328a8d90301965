import { afterAll, beforeAll, beforeEach, vi } from "vitest";
import type { Db } from "../../server/db/client";
import { createTestDatabase, type TestDatabase } from "./db";
import { startReceiver, type TestReceiver } from "./webhook-receiver";

/**
 * What a webhook engine test file runs in: a database of its own, real receivers closed when the
 * file ends, and the environment of these tests (receivers on 127.0.0.1 allowed, retries due at
 * once unless a test stubs WEBHOOK_RETRY_BASE_MS itself). Registers the file's hooks; call it at
 * the top level and read `db` inside the tests.
 */
export function webhookTestBed() {
  let testDb: TestDatabase | undefined;
  const receivers: TestReceiver[] = [];
  beforeAll(async () => {
    testDb = await createTestDatabase();
  });
  afterAll(async () => {
    await Promise.all(receivers.map((receiver) => receiver.close()));
    await testDb?.close();
  });
  beforeEach(() => {
    vi.stubEnv("WEBHOOK_ALLOW_PRIVATE_URLS", "true");
    vi.stubEnv("WEBHOOK_RETRY_BASE_MS", "0");
    return () => vi.unstubAllEnvs();
  });
  return {
    get db(): Db {
      if (!testDb) throw new Error("webhookTestBed: the database is opened in beforeAll");
      return testDb.db;
    },
    /** The database's PostgreSQL URL (undefined on PGlite), for tests that start processes on it. */
    get url(): string | undefined {
      return testDb?.url;
    },
    /** A real receiver on 127.0.0.1, closed with the file. */
    async receiver(...args: Parameters<typeof startReceiver>): Promise<TestReceiver> {
      const started = await startReceiver(...args);
      receivers.push(started);
      return started;
    },
  };
}
