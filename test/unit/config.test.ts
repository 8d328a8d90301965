import { afterEach, describe, expect, it, vi } from "vitest";
import { checkConfig, config } from "../../server/config";

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("PLAN_TYPE_ALIASES", () => {
  it("reads alias=planType pairs, lower-case, blanks ignored", () => {
    vi.stubEnv("PLAN_TYPE_ALIASES", " SafeWeb-Basic = basic, safeweb-plus=plus,,safeweb-pro=PRO ");
    expect([...config.planTypeAliases()]).toEqual([
      ["safeweb-basic", "basic"],
      ["safeweb-plus", "plus"],
      ["safeweb-pro", "pro"],
    ]);
  });

  it("is empty when unset", () => {
    vi.stubEnv("PLAN_TYPE_ALIASES", "");
    expect(config.planTypeAliases().size).toBe(0);
  });

  it.each(["safeweb-basic", "a=b=c", "=basic", "safeweb-basic="])("refuses %j with a message naming the variable", (value) => {
    vi.stubEnv("PLAN_TYPE_ALIASES", value);
    expect(() => checkConfig()).toThrow(/^PLAN_TYPE_ALIASES must be a comma-separated list of alias=planType pairs/);
  });
});

describe("WEBHOOK_LEGACY_HEADER_PREFIX", () => {
  it("defaults to X-Service and takes a deployment's own prefix", () => {
    vi.stubEnv("WEBHOOK_LEGACY_HEADER_PREFIX", "");
    expect(config.webhookLegacyHeaderPrefix()).toBe("X-Service");
    vi.stubEnv("WEBHOOK_LEGACY_HEADER_PREFIX", "X-SafeWeb");
    expect(config.webhookLegacyHeaderPrefix()).toBe("X-SafeWeb");
  });

  it.each(["X Service", "X-Service-", "X_Service:", "X--Service"])("refuses %j", (value) => {
    vi.stubEnv("WEBHOOK_LEGACY_HEADER_PREFIX", value);
    expect(() => checkConfig()).toThrow(/^WEBHOOK_LEGACY_HEADER_PREFIX must be/);
  });
});

describe("REST_FAST_PATH, DIRECT_DRIVER_READS, BULK_COPY", () => {
  const switches = [
    ["REST_FAST_PATH", () => config.restFastPath()],
    ["DIRECT_DRIVER_READS", () => config.directDriverReads()],
    ["BULK_COPY", () => config.bulkCopy()],
  ] as const;

  it.each(switches)("%s is on unless switched off", (name, read) => {
    vi.stubEnv(name, "");
    expect(read()).toBe(true);
    for (const on of ["true", "1", "ON"]) {
      vi.stubEnv(name, on);
      expect(read()).toBe(true);
    }
    for (const off of ["false", "0", "Off", " FALSE "]) {
      vi.stubEnv(name, off);
      expect(read()).toBe(false);
    }
  });

  it.each(switches)("%s refuses anything else at start", (name) => {
    vi.stubEnv(name, "no");
    expect(() => checkConfig()).toThrow(`${name} must be true or false (got "no")`);
  });
});

describe("HOST", () => {
  it("is the interface the server binds, every interface when unset or blank", () => {
    vi.stubEnv("HOST", "127.0.0.1");
    expect(config.host()).toBe("127.0.0.1");
    vi.stubEnv("HOST", " ");
    expect(config.host()).toBeUndefined();
  });
});
