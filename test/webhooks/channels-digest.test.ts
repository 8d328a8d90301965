import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { muteNotices } from "../../server/customers/mutes";
import { AppError } from "../../server/errors";
import { createChannel, updateChannel } from "../../server/webhooks/channels/channels";
import { enqueueChannelDigests, writeChannelDigest } from "../../server/webhooks/channels/digests";
import { checkAdaptiveCard } from "../helpers/adaptive-card";
import { createBreachInstance } from "../helpers/channel-fixtures";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { blockKitProblems } from "../helpers/slack-block-kit";
import { createTestCustomer, drainWebhooks, recordTestEvent, type TestCustomer } from "../helpers/webhook-fixtures";
import { startReceiver, type TestReceiver } from "../helpers/webhook-receiver";

/**
 * Digests of chat channels against real receivers on 127.0.0.1: a daily or weekly channel is
 * sent no message per finding; its slot writes one summary per customer (a Block Kit message
 * checked against Slack's limits, an Adaptive Card judged by the adaptivecards library); a
 * rescan adds nothing, a second run of the slot writes nothing, and a mailbox muted meanwhile
 * is left out. Syslog channels take no digest.
 */
let testDb: TestDatabase;
let org: TestOrg;
let acme: TestCustomer;
let globex: TestCustomer;
let slack: TestReceiver;
let teams: TestReceiver;
const MONDAY = "2026-12-07";
const TUESDAY = "2026-12-08";

beforeAll(async () => {
  testDb = await createTestDatabase();
  vi.stubEnv("WEBHOOK_ALLOW_PRIVATE_URLS", "true");
  vi.stubEnv("WEBHOOK_RETRY_BASE_MS", "0");
  vi.stubEnv("APP_URL", "https://monitor.example.com");
  slack = await startReceiver(() => ({ status: 200, body: "ok" }));
  teams = await startReceiver(() => ({ status: 202, body: "" }));
  org = await createTestOrg(testDb.db, "Digests");
  acme = await createTestCustomer(testDb.db, org.partner.id, { emails: ["ceo@acme.example", "cfo@acme.example"], name: "Acme" });
  globex = await createTestCustomer(testDb.db, org.partner.id, { emails: ["it@globex.example"], name: "Globex" });
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await slack?.close();
  await teams?.close();
  await testDb?.close();
});
beforeEach(() => {
  slack.requests.length = 0;
  teams.requests.length = 0;
});

const found = (customer: TestCustomer, breach: { instanceId: string; name: string }, emails: string[]) =>
  recordTestEvent(testDb.db, customer, "customer.breach.found", { breaches: [{ uuid: breach.instanceId, name: breach.name, emails }] });

async function runSlot(slot: string) {
  await enqueueChannelDigests(testDb.db, slot);
  const jobs = await testDb.db.job.findMany({ where: { kind: "webhooks.channel-digest", status: "pending" } });
  for (const job of jobs) {
    await writeChannelDigest(testDb.db, job.payload as { channelId: string; digest: "daily" | "weekly"; slot: string });
    await testDb.db.job.update({ where: { id: job.id }, data: { status: "succeeded" } });
  }
  await drainWebhooks(testDb.db);
}

describe("chat channel digests", () => {
  it("holds each finding for the slot, then sends one summary per customer, each mailbox once", async () => {
    const daily = await createChannel(testDb.db, org.partner.id, {
      type: "slack",
      url: `http://127.0.0.1:${slack.port}/services/T0/B0/daily`,
      eventTypes: ["customer.breach.found", "customer.created"],
      digest: "daily",
    });
    expect(daily.digest).toBe("daily");
    const weekly = await createChannel(testDb.db, org.partner.id, {
      type: "teams",
      url: `http://127.0.0.1:${teams.port}/workflows/w/triggers/manual/paths/invoke?sig=x`,
      eventTypes: ["customer.breach.found"],
      digest: "weekly",
    });
    const passwords = await createBreachInstance(testDb.db, acme, ["ceo@acme.example", "cfo@acme.example"], {
      dataClasses: ["Email addresses", "Passwords"],
    });
    const plain = await createBreachInstance(testDb.db, acme, ["ceo@acme.example"], { dataClasses: ["Email addresses"] });
    const theirs = await createBreachInstance(testDb.db, globex, ["it@globex.example"], { dataClasses: ["Email addresses"] });

    await found(acme, passwords, ["ceo@acme.example"]);
    await found(acme, plain, ["ceo@acme.example"]);
    await found(globex, theirs, ["it@globex.example"]);
    await found(acme, passwords, ["ceo@acme.example", "cfo@acme.example"]);
    await found(acme, passwords, ["ceo@acme.example", "cfo@acme.example"]); // a rescan: nothing new
    await drainWebhooks(testDb.db);
    expect(slack.requests).toHaveLength(0);
    expect(teams.requests).toHaveLength(0);
    expect(await testDb.db.channelNotification.count({ where: { channelId: daily.id, held: true } })).toBe(4);

    // a mailbox muted before the digest is left out of it
    await muteNotices(testDb.db, globex.id, { email: "it@globex.example", mutedBy: "partner" });

    await runSlot(TUESDAY); // daily only
    expect(teams.requests).toHaveLength(0);
    expect(slack.requests).toHaveLength(1);
    const message = JSON.parse(slack.requests[0]!.body) as { text: string; blocks: Array<Record<string, unknown>> };
    expect(blockKitProblems(message)).toEqual([]);
    expect(JSON.stringify(message.blocks[0])).toContain(`Daily digest (${TUESDAY}): new exposures at Acme`);
    const text = JSON.stringify(message.blocks);
    expect(text).toContain("2 mailboxes in 2 breaches");
    for (const name of [passwords.name, plain.name]) expect(text).toContain(name);
    expect(text).toContain("cfo@acme.example");
    expect(text).not.toContain("globex");

    // the slot again, a rescan, the next slot: nothing more
    await runSlot(TUESDAY);
    await found(acme, passwords, ["ceo@acme.example", "cfo@acme.example"]);
    await drainWebhooks(testDb.db);
    await runSlot("2026-12-09");
    expect(slack.requests).toHaveLength(1);

    // the weekly one on Monday: an Adaptive Card per customer with news
    await runSlot(MONDAY);
    expect(teams.requests).toHaveLength(1);
    const card = (JSON.parse(teams.requests[0]!.body) as { attachments: Array<{ content: unknown }> }).attachments[0]!.content;
    const verdict = checkAdaptiveCard(card);
    expect(verdict.problems).toEqual([]);
    expect(verdict.roundTrip).toEqual(card);
    expect(JSON.stringify(card)).toContain(`Weekly digest (${MONDAY}): new exposures at Acme`);
    expect(await testDb.db.channelNotification.count({ where: { channelId: weekly.id, held: true } })).toBe(0);

    // events that are not findings still go at once
    await recordTestEvent(testDb.db, acme, "customer.created", {});
    await drainWebhooks(testDb.db);
    expect(slack.requests).toHaveLength(2);
    expect(slack.requests[1]!.body).toContain("Customer added");
  });

  it("set back to off: what it held goes with the next daily slot, new findings at once", async () => {
    const channel = await createChannel(testDb.db, org.partner.id, {
      type: "slack",
      url: `http://127.0.0.1:${slack.port}/services/T0/B0/switch`,
      eventTypes: ["customer.breach.found"],
      digest: "weekly",
    });
    const breach = await createBreachInstance(testDb.db, acme, ["ceo@acme.example"], { dataClasses: ["Email addresses"] });
    await found(acme, breach, ["ceo@acme.example"]);
    await drainWebhooks(testDb.db);
    expect((await updateChannel(testDb.db, org.partner.id, channel.id, { digest: "off" })).digest).toBe("off");
    await found(acme, breach, ["ceo@acme.example", "cfo@acme.example"]);
    await drainWebhooks(testDb.db);
    expect(slack.requests).toHaveLength(1);
    expect(slack.requests[0]!.body).toContain("cfo@acme.example");
    await runSlot(TUESDAY);
    expect(slack.requests).toHaveLength(2);
    expect(slack.requests[1]!.body).toContain("Daily digest");
    expect(slack.requests[1]!.body).not.toContain("cfo@acme.example");
  });

  it("refuses a digest on a syslog channel", async () => {
    const attempt = createChannel(testDb.db, org.partner.id, {
      type: "syslog",
      host: "127.0.0.1",
      port: 6514,
      eventTypes: ["customer.breach.found"],
      digest: "daily",
    });
    await expect(attempt).rejects.toThrow(AppError);
    await expect(attempt).rejects.toThrow(
      'Validation failed: digest: A syslog channel takes each event as it happens; digest must be "off"',
    );
  });
});
