import { describe, expect, it, vi } from "vitest";

describe("waking the job workers", () => {
  it("reaches the waker set by the composition from any copy of the module (Next.js loads one per server entry)", async () => {
    const composition = await import("../../server/jobs/wake");
    vi.resetModules();
    const routeBundle = await import("../../server/jobs/wake");
    expect(routeBundle).not.toBe(composition);

    const wake = vi.fn();
    composition.setJobWaker(wake);
    try {
      await routeBundle.wakeJobWorkers();
      expect(wake).toHaveBeenCalledTimes(1);
    } finally {
      composition.setJobWaker(() => undefined);
    }
  });
});
