import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../server/db/client";
import { mapCustomerToPsaCompany, savePsaConnection } from "../../server/psa/connections";
import { runPsaSync } from "../../server/psa/jobs";
import { ticketKeyOf } from "../../server/psa/ticket-text";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTestOrg } from "../helpers/fixtures";
import { FakeConnectWise } from "../helpers/psa-fakes";
import { connectionIdOf, customerWithBreach } from "./support";

/**
 * The exactly-once claim against a real process death: a sync runs in a child process, the
 * stateful fake holds its create request (so the ticket's row and claim are committed and the
 * request is on the wire), the child is SIGKILLed there, and a second run reconciles by
 * searching for the ticket's key. Killed before the PSA made the ticket, or after it made it
 * with the answer never sent: exactly one ticket either way.
 */
const credentials = { companyId: "acme_msp", publicKey: "pub-key-1", privateKey: `priv-${randomUUID()}`, clientId: randomUUID() };
let testDb: TestDatabase;
let db: Db;
let psa: FakeConnectWise;
const savedEnv = { ...process.env };

beforeAll(async () => {
  testDb = await createTestDatabase();
  db = testDb.db;
  psa = await new FakeConnectWise(credentials).start();
  Object.assign(process.env, { WEBHOOK_ALLOW_PRIVATE_URLS: "true", WEBHOOK_RETRY_BASE_MS: "10" });
});
afterAll(async () => {
  process.env = savedEnv;
  await psa?.close();
  await testDb?.close();
});
afterEach(() => {
  expect(psa.violations).toEqual([]);
});

/** Runs the connection's sync in a child process and SIGKILLs it once the fake holds its create request. */
async function syncKilledWhileCreating(connectionId: string, hold: "before" | "after"): Promise<void> {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(import.meta.dirname, "support", "sync-child.ts")], {
    env: { ...process.env, PSA_DATABASE_URL: testDb.url, PSA_CONNECTION_ID: connectionId },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once("exit", (_code, signal) => resolve(signal)));
  const held = new Promise<void>((resolve) => psa.server.fail("POST /service/tickets", { hold, onHeld: resolve }));
  const finished = new Promise<void>((_, reject) =>
    child.stdout!.on("data", () => reject(new Error("the sync finished before it could be killed"))),
  );
  try {
    await Promise.race([held, finished]);
    child.kill("SIGKILL");
    expect(await exited).toBe("SIGKILL");
  } finally {
    child.kill("SIGKILL");
  }
}

describe("SIGKILL between recording and sending", () => {
  it.runIf(Boolean(process.env.TEST_DATABASE_URL)).each(["before", "after"] as const)(
    "killed while the PSA holds the create request (%s it made the ticket): the next run leaves exactly one ticket",
    { timeout: 120_000 },
    async (hold) => {
      const org = await createTestOrg(db, `Kill ${hold}`);
      await savePsaConnection(db, org.partner.id, { provider: "connectwise", site: psa.baseUrl, ...credentials, boardId: psa.boardId });
      const found = await customerWithBreach(db, org.partner.id);
      await mapCustomerToPsaCompany(db, org.partner.id, found.customerId, "250");
      const connectionId = await connectionIdOf(db, org.partner.id);
      const key = ticketKeyOf(found.instanceId, "");

      await syncKilledWhileCreating(connectionId, hold);
      const row = await db.psaTicket.findFirstOrThrow({ where: { ticketKey: key } });
      // What the dead process left: the row, its key and its claim, committed; no ticket id.
      expect(row).toMatchObject({ externalId: null, createAttempts: 1, mailboxesSent: found.emails });
      expect(row.claimedUntil!.getTime()).toBeGreaterThan(Date.now());
      expect(psa.ticketsWithKey(key)).toHaveLength(hold === "after" ? 1 : 0);

      // The dead run's lease and claim run out (the schedule does that in time); the next run reconciles.
      await db.psaConnection.update({ where: { id: connectionId }, data: { runLeaseUntil: null } });
      await db.psaTicket.update({ where: { id: row.id }, data: { claimedUntil: new Date(Date.now() - 1000) } });
      const searchesBefore = psa.server.count("GET /service/tickets");
      await runPsaSync(db, connectionId);
      await runPsaSync(db, connectionId);

      const tickets = psa.ticketsWithKey(key);
      expect(tickets).toHaveLength(1);
      expect(psa.server.count("GET /service/tickets") - searchesBefore).toBeGreaterThanOrEqual(1);
      expect(await db.psaTicket.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({
        externalId: String(tickets[0]!.id),
        createAttempts: 2,
        claimedUntil: null,
      });
    },
  );
});
