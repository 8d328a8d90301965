import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { AddressNotAllowedError, literalAddressRefusal, nonPublicReason, publicOnlyLookup } from "../../server/webhooks/url-safety";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { startRestServer } from "../helpers/rest";

/**
 * IPv6 addresses that embed an IPv4 address are judged by the IPv4 address they embed
 * (docs/webhooks.md, "URL rules"). Before, https://[::127.0.0.1]/ (IPv4-compatible) was accepted
 * as a webhook URL, and NAT64, 6to4 and Teredo forms of public addresses were refused.
 */
let testDb: TestDatabase;
let server: Awaited<ReturnType<typeof startRestServer>>;
let org: TestOrg;

beforeAll(async () => {
  testDb = await createTestDatabase();
  server = await startRestServer(testDb.db);
  org = await createTestOrg(testDb.db, "Urls");
});
afterAll(async () => {
  await server?.close();
  await testDb?.close();
});
afterEach(() => {
  vi.unstubAllEnvs();
});

const V1 = "/api/v1/integrations/webhooks";
const LEGACY = "/api/integrations/webhooks";
const SWITCH = "(WEBHOOK_ALLOW_PRIVATE_URLS=true allows private addresses for local testing)";

/** [host in the URL, the address as the URL parser writes it, what it embeds] */
const REFUSED: Array<[string, string, string]> = [
  ["[::127.0.0.1]", "::7f00:1", "127.0.0.1, which is a loopback address"], // IPv4-compatible
  ["[::10.1.2.3]", "::a01:203", "10.1.2.3, which is a private address"],
  ["[::ffff:127.0.0.1]", "::ffff:7f00:1", "127.0.0.1, which is a loopback address"], // IPv4-mapped
  ["[::ffff:192.168.1.10]", "::ffff:c0a8:10a", "192.168.1.10, which is a private address"],
  ["[::ffff:0:169.254.169.254]", "::ffff:0:a9fe:a9fe", "169.254.169.254, which is a link-local address"], // IPv4-translated
  ["[64:ff9b::127.0.0.1]", "64:ff9b::7f00:1", "127.0.0.1, which is a loopback address"], // NAT64
  ["[64:ff9b::169.254.169.254]", "64:ff9b::a9fe:a9fe", "169.254.169.254, which is a link-local address"],
  ["[2002:7f00:1::1]", "2002:7f00:1::1", "127.0.0.1, which is a loopback address"], // 6to4
  ["[2002:c0a8:10a::]", "2002:c0a8:10a::", "192.168.1.10, which is a private address"],
  ["[2001:0:4136:e378:8000:63bf:80ff:fffe]", "2001:0:4136:e378:8000:63bf:80ff:fffe", "127.0.0.1, which is a loopback address"], // Teredo client
  ["[2001:0:a01:203::f7f7:f7f7]", "2001:0:a01:203::f7f7:f7f7", "10.1.2.3, which is a private address"], // Teredo server
];

/** The same public address, 93.184.216.34, in each embedding form. */
const ACCEPTED = [
  "[::93.184.216.34]",
  "[::ffff:93.184.216.34]",
  "[::ffff:0:93.184.216.34]",
  "[64:ff9b::93.184.216.34]",
  "[2002:5db8:d822::1]",
  "[2001:0:4136:e378:8000:63bf:a247:27dd]",
];

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

describe("at delivery time", () => {
  it("refuses a stored URL whose IPv6 literal embeds a loopback or private address before connecting", () => {
    vi.stubEnv("WEBHOOK_ALLOW_PRIVATE_URLS", "false");
    for (const [host, written, embeds] of REFUSED) {
      expect(literalAddressRefusal(new URL(`https://${host}/hook`))).toBe(`Refused: ${written} embeds ${embeds}`);
    }
    for (const host of ACCEPTED) expect(literalAddressRefusal(new URL(`https://${host}/hook`))).toBeUndefined();
  });

  it("refuses a resolved address that embeds a loopback address (the connection's own lookup)", async () => {
    const lookup = (host: string) =>
      new Promise<{ error: Error | null; address: unknown }>((resolve) =>
        publicOnlyLookup(host, { all: true }, (error, address) => resolve({ error, address })),
      );
    const refused = await lookup("::7f00:1");
    expect(refused.error).toBeInstanceOf(AddressNotAllowedError);
    expect(refused.error!.message).toBe(
      "Refused: ::7f00:1 resolves to a non-public address (::7f00:1 embeds 127.0.0.1, which is a loopback address)",
    );
    const allowed = await lookup("64:ff9b::5db8:d822");
    expect(allowed).toEqual({ error: null, address: [{ address: "64:ff9b::5db8:d822", family: 6 }] });
  });

  it("judges plain addresses as before", () => {
    expect(nonPublicReason("::1")).toBe("::1 is a loopback address");
    expect(nonPublicReason("fd00::1")).toBe("fd00::1 is a unique local (private) address");
    expect(nonPublicReason("2001:db8::1")).toBe("2001:db8::1 is a reserved address");
    expect(nonPublicReason("2606:4700::1111")).toBeUndefined();
    expect(nonPublicReason("10.0.0.1")).toBe("10.0.0.1 is a private address");
    expect(nonPublicReason("93.184.216.34")).toBeUndefined();
  });
});
