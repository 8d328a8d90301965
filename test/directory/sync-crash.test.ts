import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../server/db/client";
import { connectDirectory } from "../../server/directory/connections";
import { syncDirectory } from "../../server/directory/sync";
import { createBreachTestCustomer } from "../helpers/breach-fixtures";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTestOrg } from "../helpers/fixtures";
import { startMicrosoftCloud } from "../helpers/microsoft-graph";

const credentials = { tenantId: randomUUID(), clientId: randomUUID(), clientSecret: `secret-${randomUUID()}` };
let testDb: TestDatabase;
let db: Db;
let cloud: Awaited<ReturnType<typeof startMicrosoftCloud>>;
const savedEnv = { ...process.env };

beforeAll(async () => {
  testDb = await createTestDatabase();
  db = testDb.db;
  cloud = await startMicrosoftCloud(credentials);
  Object.assign(process.env, cloud.env);
});
afterAll(async () => {
  process.env = savedEnv;
  await cloud?.close();
  await testDb?.close();
});

interface Place {
  phase?: string | null;
  cursor?: string | null;
  dirty?: number;
  done?: boolean;
}

/** Runs a sync in a child process and SIGKILLs it once its printed place satisfies `killWhen`. */
async function syncInChildUntil(connectionId: string, killWhen: (place: Place) => boolean): Promise<Place> {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(import.meta.dirname, "support", "sync-child.ts")], {
    env: { ...process.env, SYNC_DATABASE_URL: testDb.url, SYNC_CONNECTION_ID: connectionId },
    stdio: ["ignore", "pipe", "inherit"],
  });
  try {
    return await new Promise<Place>((resolve, reject) => {
      let buffered = "";
      child.stdout!.on("data", (chunk: Buffer) => {
        buffered += chunk.toString();
        const lines = buffered.split("\n");
        buffered = lines.pop()!;
        for (const line of lines) {
          const place = JSON.parse(line) as Place;
          if (place.done) reject(new Error("the sync finished before it could be killed"));
          if (killWhen(place)) {
            child.kill("SIGKILL");
            resolve(place);
          }
        }
      });
      child.once("exit", (code, signal) => signal !== "SIGKILL" && reject(new Error(`sync child exited (${code})`)));
    });
  } finally {
    child.kill("SIGKILL");
    if (child.exitCode === null && child.signalCode === null) await new Promise((resolve) => child.once("exit", resolve));
  }
}

describe("a directory sync killed by SIGKILL", () => {
  it.runIf(Boolean(process.env.TEST_DATABASE_URL))(
    "resumes where its last commit left it: no asset or event twice, no removal lost",
    { timeout: 180_000 },
    async () => {
      const org = await createTestOrg(db, "Crash");
      const customerId = (await createBreachTestCustomer(db, org.partner.id, { status: "active" })).id;
      const leaving = Array.from({ length: 40 }, (_, i) => ({ id: randomUUID(), mail: `leaving${i}@crash.example` }));
      for (const user of leaving) cloud.tenant.upsertUser({ ...user, proxyAddresses: [`SMTP:${user.mail}`] });
      await connectDirectory(db, org.partner.id, customerId, { provider: "microsoft365", ...credentials });
      const { id: connectionId } = await db.directoryConnection.findUniqueOrThrow({ where: { customerId } });
      expect(await syncDirectory(db, connectionId)).toMatchObject({ status: "ok", added: 40 });

      // 40 users leave and 40 join; the delta comes in pages of 5.
      const joining = Array.from({ length: 40 }, (_, i) => ({ id: randomUUID(), mail: `joining${i}@crash.example` }));
      for (const user of leaving) cloud.tenant.upsertUser({ id: user.id, accountEnabled: false });
      for (const user of joining) cloud.tenant.upsertUser({ ...user, proxyAddresses: [`SMTP:${user.mail}`] });
      cloud.tenant.pageSize = 5;

      // Killed while reading the delta's pages, then again halfway through applying the users.
      const inUsers = await syncInChildUntil(connectionId, (place) => place.phase === "users" && Boolean(place.cursor));
      expect(inUsers.phase).toBe("users");
      const inApply = await syncInChildUntil(connectionId, (place) => place.phase === "apply" && place.dirty! > 0 && place.dirty! < 70);
      expect(inApply.phase).toBe("apply");
      const left = await db.directoryConnection.findUniqueOrThrow({ where: { id: connectionId } });
      expect(left.runPhase).toBe("apply");
      expect(left.state).toBe("syncing");

      await new Promise((resolve) => setTimeout(resolve, 600)); // the dead run's lease runs out
      expect(await syncDirectory(db, connectionId)).toMatchObject({ status: "ok" });

      const assets = await db.monitoredAsset.findMany({ where: { customerId, kind: "email" }, select: { value: true, active: true } });
      expect(assets).toHaveLength(80);
      expect(
        assets
          .filter((asset) => asset.active)
          .map((asset) => asset.value)
          .sort(),
      ).toEqual(joining.map((user) => user.mail).sort());
      const events = await db.outboxEvent.findMany({
        where: { customerId, type: { in: ["customer.asset.added", "customer.asset.removed"] } },
        select: { type: true, payload: true },
      });
      const announced = (type: string) =>
        events
          .filter((event) => event.type === type)
          .flatMap((event) => (event.payload as { assets: Array<{ value: string }> }).assets.map((asset) => asset.value))
          .sort();
      expect(announced("customer.asset.added")).toEqual([...leaving, ...joining].map((user) => user.mail).sort());
      expect(announced("customer.asset.removed")).toEqual(leaving.map((user) => user.mail).sort());
      const finished = await db.directoryConnection.findUniqueOrThrow({ where: { id: connectionId } });
      expect(finished).toMatchObject({ state: "ok", runId: null, runPhase: null });
      expect(await db.directoryUser.count({ where: { connectionId, dirty: true } })).toBe(0);
    },
  );
});
