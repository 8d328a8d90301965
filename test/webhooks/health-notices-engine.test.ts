import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import PostalMime from "postal-mime";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { mailDirectory } from "../../server/notifications/transport";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { runJobsUntilIdle } from "../helpers/jobs";
import { createEndpointFixture, drainWebhooks, recordTestEvent } from "../helpers/webhook-fixtures";
import { startReceiver, type TestReceiver } from "../helpers/webhook-receiver";

/**
 * End to end, through the delivery engine: a receiver that fails makes the engine record the
 * endpoint's state change and queue its `webhooks.endpoint-health` job, and the owner gets the
 * e-mail (docs/webhooks.md, "Health and warnings"). health-notices.test.ts covers the job
 * itself from the job row the engine writes.
 */
let testDb: TestDatabase;
let dataDir: string;
const receivers: TestReceiver[] = [];

beforeAll(async () => {
  testDb = await createTestDatabase();
  dataDir = await mkdtemp(path.join(os.tmpdir(), "health-engine-"));
  vi.stubEnv("DATA_DIR", dataDir);
  vi.stubEnv("APP_URL", "https://monitor.example");
  vi.stubEnv("SMTP_URL", "");
  vi.stubEnv("WEBHOOK_ALLOW_PRIVATE_URLS", "true");
  vi.stubEnv("WEBHOOK_RETRY_BASE_MS", "0");
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await Promise.all(receivers.map((receiver) => receiver.close()));
  await testDb?.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function partnerWithEndpoint(name: string, status: number) {
  const receiver = await startReceiver(() => ({ status, body: `answered ${status}` }));
  receivers.push(receiver);
  const { org, customer, endpointId } = await createEndpointFixture(testDb.db, receiver.url, {
    orgName: name,
    customer: { emails: ["a@acme.example"] },
    endpoint: { maxAttempts: 1 },
  });
  await testDb.db.partner.update({ where: { id: org.partner.id }, data: { contactEmail: `ops@${name.toLowerCase()}.example` } });
  return { org, customer, endpointId, receiver };
}

async function mailsOf(partnerId: string) {
  await runJobsUntilIdle(testDb.db);
  const messages = await testDb.db.notification.findMany({ where: { partnerId }, orderBy: { createdAt: "asc" } });
  const files = await readdir(mailDirectory()).catch(() => [] as string[]);
  return Promise.all(
    messages.map(async (message) => {
      const file = files.find((name) => name.endsWith(`-${message.id}.eml`));
      return { message, mail: file ? await PostalMime.parse(await readFile(path.join(mailDirectory(), file))) : undefined };
    }),
  );
}

describe("the delivery engine tells the endpoint's owner", () => {
  it("once when deliveries start failing, and once when the endpoint is disabled after failures in a row", async () => {
    const { org, customer, endpointId, receiver } = await partnerWithEndpoint("Failing", 500);
    await recordTestEvent(testDb.db, customer, "customer.created", {});
    await drainWebhooks(testDb.db);
    expect(receiver.requests).toHaveLength(1);

    const afterFirst = await mailsOf(org.partner.id);
    expect(afterFirst.map(({ message }) => [message.kind, message.recipient, message.status])).toEqual([
      ["webhook_failing", "ops@failing.example", "sent"],
    ]);
    expect(afterFirst[0]!.mail?.subject).toBe(`Webhook deliveries are failing: ${receiver.url}`);
    expect(afterFirst[0]!.mail?.text).toContain(endpointId);

    // More failures in the same run tell nothing new, until the endpoint is disabled.
    for (let event = 0; event < 25; event++) await recordTestEvent(testDb.db, customer, "customer.created", {});
    await drainWebhooks(testDb.db);
    const endpoint = await testDb.db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpointId } });
    expect(endpoint).toMatchObject({ enabled: false, disabledKind: "failing" });

    const all = await mailsOf(org.partner.id);
    expect(all.map(({ message }) => message.kind)).toEqual(["webhook_failing", "webhook_disabled"]);
    expect(all[1]!.mail?.subject).toBe(`Webhook endpoint disabled: ${receiver.url}`);
    expect(all[1]!.mail?.text).toContain(endpoint.disabledReason!);
  });

  it("once when a 410 Gone disables the endpoint (the disable says it all)", async () => {
    const { org, customer, endpointId, receiver } = await partnerWithEndpoint("Gone", 410);
    await recordTestEvent(testDb.db, customer, "customer.created", {});
    await drainWebhooks(testDb.db);
    expect(receiver.requests).toHaveLength(1);
    expect(await testDb.db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpointId } })).toMatchObject({
      enabled: false,
      disabledKind: "gone",
    });

    const mails = await mailsOf(org.partner.id);
    expect(mails.map(({ message }) => [message.kind, message.status])).toEqual([["webhook_disabled", "sent"]]);
    expect(mails[0]!.mail?.text).toContain("The receiver answered 410 Gone");
  });
});
