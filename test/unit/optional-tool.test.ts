import { describe, expect, it } from "vitest";
import { isInstalled, missingToolReason } from "../helpers/optional-tool";

// A test needing an optional interpreter (README.md, "Tests") skips with a reason, but never under CI.
const ABSENT = { command: "exposure-monitor-no-such-interpreter", install: "nothing-such" };
const PRESENT = { command: process.execPath, install: "node" };

describe("an optional test tool", () => {
  it("is found when it runs, and not when it does not exist", () => {
    expect(isInstalled(PRESENT.command)).toBe(true);
    expect(isInstalled(ABSENT.command)).toBe(false);
  });

  it("gives no reason to skip when installed, in CI or not", () => {
    expect(missingToolReason(PRESENT, { ...process.env, CI: "" })).toBeUndefined();
    expect(missingToolReason(PRESENT, { ...process.env, CI: "true" })).toBeUndefined();
  });

  it("missing outside CI, gives a one-line reason naming what installs it", () => {
    const reason = missingToolReason(ABSENT, { ...process.env, CI: "" });
    expect(reason).toBe(`${ABSENT.command} is not installed (optional, README.md "Tests": install nothing-such to run this test)`);
    expect(reason).not.toContain("\n");
  });

  it("missing under CI=true, fails instead of skipping", () => {
    expect(() => missingToolReason(ABSENT, { ...process.env, CI: "true" })).toThrow(/not installed, and under CI=true/);
  });
});
