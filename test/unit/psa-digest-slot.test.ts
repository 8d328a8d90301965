import { describe, expect, it } from "vitest";
import { currentDigestSlot, digestSlotDue } from "../../server/psa/digest";

describe("a PSA digest's slot", () => {
  it("opens at 07:00 UTC, weekly on Mondays", () => {
    expect(currentDigestSlot("daily", new Date("2026-12-08T06:59:00Z"))).toBe("2026-12-07");
    expect(currentDigestSlot("daily", new Date("2026-12-08T07:00:00Z"))).toBe("2026-12-08");
    expect(currentDigestSlot("weekly", new Date("2026-12-08T12:00:00Z"))).toBe("2026-12-07");
    expect(currentDigestSlot("weekly", new Date("2026-12-07T06:00:00Z"))).toBe("2026-11-30");
    expect(currentDigestSlot("weekly", new Date("2026-12-13T23:00:00Z"))).toBe("2026-12-07");
  });

  it("is due once per slot, always without a digest", () => {
    const now = new Date("2026-12-08T09:00:00Z");
    expect(digestSlotDue({ digest: "off", lastDigestSlot: null }, now)).toBe(true);
    expect(digestSlotDue({ digest: "daily", lastDigestSlot: "2026-12-07" }, now)).toBe(true);
    expect(digestSlotDue({ digest: "daily", lastDigestSlot: "2026-12-08" }, now)).toBe(false);
    expect(digestSlotDue({ digest: "weekly", lastDigestSlot: "2026-12-07" }, now)).toBe(false);
  });
});
