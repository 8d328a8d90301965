import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import type { DemoCredentials, ServiceProcess } from "../../scripts/lib/service-process";
import { startReceiver, type TestReceiver } from "../../test/helpers/webhook-receiver";
import {
  call,
  createCustomerCreatedEndpoint,
  distributorHeaders,
  eventOf,
  eventually,
  onboardCustomer,
  partnerHeaders,
  requirePostgres,
  scratchDatabase,
  sql,
  startSeededServer,
  startServer,
  stopServersLeftRunning,
  terminate,
} from "./support";

/**
 * Scale-out shown (docs/operations.md, "Replicas"): two production server processes, started at
 * the same moment on one empty PostgreSQL database, share it as replicas behind a load balancer
 * would. PostgreSQL only: the embedded database belongs to one process.
 */
test.describe.configure({ timeout: 300_000 });
test.afterEach(stopServersLeftRunning);

/** The job each schedule queues per slot (server/startup/housekeeping.ts, server/findings/jobs.ts, ...). */
const SCHEDULED_JOB_KINDS: Record<string, string> = {
  housekeeping: "housekeeping",
  "daily-scan": "breaches.daily-scan",
  "webhook-retention": "webhooks.retention",
  "portal-cleanup": "portal.cleanup",
  "monthly-report": "notifications.monthly-reports",
  "catalogue-sync": "breaches.sync-catalogue",
  "domain-dns-recheck": "domains.recheck-dns",
  "directory-sync": "directory.sync-due",
  "psa-sync": "psa.sync-all",
  "alert-digest": "notifications.alert-digests",
  "channel-digest": "webhooks.channel-digests",
};

/** The schedules whose current slot is open now (their hours in UTC, as defined with each schedule). */
function schedulesDueNow(now = new Date()): string[] {
  const hour = now.getUTCHours();
  const due = ["domain-dns-recheck", "directory-sync", "psa-sync"]; // every hour
  if (hour >= 1) due.push("catalogue-sync");
  if (hour >= 2) due.push("daily-scan");
  if (hour >= 3) due.push("housekeeping", "webhook-retention", "portal-cleanup");
  if (hour >= 7) due.push("alert-digest", "channel-digest");
  if (now.getUTCDate() > 1 || hour >= 6) due.push("monthly-report");
  return due.sort();
}

/** The schedules a server's log says it started ("schedules started"). */
function schedulesStartedBy(logFile: string): string[] {
  return readFileSync(logFile, "utf8")
    .split("\n")
    .filter((line) => line.includes('"message":"schedules started"'))
    .flatMap((line) => (JSON.parse(line) as { schedules: string[] }).schedules);
}

test("two server processes on one PostgreSQL database act as one service", async () => {
  requirePostgres();
  const database = await scratchDatabase("scale_out");
  let receiver: TestReceiver | undefined;
  try {
    receiver = await startReceiver();
    // Both start at once on the empty database: each migrates under the advisory lock (one applies, the other finds nothing left).
    const [a, b] = await Promise.all([startSeededServer("replica-a", 3241, database.url), startServer("replica-b", 3242, database.url)]);
    const demo: DemoCredentials = a.demo;
    const replicas: Array<ServiceProcess<unknown>> = [a, b];

    await test.step("the migrations were applied once", async () => {
      const applied = await sql<{ migration_name: string; finished: boolean }>(
        database.url,
        "SELECT migration_name, finished_at IS NOT NULL AS finished FROM _prisma_migrations WHERE rolled_back_at IS NULL",
      );
      const folders = readdirSync(path.resolve("prisma/migrations"), { withFileTypes: true }).filter((entry) => entry.isDirectory());
      expect(applied.map((row) => row.migration_name).sort()).toEqual(folders.map((entry) => entry.name).sort());
      expect(applied.every((row) => row.finished)).toBe(true);
    });

    const endpointId = await createCustomerCreatedEndpoint(a.baseUrl, demo, receiver.url);
    const onboarded: Array<{ id: string; reference: string; through: number }> = [];

    await test.step("a customer onboarded through one process is visible through the other at once", async () => {
      for (const [through, other] of [
        [0, 1],
        [1, 0],
      ] as const) {
        const reference = `REPLICA-${through}-VISIBLE`;
        const id = await onboardCustomer(replicas[through]!.baseUrl, demo, reference);
        onboarded.push({ id, reference, through });
        const info = await call(replicas[other]!.baseUrl, "GET", `/api/v1/integrations/customer/${id}/info`, partnerHeaders(demo));
        expect(info.status, JSON.stringify(info.body)).toBe(200);
        expect(info.body).toMatchObject({ success: true, companyName: `Company ${reference}` });
      }
    });

    await test.step("each event is delivered exactly once", async () => {
      const more = await Promise.all(
        Array.from({ length: 24 }, async (_, n) => {
          const reference = `REPLICA-${n % 2}-${n}`;
          return { id: await onboardCustomer(replicas[n % 2]!.baseUrl, demo, reference), reference, through: n % 2 };
        }),
      );
      onboarded.push(...more);
      const expected = new Set(onboarded.map((customer) => customer.id));
      const customersSeen = () => new Set(receiver!.requests.map((request) => eventOf(request).data.customer?.uuid));
      await eventually("every customer.created event at the receiver", async () =>
        [...expected].every((id) => customersSeen().has(id)) ? true : undefined,
      );
      await new Promise((resolve) => setTimeout(resolve, 3_000)); // a second delivery by the other process would arrive by now

      const tokens = receiver!.requests.map((request) => eventOf(request).idempotencyToken);
      expect(tokens).toHaveLength(expected.size);
      expect(new Set(tokens).size).toBe(expected.size);
      const deliveries = await sql<{ status: string; attempt_count: number; idempotency_token: string }>(
        database.url,
        "SELECT status, attempt_count, idempotency_token::text FROM webhook_deliveries WHERE endpoint_id = $1::uuid",
        [endpointId],
      );
      expect(deliveries).toHaveLength(expected.size);
      expect(deliveries.every((delivery) => delivery.status === "delivered" && delivery.attempt_count === 1)).toBe(true);
      expect(new Set(deliveries.map((delivery) => delivery.idempotency_token))).toEqual(new Set(tokens));
    });

    await test.step("each schedule slot runs once", async () => {
      const slots = await sql<{ name: string; slot: string; jobs: number; succeeded: number }>(
        database.url,
        `SELECT r.name, r.slot,
                (SELECT count(*)::int FROM jobs j WHERE j.kind = k.kind AND j.payload->>'slot' = r.slot) AS jobs,
                (SELECT count(*)::int FROM jobs j WHERE j.kind = k.kind AND j.payload->>'slot' = r.slot AND j.status = 'succeeded' AND j.attempts = 1) AS succeeded
         FROM scheduled_runs r JOIN (SELECT * FROM jsonb_each_text($1::jsonb)) AS k(name, kind) ON k.name = r.name`,
        [JSON.stringify(SCHEDULED_JOB_KINDS)],
      );
      expect(slots.map((slot) => slot.name).sort()).toEqual(schedulesDueNow());
      for (const slot of slots) expect(slot, `${slot.name} ${slot.slot}`).toMatchObject({ jobs: 1, succeeded: 1 });
      // Both processes reached every slot (each checks at its start); each slot was started by one of them.
      const startedByA = schedulesStartedBy(path.resolve("e2e/artifacts/operations/replica-a.log"));
      const startedByB = schedulesStartedBy(path.resolve("e2e/artifacts/operations/replica-b.log"));
      expect([...startedByA, ...startedByB].sort()).toEqual(schedulesDueNow());
    });

    await test.step("an API key revoked through one process is refused by the other within a second", async () => {
      const issued = await call(a.baseUrl, "POST", `/api/v1/distributors/partners/${demo.partnerId}/api-keys`, distributorHeaders(demo));
      expect(issued.status, JSON.stringify(issued.body)).toBe(200);
      const { id: keyId, apiKey } = issued.body.data as { id: string; apiKey: string };
      const withKey = { "SW-PARTNER-ID": demo.partnerId, "SW-API-KEY": apiKey };
      const plansThroughB = () => call(b.baseUrl, "GET", "/api/v1/integrations/partner/plans", withKey);
      expect((await plansThroughB()).status).toBe(200); // now verified and cached by process B (for 30 s)
      expect((await plansThroughB()).status).toBe(200);

      const revoked = await call(
        a.baseUrl,
        "DELETE",
        `/api/v1/distributors/partners/${demo.partnerId}/api-keys/${keyId}`,
        distributorHeaders(demo),
      );
      expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);
      const revokedAt = Date.now();
      await eventually(
        "process B refusing the revoked key",
        async () => ((await plansThroughB()).status === 401 ? true : undefined),
        5_000,
      );
      expect(Date.now() - revokedAt).toBeLessThan(1_000);
      expect((await call(b.baseUrl, "GET", "/api/v1/integrations/partner/plans", partnerHeaders(demo))).status).toBe(200);
    });

    for (const replica of replicas) expect((await terminate(replica)).code).toBe(0);
  } finally {
    await stopServersLeftRunning();
    await receiver?.close();
    await database.drop();
  }
});
