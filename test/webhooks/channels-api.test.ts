import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { restTestBed } from "../helpers/rest";

/**
 * The channels' REST surface (issue 41 items 4 and 5): create, list, get, change, test, the
 * delivery log and remove; chat URLs and syslog hosts held to the webhook URL rules; a chat URL
 * never answered in full.
 */
const { testDb, server } = restTestBed();
let org: TestOrg;
let otherOrg: TestOrg;
const BASE = "/api/v1/integrations/channels";
const SLACK = "https://93.184.216.34/services/T000/B000/s3cr3tXYZ";

beforeAll(async () => {
  org = await createTestOrg(testDb.db, "Api");
  otherOrg = await createTestOrg(testDb.db, "Other");
});
afterEach(() => vi.unstubAllEnvs());

describe("chat and SIEM channels over REST", () => {
  it("creates, lists, changes, tests and removes a Slack channel, its URL masked", async () => {
    const created = await server.api.post(
      BASE,
      { type: "slack", url: SLACK, eventTypes: ["customer.breach.found"], minSeverity: "high" },
      org.partner.headers,
    );
    expect(created.status).toBe(200);
    expect(created.body.channel).toMatchObject({
      type: "slack",
      url: "https://93.184.216.34/services/…",
      host: null,
      port: null,
      tls: false,
      eventTypes: ["customer.breach.found"],
      minSeverity: "high",
      enabled: true,
      maxAttempts: 3,
      disabledKind: null,
    });
    const id = created.body.channel.id as string;
    const listed = await server.api.get(BASE, org.partner.headers);
    expect(listed.body.channels.map((c: { id: string }) => c.id)).toEqual([id]);
    expect(JSON.stringify(listed.body)).not.toContain("s3cr3t");
    expect((await server.api.get(BASE, otherOrg.partner.headers)).body.channels).toEqual([]);
    expect((await server.api.get(`${BASE}/${id}`, otherOrg.partner.headers)).status).toBe(404);

    const changed = await server.api.patch(`${BASE}/${id}`, { minSeverity: "low", enabled: false }, org.partner.headers);
    expect(changed.body.channel).toMatchObject({
      minSeverity: "low",
      enabled: false,
      disabledKind: "manual",
      url: "https://93.184.216.34/services/…",
    });

    const test = await server.api.post(`${BASE}/${id}/test`, {}, org.partner.headers);
    expect(test.status).toBe(200);
    expect(test.body.delivery).toMatchObject({ test: true, eventType: "customer.breach.found", status: "pending" });
    const log = await server.api.get(`${BASE}/${id}/deliveries`, org.partner.headers);
    expect(log.body.deliveries.map((d: { id: string }) => d.id)).toEqual([test.body.delivery.id]);

    // the webhook surface does not show channels, nor the channel surface webhooks
    expect((await server.api.get("/api/v1/integrations/webhooks", org.partner.headers)).body.webhooks).toEqual([]);
    expect((await server.api.get(`/api/v1/integrations/webhooks/${id}`, org.partner.headers)).status).toBe(404);

    expect((await server.api.delete(`${BASE}/${id}`, org.partner.headers)).body).toEqual({ success: true });
    expect((await server.api.get(`${BASE}/${id}`, org.partner.headers)).body).toEqual({
      success: false,
      error: "Webhook not found",
    });
    expect(await testDb.db.integrationChannel.count({ where: { id } })).toBe(0);
  });

  it("creates a syslog channel by host and port", async () => {
    const res = await server.api.post(
      BASE,
      { type: "syslog", host: "93.184.216.34", port: 6514, tls: true, eventTypes: ["customer.created"] },
      org.partner.headers,
    );
    expect(res.status).toBe(200);
    expect(res.body.channel).toMatchObject({
      type: "syslog",
      url: null,
      host: "93.184.216.34",
      port: 6514,
      tls: true,
      minSeverity: "info",
    });
  });

  it.each([
    [
      { type: "slack", url: "http://93.184.216.34/x", eventTypes: ["customer.created"] },
      "Validation failed: url: URL must use https:// (WEBHOOK_ALLOW_PRIVATE_URLS=true allows http:// for local testing)",
    ],
    [
      { type: "teams", url: "https://127.0.0.1/x", eventTypes: ["customer.created"] },
      "Validation failed: url: URL must point to a public address: 127.0.0.1 is a loopback address (WEBHOOK_ALLOW_PRIVATE_URLS=true allows private addresses for local testing)",
    ],
    [
      { type: "syslog", host: "10.1.2.3", port: 514, eventTypes: ["customer.created"] },
      "Validation failed: host: Host must point to a public address: 10.1.2.3 is a private address (WEBHOOK_ALLOW_PRIVATE_URLS=true allows private addresses for local testing)",
    ],
    [
      { type: "syslog", host: "93.184.216.34", eventTypes: ["customer.created"] },
      "Validation failed: port: port is required for a syslog channel",
    ],
    [
      { type: "syslog", url: SLACK, host: "93.184.216.34", port: 514, eventTypes: ["customer.created"] },
      "Validation failed: url: A syslog channel takes host and port, not url",
    ],
    [
      { type: "slack", url: SLACK, port: 514, eventTypes: ["customer.created"] },
      "Validation failed: port: A slack channel takes url, not port",
    ],
    [
      { type: "discord", url: SLACK, eventTypes: ["customer.created"] },
      "Validation failed: type: type must be one of slack, teams, syslog",
    ],
    [{ type: "slack", url: SLACK, eventTypes: [] }, "Validation failed: eventTypes: At least one event type is required"],
    [
      { type: "slack", url: SLACK, eventTypes: ["customer.created"], minSeverity: "urgent" },
      "Validation failed: minSeverity: minSeverity must be one of info, low, medium, high, critical",
    ],
  ])("refuses %j", async (body, message) => {
    const res = await server.api.post(BASE, body, org.partner.headers);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: message });
  });

  it("takes private addresses with WEBHOOK_ALLOW_PRIVATE_URLS=true, for local testing", async () => {
    vi.stubEnv("WEBHOOK_ALLOW_PRIVATE_URLS", "true");
    const res = await server.api.post(
      BASE,
      { type: "syslog", host: "localhost", port: 514, eventTypes: ["customer.created"] },
      org.partner.headers,
    );
    expect(res.status).toBe(200);
  });
});
