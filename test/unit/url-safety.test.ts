import { afterEach, describe, expect, it, vi } from "vitest";
import {
  AddressNotAllowedError,
  checkWebhookUrl,
  literalAddressRefusal,
  nonPublicReason,
  publicOnlyLookup,
} from "../../server/webhooks/url-safety";
import { ACCEPTED, REFUSED } from "../helpers/url-samples";

/** URL safety (docs/webhooks.md, "URL rules") without HTTP; over the REST API: test/webhooks/url-safety.test.ts. */
afterEach(() => {
  vi.unstubAllEnvs();
});

const SWITCH = "(WEBHOOK_ALLOW_PRIVATE_URLS=true allows private addresses for local testing)";

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

describe("checkWebhookUrl (IP literals: no DNS lookup)", () => {
  it("refuses what is not https, carries credentials or points to a non-public address", async () => {
    vi.stubEnv("WEBHOOK_ALLOW_PRIVATE_URLS", "false");
    await expect(checkWebhookUrl("not a url")).rejects.toThrow("Invalid URL");
    await expect(checkWebhookUrl("http://93.184.216.34/hook")).rejects.toThrow(
      "URL must use https:// (WEBHOOK_ALLOW_PRIVATE_URLS=true allows http:// for local testing)",
    );
    await expect(checkWebhookUrl("https://user:secret@93.184.216.34/hook")).rejects.toThrow("URL must not contain a user name or password");
    await expect(checkWebhookUrl("https://127.0.0.1/hook")).rejects.toThrow(
      `URL must point to a public address: 127.0.0.1 is a loopback address ${SWITCH}`,
    );
    await expect(checkWebhookUrl(`https://93.184.216.34/${"a".repeat(3000)}`)).rejects.toThrow("URL must be at most 2048 characters");
  });

  it("returns a public https URL normalized, without its fragment", async () => {
    vi.stubEnv("WEBHOOK_ALLOW_PRIVATE_URLS", "false");
    expect(await checkWebhookUrl("  https://93.184.216.34/hook?a=1#part ")).toBe("https://93.184.216.34/hook?a=1");
  });

  it("allows http and private addresses with WEBHOOK_ALLOW_PRIVATE_URLS=true", async () => {
    vi.stubEnv("WEBHOOK_ALLOW_PRIVATE_URLS", "true");
    expect(await checkWebhookUrl("http://127.0.0.1:8080/hook")).toBe("http://127.0.0.1:8080/hook");
    await expect(checkWebhookUrl("ftp://127.0.0.1/hook")).rejects.toThrow("URL must use https:// or http://");
  });
});
