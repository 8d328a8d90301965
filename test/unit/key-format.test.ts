import { describe, expect, it } from "vitest";
import { apiKeyKind, keyChecksum, newApiKey, storedKeyPrefix } from "../../server/auth/key-format";
import { documentedPattern, withRandomCharChanged } from "../helpers/key-format";

/** The key format (docs/security.md, "Key format"), checked offline; issued keys at work: test/auth/key-format.test.ts. */
describe("apiKeyKind (offline format check)", () => {
  it("knows the kinds and refuses anything else", () => {
    const key = newApiKey("partner");
    expect(apiKeyKind(key)).toBe("partner");
    expect(apiKeyKind(newApiKey("distributor"))).toBe("distributor");
    expect(apiKeyKind("sk_live_" + "x".repeat(40))).toBe("legacy");
    for (const bad of [
      withRandomCharChanged(key, 0),
      withRandomCharChanged(key, 39),
      key.slice(0, -1) + (key.endsWith("0") ? "1" : "0"),
      key.slice(0, -1),
      key + "0",
      key.replace("expmon_p_", "expmon_x_"),
      key.slice(0, 20) + "-" + key.slice(21),
      "sk_live_" + "x".repeat(39),
      "sk_test_" + "x".repeat(40),
      "",
    ]) {
      expect({ bad, kind: apiKeyKind(bad) }).toEqual({ bad, kind: undefined });
    }
  });

  it("checksums are CRC32 in base62, six characters", () => {
    expect(keyChecksum("")).toBe("000000");
    // crc32("a") = 0xe8b7be43 = 3904355907
    expect(keyChecksum("a")).toBe("4GEHKN");
  });
});

describe("newApiKey", () => {
  it("writes the kind's prefix, 40 random base62 characters and their checksum, matching the documented pattern", () => {
    const pattern = documentedPattern();
    for (const [kind, prefix] of [
      ["partner", "expmon_p_"],
      ["distributor", "expmon_d_"],
    ] as const) {
      const key = newApiKey(kind);
      expect(key).toMatch(new RegExp(`^${prefix}[0-9A-Za-z]{46}$`));
      expect(key.slice(-6)).toBe(keyChecksum(key.slice(9, 49)));
      expect(key).toMatch(pattern);
    }
    expect(newApiKey("partner")).not.toBe(newApiKey("partner"));
    expect("sk_live_" + "a".repeat(40)).not.toMatch(pattern);
  });

  it("stores its prefix and first 12 random characters in clear to find the row", () => {
    const key = newApiKey("partner");
    expect(storedKeyPrefix(key)).toBe(key.slice(0, "expmon_p_".length + 12));
    const legacy = "sk_live_" + "x".repeat(40);
    expect(storedKeyPrefix(legacy)).toBe(legacy.slice(0, 20));
  });
});
