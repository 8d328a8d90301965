import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import PostalMime, { type Email } from "postal-mime";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { legacySurface, distributorSurface, partnerSurface } from "../../server/api/procedures/webhooks/surfaces";
import { createStaffUser } from "../../server/auth/staff";
import { closeMailTransports, mailDirectory } from "../../server/notifications/transport";
import { createEndpoint, type Protocol } from "../../server/webhooks/endpoints";
import { ENDPOINT_HEALTH_JOB } from "../../server/webhooks/delivery-engine/outcomes";
import { endpointApiPath } from "../../server/webhooks/api-paths";
import { queueEndpointHealthNotice } from "../../server/webhooks/health-notices";
import type { WebhookOwner } from "../../server/webhooks/owner";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { quietly, runJobsUntilIdle } from "../helpers/jobs";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp";
import { uiCallerAs, createStaffSession } from "../helpers/ui";

let testDb: TestDatabase;
let dataDir: string;

beforeAll(async () => {
  testDb = await createTestDatabase();
  dataDir = await mkdtemp(path.join(os.tmpdir(), "health-notices-"));
  vi.stubEnv("DATA_DIR", dataDir);
  vi.stubEnv("APP_URL", "https://monitor.example");
  vi.stubEnv("SMTP_URL", "");
  vi.stubEnv("MAIL_FROM", "");
  // Endpoints point at a closed port on 127.0.0.1: nothing here sends to them.
  vi.stubEnv("WEBHOOK_ALLOW_PRIVATE_URLS", "true");
});
afterAll(async () => {
  vi.unstubAllEnvs();
  closeMailTransports();
  await testDb?.close();
  await rm(dataDir, { recursive: true, force: true });
});

const HOUR = 3_600_000;

async function endpointOf(owner: WebhookOwner, protocol: Protocol = "current") {
  const { endpoint } = await createEndpoint(testDb.db, owner, protocol, {
    url: "http://127.0.0.1:9/hook",
    eventTypes: protocol === "current" ? ["customer.created"] : ["breach.new"],
  });
  return endpoint.id;
}

/** A non-test delivery of the endpoint that ended failed (what the engine records), created `createdAgoMs` ago. */
async function failedDelivery(endpointId: string, createdAgoMs: number, lastError: string, finishedAt = new Date()) {
  const createdAt = new Date(Date.now() - createdAgoMs);
  await testDb.db.webhookDelivery.create({
    data: {
      endpointId,
      idempotencyToken: crypto.randomUUID(),
      eventType: "customer.created",
      body: "{}",
      status: "failed",
      attemptCount: 3,
      maxAttempts: 3,
      lastError,
      createdAt,
      nextAttemptAt: createdAt,
      updatedAt: finishedAt,
    },
  });
}

/** The engine's side of the contract: the endpoint's health columns after a failed delivery, and its job row. */
async function markFailing(endpointId: string, { failures = 1, lastSuccessAt = null as Date | null, failingSince = new Date() } = {}) {
  await testDb.db.webhookEndpoint.update({
    where: { id: endpointId },
    data: { failingSince, consecutiveFailures: failures, lastSuccessAt },
  });
  return insertHealthJob(endpointId, "failing", failingSince);
}

async function markDisabled(endpointId: string, kind: "failing" | "gone", reason: string, disabledAt = new Date()) {
  await testDb.db.webhookEndpoint.update({
    where: { id: endpointId },
    data: { enabled: false, disabledKind: kind, disabledReason: reason, disabledAt, failingSince: disabledAt },
  });
  return insertHealthJob(endpointId, "disabled", disabledAt);
}

/** The job row exactly as the delivery engine writes it (the interface between the engine and the notices). */
async function insertHealthJob(endpointId: string, change: "failing" | "disabled", at: Date) {
  const payload = { endpointId, change, at: at.toISOString() };
  const [row] = await testDb.db.$queryRaw<Array<{ id: string }>>`
    INSERT INTO jobs (kind, payload, dedupe_key, updated_at)
    VALUES (${ENDPOINT_HEALTH_JOB}, ${JSON.stringify(payload)}::jsonb, ${`webhook-health:${endpointId}:${change}:${payload.at}`}, now())
    RETURNING id::text`;
  return { jobId: row!.id, payload };
}

/** The job ran again: what a process that died before recording the job's end leaves behind (its lease runs out). */
async function runJobAgain(jobId: string) {
  await testDb.db.$executeRaw`UPDATE jobs SET status = 'running', lease_until = now() - interval '1 second' WHERE id = ${jobId}::uuid`;
  await runJobsUntilIdle(testDb.db);
}

async function emlFiles(notificationId: string): Promise<Email[]> {
  const files = (await readdir(mailDirectory()).catch(() => [] as string[])).filter((file) => file.endsWith(`-${notificationId}.eml`));
  return Promise.all(files.map(async (file) => PostalMime.parse(await readFile(path.join(mailDirectory(), file)))));
}

const header = (mail: Email, name: string) => mail.headers.find((entry) => entry.key === name)?.value;

describe("a partner's endpoint that starts failing", () => {
  let org: TestOrg;
  let endpointId: string;

  beforeAll(async () => {
    org = await createTestOrg(testDb.db, "Failing");
    await testDb.db.partner.update({ where: { id: org.partner.id }, data: { contactEmail: "Ops@Northwind.example" } });
    endpointId = await endpointOf({ partnerId: org.partner.id });
  });

  it("sends its contact address one e-mail, written as an .eml file, however often the job runs", async () => {
    // The engine records the failed delivery and the endpoint's failing_since in one statement (one now()).
    const failingSince = new Date();
    await failedDelivery(endpointId, 2 * HOUR, "HTTP 500 from the receiver", failingSince);
    const lastSuccessAt = new Date(Date.now() - 3 * HOUR);
    const { jobId } = await markFailing(endpointId, { failures: 1, lastSuccessAt, failingSince });
    await runJobsUntilIdle(testDb.db);
    await runJobAgain(jobId);

    const messages = await testDb.db.notification.findMany({ where: { partnerId: org.partner.id } });
    expect(messages).toHaveLength(1);
    const message = messages[0]!;
    expect(message).toMatchObject({
      kind: "webhook_failing",
      customerId: null,
      distributorId: null,
      recipient: "ops@northwind.example",
      localeCode: "en-GB",
      status: "sent",
      attempts: 1,
      subject: "Webhook deliveries are failing: http://127.0.0.1:9/hook",
    });
    expect(await testDb.db.job.findUniqueOrThrow({ where: { id: jobId } })).toMatchObject({ status: "succeeded" });

    const [mail, ...others] = await emlFiles(message.id);
    expect(others).toEqual([]);
    expect(mail!.subject).toBe("Webhook deliveries are failing: http://127.0.0.1:9/hook");
    expect(mail!.to).toEqual([{ name: "", address: "ops@northwind.example" }]);
    expect(mail!.messageId).toBe(message.providerMessageId);
    // Operational: no unsubscribe link or header, no reply-to; marked as automatic.
    expect(header(mail!, "list-unsubscribe")).toBeUndefined();
    expect(header(mail!, "reply-to")).toBeUndefined();
    expect(header(mail!, "auto-submitted")).toBe("auto-generated");
    const text = mail!.text!;
    expect(text).not.toContain("unsubscribe?token=");
    for (const fact of [
      "Failing partner",
      "http://127.0.0.1:9/hook",
      endpointId,
      "HTTP 500 from the receiver",
      "Failed deliveries in a row: 1",
      `POST https://monitor.example/api/v1/integrations/webhooks/${endpointId}/recover`,
      // Recovery starts at the oldest delivery that failed in this run (created two hours ago).
      JSON.stringify({ since: (await testDb.db.webhookDelivery.findFirstOrThrow({ where: { endpointId } })).createdAt.toISOString() }),
      "After 20 failed deliveries in a row the endpoint is disabled",
    ]) {
      expect(text).toContain(fact);
    }
    expect(mail!.html).toContain("Your webhook endpoint is failing");
  });

  it("writes one message for concurrent runs of the same change", async () => {
    const other = await createTestOrg(testDb.db, "Concurrent");
    await testDb.db.partner.update({ where: { id: other.partner.id }, data: { contactEmail: "ops@concurrent.example" } });
    const id = await endpointOf({ partnerId: other.partner.id });
    const { payload } = await markFailing(id);
    const runs = await Promise.all([1, 2, 3].map(() => queueEndpointHealthNotice(testDb.db, payload)));
    expect(runs.flat()).toHaveLength(1);
    expect(await testDb.db.notification.count({ where: { partnerId: other.partner.id } })).toBe(1);
  });

  it("sends again for a later run of failures (a new state change)", async () => {
    const first = await testDb.db.notification.findFirstOrThrow({ where: { partnerId: org.partner.id } });
    await testDb.db.webhookEndpoint.update({
      where: { id: endpointId },
      data: { failingSince: null, consecutiveFailures: 0, lastSuccessAt: new Date() },
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    await markFailing(endpointId);
    await runJobsUntilIdle(testDb.db);
    const messages = await testDb.db.notification.findMany({ where: { partnerId: org.partner.id }, orderBy: { createdAt: "asc" } });
    expect(messages.map((message) => message.id)).toEqual([first.id, expect.any(String)]);
    expect(messages[1]!.cause).not.toBe(first.cause);
  });
});

describe("an endpoint disabled by the service", () => {
  let smtp: TestSmtpServer;

  beforeAll(async () => {
    smtp = await startSmtpServer();
  });
  afterAll(async () => {
    closeMailTransports();
    await smtp?.close();
  });

  it("a distributor's (410 Gone): each of its staff gets one e-mail, over SMTP, with the steps back", async () => {
    vi.stubEnv("SMTP_URL", smtp.url);
    const org = await createTestOrg(testDb.db, "Gone");
    for (const email of ["b-admin@gone.example", "a-admin@gone.example"]) {
      await createStaffUser(testDb.db, { distributorId: org.distributor.id, email, password: "a long staff password" });
    }
    const endpointId = await endpointOf({ distributorId: org.distributor.id });
    const disabledAt = new Date();
    await failedDelivery(endpointId, 60_000, "HTTP 410", disabledAt);
    const { jobId } = await markDisabled(endpointId, "gone", "The receiver answered 410 Gone", disabledAt);
    try {
      await runJobsUntilIdle(testDb.db);
      await runJobAgain(jobId);
    } finally {
      vi.stubEnv("SMTP_URL", "");
    }

    const messages = await testDb.db.notification.findMany({ where: { distributorId: org.distributor.id }, orderBy: { recipient: "asc" } });
    expect(messages.map((message) => [message.kind, message.recipient, message.status])).toEqual([
      ["webhook_disabled", "a-admin@gone.example", "sent"],
      ["webhook_disabled", "b-admin@gone.example", "sent"],
    ]);
    const received = [...smtp.to("a-admin@gone.example"), ...smtp.to("b-admin@gone.example")];
    expect(received).toHaveLength(2);
    const mail = received[0]!;
    expect(mail.parsed.subject).toBe("Webhook endpoint disabled: http://127.0.0.1:9/hook");
    expect(mail.header("list-unsubscribe")).toBeUndefined();
    const text = mail.parsed.text!;
    for (const fact of [
      "Gone distributor",
      "The receiver answered 410 Gone",
      "If the receiver was retired on purpose",
      `PATCH https://monitor.example/api/v1/distributors/webhooks/${endpointId}\n{"enabled":true}`,
      `POST https://monitor.example/api/v1/distributors/webhooks/${endpointId}/recover`,
      `https://monitor.example/admin/webhooks/${endpointId}`,
      "Events that happen while the endpoint is disabled are kept as failed deliveries: recover them once it is enabled again.",
      JSON.stringify({ since: new Date(disabledAt.getTime() - 60_000).toISOString() }),
    ]) {
      expect(text).toContain(fact);
    }
  });

  it("a partner's earlier-protocol endpoint (failed deliveries in a row): re-enabled with `active`", async () => {
    const org = await createTestOrg(testDb.db, "Legacy");
    await testDb.db.partner.update({ where: { id: org.partner.id }, data: { contactEmail: "ops@legacy.example" } });
    const endpointId = await endpointOf({ partnerId: org.partner.id }, "legacy");
    await markDisabled(endpointId, "failing", "Disabled after 20 failed deliveries in a row; last error: timeout");
    await runJobsUntilIdle(testDb.db);
    const message = await testDb.db.notification.findFirstOrThrow({ where: { partnerId: org.partner.id } });
    expect(message.kind).toBe("webhook_disabled");
    const [mail] = await emlFiles(message.id);
    expect(mail!.text).toContain("Disabled after 20 failed deliveries in a row; last error: timeout");
    expect(mail!.text).toContain(`PATCH https://monitor.example/api/integrations/webhooks/${endpointId}\n{"active":true}`);
    expect(mail!.text).not.toContain("/admin/webhooks/");
  });
});

describe("nothing is sent", () => {
  it("when the owner has no address, the endpoint left that state or is gone, or the payload is malformed", async () => {
    const org = await createTestOrg(testDb.db, "Silent");
    const noAddress = await endpointOf({ partnerId: org.partner.id });
    const jobs = [(await markFailing(noAddress)).jobId];
    await runJobsUntilIdle(testDb.db);

    await testDb.db.partner.update({ where: { id: org.partner.id }, data: { contactEmail: "ops@silent.example" } });
    const recovered = await endpointOf({ partnerId: org.partner.id });
    jobs.push((await markFailing(recovered)).jobId);
    await testDb.db.webhookEndpoint.update({ where: { id: recovered }, data: { failingSince: null, lastSuccessAt: new Date() } });

    // Failing, then disabled before the failing job ran: only the disable is told.
    const disabledMeanwhile = await endpointOf({ partnerId: org.partner.id });
    jobs.push((await markFailing(disabledMeanwhile)).jobId);
    await testDb.db.webhookEndpoint.update({
      where: { id: disabledMeanwhile },
      data: { enabled: false, disabledKind: "manual", disabledAt: new Date() },
    });

    // Disabled by the service, then by its owner (a new disable time): the service's disable is no longer current.
    const reDisabled = await endpointOf({ partnerId: org.partner.id });
    jobs.push((await markDisabled(reDisabled, "failing", "Disabled after 20 failed deliveries in a row")).jobId);
    await testDb.db.webhookEndpoint.update({
      where: { id: reDisabled },
      data: { disabledKind: "manual", disabledAt: new Date(Date.now() + 1000) },
    });

    const deleted = await endpointOf({ partnerId: org.partner.id });
    jobs.push((await markFailing(deleted)).jobId);
    await testDb.db.webhookEndpoint.delete({ where: { id: deleted } });

    const [malformed] = await testDb.db.$queryRaw<Array<{ id: string }>>`
      INSERT INTO jobs (kind, payload, updated_at) VALUES (${ENDPOINT_HEALTH_JOB}, '{"endpointId": "nope", "change": "failing"}'::jsonb, now()) RETURNING id::text`;
    jobs.push(malformed!.id);

    await quietly(() => runJobsUntilIdle(testDb.db));
    expect(await testDb.db.notification.count({ where: { partnerId: org.partner.id } })).toBe(0);
    const statuses = await testDb.db.job.findMany({ where: { id: { in: jobs } }, select: { id: true, status: true } });
    // The malformed payload is refused by the job type's schema before the handler runs: failed for good.
    expect(Object.fromEntries(statuses.map((job) => [job.id, job.status]))).toEqual(
      Object.fromEntries(jobs.map((id) => [id, id === malformed!.id ? "failed" : "succeeded"])),
    );
  });
});

describe("the staff mail preview", () => {
  it("shows a partner's message to its distributor's staff only, and a distributor's to its own", async () => {
    const mine = await createTestOrg(testDb.db, "Mine");
    const theirs = await createTestOrg(testDb.db, "Theirs");
    await testDb.db.partner.update({ where: { id: mine.partner.id }, data: { contactEmail: "ops@mine.example" } });
    await createStaffUser(testDb.db, {
      distributorId: theirs.distributor.id,
      email: "staff@theirs.example",
      password: "a long staff password",
    });
    await markFailing(await endpointOf({ partnerId: mine.partner.id }));
    await markDisabled(await endpointOf({ distributorId: theirs.distributor.id }), "gone", "The receiver answered 410 Gone");
    await runJobsUntilIdle(testDb.db);

    const myStaff = uiCallerAs(testDb.db, await createStaffSession(testDb.db, mine.distributor.id)).admin.mail;
    const theirStaff = uiCallerAs(testDb.db, await createStaffSession(testDb.db, theirs.distributor.id)).admin.mail;
    const mineListed = await myStaff.list({});
    expect(mineListed.messages.map((message) => [message.kind, message.recipient, message.partner?.name, message.customer])).toEqual([
      ["webhook_failing", "ops@mine.example", "Mine partner", null],
    ]);
    const theirsListed = await theirStaff.list({ kind: "webhook_disabled" });
    expect(theirsListed.messages.map((message) => [message.recipient, message.distributor?.name])).toEqual([
      ["staff@theirs.example", "Theirs distributor"],
    ]);

    const shown = await myStaff.get({ id: mineListed.messages[0]!.id });
    expect(shown.html).toContain("Your webhook endpoint is failing");
    expect(shown.text).toContain("Mine partner");
    await expect(theirStaff.get({ id: mineListed.messages[0]!.id })).rejects.toMatchObject({ message: "Message not found" });
    await expect(myStaff.get({ id: theirsListed.messages[0]!.id })).rejects.toMatchObject({ message: "Message not found" });
    expect((await theirStaff.list({ kind: "webhook_failing" })).messages).toEqual([]);
  });
});

it("the paths in the messages are the REST surfaces' own", () => {
  const id = "6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b";
  expect(endpointApiPath({ id, protocol: "current", owner: "partner" })).toBe(`${partnerSurface.basePath}/${id}`);
  expect(endpointApiPath({ id, protocol: "current", owner: "distributor" })).toBe(`${distributorSurface.basePath}/${id}`);
  expect(endpointApiPath({ id, protocol: "legacy", owner: "partner" })).toBe(`${legacySurface.basePath}/${id}`);
});
