import { describe, expect, it } from "vitest";
import { yAxisTicks } from "../../app/portal/_components/chart-scale";

describe("the exposure chart's y-axis", () => {
  it("has whole-number ticks from 0, one apart up to 5 (so 1 is there for small counts)", () => {
    expect(yAxisTicks(0)).toEqual([0, 1]);
    expect(yAxisTicks(1)).toEqual([0, 1]);
    expect(yAxisTicks(3)).toEqual([0, 1, 2, 3]);
    expect(yAxisTicks(5)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it("steps 2, 5, 10, 20, 50 ... apart above that, ending at or above the highest bar", () => {
    expect(yAxisTicks(7)).toEqual([0, 2, 4, 6, 8]);
    expect(yAxisTicks(23)).toEqual([0, 5, 10, 15, 20, 25]);
    expect(yAxisTicks(99)).toEqual([0, 20, 40, 60, 80, 100]);
    for (let highest = 0; highest <= 1000; highest++) {
      const ticks = yAxisTicks(highest);
      expect(ticks.length).toBeLessThanOrEqual(6);
      expect(ticks.at(-1)).toBeGreaterThanOrEqual(highest);
      expect(ticks.every((tick) => Number.isInteger(tick))).toBe(true);
    }
  });
});
