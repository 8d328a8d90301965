import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { muteNotices } from "../../server/customers/mutes";
import { createChannel, getChannel } from "../../server/webhooks/channels/channels";
import { sendChannelTest } from "../../server/webhooks/channels/test-send";
import { listDeliveries, requeueDelivery } from "../../server/webhooks/delivery-log";
import { AUTO_DISABLE_AFTER_FAILURES } from "../../server/webhooks/delivery-engine/limits";
import { checkAdaptiveCard } from "../helpers/adaptive-card";
import { createBreachInstance } from "../helpers/channel-fixtures";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { blockKitProblems } from "../helpers/slack-block-kit";
import { createTestCustomer, deliveriesOf, drainWebhooks, recordTestEvent, type TestCustomer } from "../helpers/webhook-fixtures";
import { startReceiver, type TestReceiver } from "../helpers/webhook-receiver";

/**
 * Slack and Teams channels end to end (issue 41 items 4 and 5): events routed through the
 * webhook delivery engine to real HTTP receivers on 127.0.0.1, the Block Kit message checked
 * against Slack's published limits and the Adaptive Card by Microsoft's adaptivecards library;
 * each finding told once per channel; severity, retries, auto-disable, replay and test sends;
 * the webhook URL (a credential) never shown, logged or kept in the delivery log.
 */
let testDb: TestDatabase;
let org: TestOrg;
let customer: TestCustomer;
let slack: TestReceiver;
let teams: TestReceiver;
const SECRET_PATH = "/services/T0000000/B0000000/s3cr3tT0kenXYZ";

beforeAll(async () => {
  testDb = await createTestDatabase();
  vi.stubEnv("WEBHOOK_ALLOW_PRIVATE_URLS", "true");
  vi.stubEnv("WEBHOOK_RETRY_BASE_MS", "0");
  vi.stubEnv("APP_URL", "https://monitor.example.com");
  slack = await startReceiver(() => ({ status: 200, body: "ok" }));
  teams = await startReceiver(() => ({ status: 202, body: "" }));
  org = await createTestOrg(testDb.db, "Channels");
  customer = await createTestCustomer(testDb.db, org.partner.id, {
    emails: ["ceo@acme.example", "cfo@acme.example"],
    name: "Acme <Ltd> & Co",
  });
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
  slack.setRule(() => ({ status: 200, body: "ok" }));
});

const slackUrl = () => `http://127.0.0.1:${slack.port}${SECRET_PATH}`;
const addChannel = (
  type: "slack" | "teams",
  options: { minSeverity?: "info" | "low" | "medium" | "high" | "critical"; eventTypes?: string[] } = {},
) =>
  createChannel(testDb.db, org.partner.id, {
    type,
    url: type === "slack" ? slackUrl() : `http://127.0.0.1:${teams.port}/workflows/abc/triggers/manual/paths/invoke?sig=s3cr3tSig`,
    eventTypes: options.eventTypes ?? ["customer.breach.found", "customer.breach.resolved"],
    minSeverity: options.minSeverity,
  });

describe("Slack and Teams channels", () => {
  it("sends one Block Kit message and one Adaptive Card per finding, and a rescan's repeat sends nothing", async () => {
    const slackChannel = await addChannel("slack");
    const teamsChannel = await addChannel("teams");
    const breach = await createBreachInstance(testDb.db, customer, ["ceo@acme.example"], { dataClasses: ["Email addresses", "Passwords"] });
    const found = (emails: string[]) =>
      recordTestEvent(testDb.db, customer, "customer.breach.found", { breaches: [{ uuid: breach.instanceId, name: breach.name, emails }] });

    await found(["ceo@acme.example"]);
    await drainWebhooks(testDb.db);
    expect(slack.requests).toHaveLength(1);
    expect(teams.requests).toHaveLength(1);
    expect(slack.requests[0]!.path).toBe(SECRET_PATH);

    const message = JSON.parse(slack.requests[0]!.body) as { text: string; blocks: Array<Record<string, unknown>> };
    expect(blockKitProblems(message)).toEqual([]);
    expect(message.blocks[0]).toEqual({
      type: "header",
      text: { type: "plain_text", text: "Exposure found: Acme <Ltd> & Co", emoji: false },
    });
    const bodyText = JSON.stringify(message.blocks);
    expect(bodyText).toContain("Acme &lt;Ltd&gt; &amp; Co");
    expect(bodyText).toContain("ceo@acme.example");
    expect(bodyText).toContain(`*${breach.name}* (High)`);
    expect(bodyText).toContain(`https://monitor.example.com/admin/customers/${customer.id}`);

    const envelope = JSON.parse(teams.requests[0]!.body) as { type: string; attachments: Array<{ contentType: string; content: unknown }> };
    expect(envelope.type).toBe("message");
    expect(envelope.attachments).toHaveLength(1);
    expect(envelope.attachments[0]!.contentType).toBe("application/vnd.microsoft.card.adaptive");
    const card = envelope.attachments[0]!.content;
    const verdict = checkAdaptiveCard(card);
    expect(verdict.problems).toEqual([]);
    // the library serializes back every property the card has: none was unknown to it
    expect(verdict.roundTrip).toEqual(card);
    expect(JSON.stringify(card)).toContain("ceo@acme.example");

    // the same finding again (a rescan, a re-import, a reactivation): nothing new to tell
    await found(["ceo@acme.example"]);
    await drainWebhooks(testDb.db);
    expect(slack.requests).toHaveLength(1);
    expect(teams.requests).toHaveLength(1);

    // one new mailbox in the same breach: only that one is told
    await found(["ceo@acme.example", "cfo@acme.example"]);
    await drainWebhooks(testDb.db);
    expect(slack.requests).toHaveLength(2);
    const second = slack.requests[1]!.body;
    expect(second).toContain("cfo@acme.example");
    expect(second).not.toContain("ceo@acme.example");
    expect(await testDb.db.channelNotification.count({ where: { channelId: slackChannel.id } })).toBe(2);
    expect(await testDb.db.channelNotification.count({ where: { channelId: teamsChannel.id } })).toBe(2);
  });

  it("takes only the event types and severities it was given", async () => {
    const org2 = await createTestOrg(testDb.db, "Severity");
    const other = await createTestCustomer(testDb.db, org2.partner.id, { emails: ["a@beta.example"] });
    const channel = await createChannel(testDb.db, org2.partner.id, {
      type: "slack",
      url: slackUrl(),
      eventTypes: ["customer.breach.found"],
      minSeverity: "high",
    });
    const plain = await createBreachInstance(testDb.db, other, ["a@beta.example"], { dataClasses: ["Email addresses"] });
    const stealer = await createBreachInstance(testDb.db, other, ["a@beta.example"], { isStealerLog: true, dataClasses: ["Passwords"] });
    await recordTestEvent(testDb.db, other, "customer.breach.found", {
      breaches: [
        { uuid: plain.instanceId, name: plain.name, emails: ["a@beta.example"] },
        { uuid: stealer.instanceId, name: stealer.name, emails: ["a@beta.example"] },
      ],
    });
    await recordTestEvent(testDb.db, other, "customer.created", {});
    await recordTestEvent(testDb.db, other, "customer.breach.resolved", {
      breaches: [{ uuid: stealer.instanceId, name: stealer.name, emails: ["a@beta.example"] }],
    });
    await drainWebhooks(testDb.db);
    const deliveries = await deliveriesOf(testDb.db, channel.id);
    expect(deliveries.map((d) => d.eventType)).toEqual(["customer.breach.found"]);
    expect(deliveries[0]!.body).toContain(stealer.name);
    expect(deliveries[0]!.body).not.toContain(plain.name);
    expect(deliveries[0]!.body).toContain("(Critical)");
  });

  it("tells a channel nothing about a muted mailbox, and nothing about an inactive directory user's", async () => {
    const org3 = await createTestOrg(testDb.db, "Muted");
    const customer = await createTestCustomer(testDb.db, org3.partner.id, {
      emails: ["kept@gamma.example", "muted@gamma.example", "left@gamma.example"],
    });
    const channel = await createChannel(testDb.db, org3.partner.id, {
      type: "slack",
      url: slackUrl(),
      eventTypes: ["customer.breach.found"],
      minSeverity: "info",
    });
    await muteNotices(testDb.db, customer.id, { email: "muted@gamma.example", mutedBy: "partner" });
    await testDb.db.monitoredAsset.updateMany({ where: { customerId: customer.id, value: "left@gamma.example" }, data: { active: false } });
    const emails = ["kept@gamma.example", "muted@gamma.example", "left@gamma.example"];
    const instance = await createBreachInstance(testDb.db, customer, emails);
    await recordTestEvent(testDb.db, customer, "customer.breach.found", {
      breaches: [{ uuid: instance.instanceId, name: instance.name, emails }],
    });
    await drainWebhooks(testDb.db);
    const [delivery] = await deliveriesOf(testDb.db, channel.id);
    expect(delivery!.body).toContain("kept@gamma.example");
    expect(delivery!.body).not.toContain("muted@gamma.example");
    expect(delivery!.body).not.toContain("left@gamma.example");
    expect(await testDb.db.channelNotification.count({ where: { channelId: channel.id } })).toBe(1);
  });

  it("retries through the engine, is disabled after failures in a row, and replays from the delivery log", async () => {
    const org3 = await createTestOrg(testDb.db, "Failing");
    const who = await createTestCustomer(testDb.db, org3.partner.id, { emails: ["x@gamma.example"] });
    const channel = await createChannel(testDb.db, org3.partner.id, { type: "slack", url: slackUrl(), eventTypes: ["customer.created"] });
    slack.setRule((_request, index) => (index === 0 ? { status: 500, body: "internal_error" } : { status: 200, body: "ok" }));
    await recordTestEvent(testDb.db, who, "customer.created", {});
    await drainWebhooks(testDb.db);
    const [retried] = await deliveriesOf(testDb.db, channel.id);
    expect(retried).toMatchObject({ status: "delivered", attemptCount: 2 });
    expect(retried!.attempts.map((attempt) => attempt.statusCode)).toEqual([500, 200]);

    slack.setRule(() => ({ status: 404, body: "no_service" }));
    for (let i = 0; i < AUTO_DISABLE_AFTER_FAILURES; i++) await recordTestEvent(testDb.db, who, "customer.created", {});
    await drainWebhooks(testDb.db);
    const disabled = await getChannel(testDb.db, org3.partner.id, channel.id);
    expect(disabled).toMatchObject({ enabled: false, disabledKind: "failing" });
    expect(disabled.disabledReason).toContain("HTTP 404");

    // replay one failed delivery once the receiver is back (after enabling the channel)
    slack.setRule(() => ({ status: 200, body: "ok" }));
    await testDb.db.webhookEndpoint.update({ where: { id: channel.id }, data: { enabled: true, disabledKind: null } });
    const { deliveries } = await listDeliveries(testDb.db, { partnerId: org3.partner.id }, "channel", channel.id, {
      page: 1,
      pageSize: 1,
      status: "failed",
    });
    const before = slack.requests.length;
    await requeueDelivery(testDb.db, { partnerId: org3.partner.id }, "channel", channel.id, deliveries[0]!.id);
    await drainWebhooks(testDb.db);
    expect(slack.requests.length).toBe(before + 1);
    const replayed = await listDeliveries(testDb.db, { partnerId: org3.partner.id }, "channel", channel.id, { page: 1, pageSize: 100 });
    expect(replayed.deliveries.find((d) => d.id === deliveries[0]!.id)?.status).toBe("delivered");

    // the URL's secret part is nowhere in what the service keeps or shows
    const everything = JSON.stringify(
      [await getChannel(testDb.db, org3.partner.id, channel.id), await deliveriesOf(testDb.db, channel.id), replayed],
      (_key, value: unknown) => (typeof value === "bigint" ? String(value) : value),
    );
    expect(everything).not.toContain("s3cr3t");
    const row = await testDb.db.webhookEndpoint.findUniqueOrThrow({ where: { id: channel.id } });
    expect(row.url).toBe(`http://127.0.0.1:${slack.port}/services/…`);
    expect(row.secretCiphertext).not.toContain("s3cr3t");
  });

  it("a 410 Gone (an archived Slack channel) disables the channel at once", async () => {
    const org4 = await createTestOrg(testDb.db, "Gone");
    const who = await createTestCustomer(testDb.db, org4.partner.id);
    const channel = await createChannel(testDb.db, org4.partner.id, { type: "slack", url: slackUrl(), eventTypes: ["customer.created"] });
    slack.setRule(() => ({ status: 410, body: "channel_is_archived" }));
    await recordTestEvent(testDb.db, who, "customer.created", {});
    await drainWebhooks(testDb.db);
    expect(await getChannel(testDb.db, org4.partner.id, channel.id)).toMatchObject({ enabled: false, disabledKind: "gone" });
  });

  it("test sends are marked, valid for their receiver, and leave no record that would hold back a real finding", async () => {
    const org5 = await createTestOrg(testDb.db, "Tests");
    const slackChannel = await createChannel(testDb.db, org5.partner.id, {
      type: "slack",
      url: slackUrl(),
      eventTypes: ["customer.breach.found"],
    });
    const teamsChannel = await createChannel(testDb.db, org5.partner.id, {
      type: "teams",
      url: `http://127.0.0.1:${teams.port}/workflows/t`,
      eventTypes: ["customer.domain.verified"],
    });
    const slackTest = await sendChannelTest(testDb.db, org5.partner.id, slackChannel.id, undefined);
    const teamsTest = await sendChannelTest(testDb.db, org5.partner.id, teamsChannel.id, undefined);
    expect(slackTest).toMatchObject({ test: true, eventType: "customer.breach.found", status: "pending" });
    expect(teamsTest).toMatchObject({ test: true, eventType: "customer.domain.verified" });
    await drainWebhooks(testDb.db);
    const message = JSON.parse(slack.requests.at(-1)!.body);
    expect(blockKitProblems(message)).toEqual([]);
    expect(message.text).toMatch(/^\[Test\] Exposure found: Example Customer Ltd/);
    const card = JSON.parse(teams.requests.at(-1)!.body).attachments[0].content;
    expect(checkAdaptiveCard(card).problems).toEqual([]);
    expect(JSON.stringify(card)).toContain("example.com");
    expect(await testDb.db.channelNotification.count({ where: { channelId: slackChannel.id } })).toBe(0);
  });

  it("the Block Kit check and the Adaptive Card check do catch broken messages", () => {
    expect(blockKitProblems({ text: "x", blocks: [{ type: "header", text: { type: "plain_text", text: "x".repeat(151) } }] })).toEqual([
      "blocks[0].text.text: length 151 outside 1..150",
    ]);
    expect(blockKitProblems({ text: "x", blocks: [{ type: "section", text: { type: "mrkdwn", text: "<b>" } }] })).toHaveLength(1);
    expect(
      checkAdaptiveCard({
        type: "AdaptiveCard",
        version: "1.4",
        body: [{ type: "Bogus" }],
        actions: [{ type: "Action.OpenUrl", title: "x" }],
      }).problems,
    ).toHaveLength(2);
  });
});
