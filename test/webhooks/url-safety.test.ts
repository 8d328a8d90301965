import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { restTestBed } from "../helpers/rest";
import { ACCEPTED, REFUSED } from "../helpers/url-samples";

/**
 * IPv6 addresses that embed an IPv4 address are judged by the IPv4 address they embed
 * (docs/webhooks.md, "URL rules"). Before, https://[::127.0.0.1]/ (IPv4-compatible) was accepted
 * as a webhook URL, and NAT64, 6to4 and Teredo forms of public addresses were refused. The
 * checks themselves, without HTTP: test/unit/url-safety.test.ts.
 */
const { testDb, server } = restTestBed();
let org: TestOrg;

beforeAll(async () => {
  org = await createTestOrg(testDb.db, "Urls");
});
afterEach(() => {
  vi.unstubAllEnvs();
});

const V1 = "/api/v1/integrations/webhooks";
const LEGACY = "/api/integrations/webhooks";
const SWITCH = "(WEBHOOK_ALLOW_PRIVATE_URLS=true allows private addresses for local testing)";

describe("webhook URLs with an IPv6 address that embeds an IPv4 address (over HTTP)", () => {
  it.each(REFUSED)("refuses https://%s/ on both protocols and stores nothing", async (host, written, embeds) => {
    vi.stubEnv("WEBHOOK_ALLOW_PRIVATE_URLS", "false");
    const before = await testDb.db.webhookEndpoint.count();
    for (const [path, body] of [
      [V1, { url: `https://${host}/hook`, eventTypes: ["customer.created"] }],
      [LEGACY, { url: `https://${host}/hook`, events: ["breach.new"] }],
    ] as const) {
      const res = await server.api.post(path, body, org.partner.headers);
      expect({ status: res.status, body: res.body }).toEqual({
        status: 400,
        body: {
          success: false,
          error: `Validation failed: url: URL must point to a public address: ${written} embeds ${embeds} ${SWITCH}`,
        },
      });
    }
    expect(await testDb.db.webhookEndpoint.count()).toBe(before);
  });

  it("refuses the local-use NAT64 prefix whole (the operator places the IPv4 address)", async () => {
    vi.stubEnv("WEBHOOK_ALLOW_PRIVATE_URLS", "false");
    const res = await server.api.post(
      V1,
      { url: "https://[64:ff9b:1::a01:203]/hook", eventTypes: ["customer.created"] },
      org.partner.headers,
    );
    expect(res.body.error).toBe(
      `Validation failed: url: URL must point to a public address: 64:ff9b:1::a01:203 is a local-use NAT64 address ${SWITCH}`,
    );
  });

  it.each(ACCEPTED)("accepts https://%s/, which embeds a public address", async (host) => {
    vi.stubEnv("WEBHOOK_ALLOW_PRIVATE_URLS", "false");
    const res = await server.api.post(V1, { url: `https://${host}/hook`, eventTypes: ["customer.created"] }, org.partner.headers);
    expect(res.status).toBe(200);
    expect(res.body.webhook.url).toBe(new URL(`https://${host}/hook`).toString());
  });
});
