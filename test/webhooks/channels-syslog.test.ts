import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createChannel, getChannel } from "../../server/webhooks/channels/channels";
import { sendChannelTest } from "../../server/webhooks/channels/test-send";
import { parseCef } from "../helpers/cef";
import { createBreachInstance } from "../helpers/channel-fixtures";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { rsyslogAvailable, rsyslogTlsAvailable, startRsyslog, type TestRsyslog } from "../helpers/rsyslog";
import { createTestCustomer, deliveriesOf, drainWebhooks, recordTestEvent, type TestCustomer } from "../helpers/webhook-fixtures";

/**
 * Syslog channels against a real rsyslog (issue 41 item 4): RFC 5424 over TCP and over TLS,
 * octet-counted, CEF read back from the file rsyslog wrote, and rsyslog's own parse of the
 * RFC 5424 header (severity, facility, app name, message id) checked too.
 */
let testDb: TestDatabase;
let org: TestOrg;
let customer: TestCustomer;
let rsyslog: TestRsyslog;
const NAME = "Acme | x=1 \\ Ltd";

beforeAll(async () => {
  testDb = await createTestDatabase();
  vi.stubEnv("WEBHOOK_ALLOW_PRIVATE_URLS", "true");
  vi.stubEnv("WEBHOOK_RETRY_BASE_MS", "0");
  rsyslog = await startRsyslog();
  org = await createTestOrg(testDb.db, "Syslog");
  customer = await createTestCustomer(testDb.db, org.partner.id, { emails: ["ceo@acme.example", "cfo@acme.example"], name: NAME });
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await rsyslog?.stop();
  await testDb?.close();
});

describe.skipIf(!rsyslogAvailable)("syslog channels", () => {
  it("writes one CEF record per mailbox and breach over TCP, and rsyslog reads RFC 5424", async () => {
    const channel = await createChannel(testDb.db, org.partner.id, {
      type: "syslog",
      host: "127.0.0.1",
      port: rsyslog.tcpPort,
      eventTypes: ["customer.breach.found", "customer.created"],
    });
    expect(channel).toMatchObject({ type: "syslog", url: null, host: "127.0.0.1", port: rsyslog.tcpPort, tls: false });
    const breach = await createBreachInstance(testDb.db, customer, ["ceo@acme.example", "cfo@acme.example"], {
      name: "Example=Breach",
      dataClasses: ["Email addresses", "Passwords"],
    });
    await recordTestEvent(testDb.db, customer, "customer.breach.found", {
      breaches: [{ uuid: breach.instanceId, name: breach.name, emails: ["ceo@acme.example", "cfo@acme.example"] }],
    });
    await recordTestEvent(testDb.db, customer, "customer.created", {});
    await drainWebhooks(testDb.db);
    const deliveries = await deliveriesOf(testDb.db, channel.id);
    expect(deliveries.map((d) => d.status)).toEqual(["delivered", "delivered"]);

    const records = await rsyslog.waitFor(3);
    expect(records).toHaveLength(3);
    const found = records.filter((record) => record.msgId === "customer.breach.found");
    expect(found).toHaveLength(2);
    for (const record of found) {
      expect(record).toMatchObject({ severity: 3, facility: 10, appName: "exposure-monitor" });
      expect(record.raw).toMatch(/^<83>1 \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z \S+ exposure-monitor - customer\.breach\.found - CEF:0\|/);
      const cef = parseCef(record.msg);
      expect(cef).toMatchObject({
        version: "0",
        vendor: "Exposure Monitor",
        product: "exposure-monitor",
        productVersion: "1.0",
        signatureId: "customer.breach.found",
        name: `Exposure found: ${NAME}`,
        severity: 8,
      });
      expect(cef.extension).toMatchObject({
        externalId: deliveries[0]!.eventId,
        cs1Label: "customer",
        cs1: NAME,
        cs3: customer.id,
        cs4Label: "breach",
        cs4: "Example=Breach",
        cs5: breach.instanceId,
        cs6: "Email addresses, Passwords",
      });
    }
    expect(found.map((record) => parseCef(record.msg).extension.duser).sort()).toEqual(["ceo@acme.example", "cfo@acme.example"]);
    const created = records.find((record) => record.msgId === "customer.created")!;
    expect(created.severity).toBe(6);
    expect(parseCef(created.msg)).toMatchObject({ signatureId: "customer.created", severity: 1 });
  });

  it.skipIf(!rsyslogTlsAvailable)("sends over TLS, verifying the receiver with the channel's CA certificate", async () => {
    const before = rsyslog.read().length;
    const trusted = await createChannel(testDb.db, org.partner.id, {
      type: "syslog",
      host: "127.0.0.1",
      port: rsyslog.tlsPort!,
      tls: true,
      caCertificate: rsyslog.caCertificate!,
      eventTypes: ["customer.domain.verified"],
    });
    await sendChannelTest(testDb.db, org.partner.id, trusted.id, undefined);
    await drainWebhooks(testDb.db);
    expect((await deliveriesOf(testDb.db, trusted.id))[0]).toMatchObject({ status: "delivered" });
    const records = await rsyslog.waitFor(before + 1);
    const record = records.at(-1)!;
    expect(record.msgId).toBe("customer.domain.verified");
    expect(parseCef(record.msg)).toMatchObject({ name: "[Test] Domain verified: Example Customer Ltd", severity: 1 });
    expect(parseCef(record.msg).extension.msg).toBe("Domain: example.com; Verified by: dns");

    // without the CA the receiver's certificate is refused: the attempt fails, nothing arrives
    const untrusted = await createChannel(testDb.db, org.partner.id, {
      type: "syslog",
      host: "127.0.0.1",
      port: rsyslog.tlsPort!,
      tls: true,
      eventTypes: ["customer.domain.verified"],
    });
    await sendChannelTest(testDb.db, org.partner.id, untrusted.id, undefined);
    await drainWebhooks(testDb.db);
    const [failed] = await deliveriesOf(testDb.db, untrusted.id);
    expect(failed).toMatchObject({ status: "failed" });
    expect(failed!.lastError).toMatch(/self-signed certificate|SELF_SIGNED/i);
    expect(rsyslog.read()).toHaveLength(before + 1);
  });

  it("refuses a private receiver at send time once the switch is off", async () => {
    const channel = await createChannel(testDb.db, org.partner.id, {
      type: "syslog",
      host: "127.0.0.1",
      port: rsyslog.tcpPort,
      eventTypes: ["customer.created"],
    });
    vi.stubEnv("WEBHOOK_ALLOW_PRIVATE_URLS", "false");
    try {
      await sendChannelTest(testDb.db, org.partner.id, channel.id, undefined);
      await drainWebhooks(testDb.db);
    } finally {
      vi.stubEnv("WEBHOOK_ALLOW_PRIVATE_URLS", "true");
    }
    const [refused] = await deliveriesOf(testDb.db, channel.id);
    expect(refused!.lastError).toBe("Refused: 127.0.0.1 is a loopback address (WEBHOOK_ALLOW_PRIVATE_URLS=true allows private addresses)");
    expect((await getChannel(testDb.db, org.partner.id, channel.id)).enabled).toBe(true);
  });
});
