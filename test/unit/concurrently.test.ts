import { describe, expect, it } from "vitest";
import { forEachConcurrently } from "../../server/concurrently";

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe("forEachConcurrently", () => {
  it("runs every item in order, never more than the lanes at once", async () => {
    let open = 0;
    let most = 0;
    const seen: number[] = [];
    const started = await forEachConcurrently([1, 2, 3, 4, 5, 6, 7], 3, async (item) => {
      seen.push(item);
      most = Math.max(most, ++open);
      await tick();
      open--;
    });
    expect(started).toBe(7);
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(most).toBe(3);
  });

  it("takes no new item once stopping, and says how many it started", async () => {
    const seen: number[] = [];
    const started = await forEachConcurrently([1, 2, 3, 4, 5], 1, async (item) => void seen.push(item), {
      stopping: () => seen.length >= 2,
    });
    expect(started).toBe(2);
    expect(seen).toEqual([1, 2]);
  });

  it("rejects with the first failure only once every lane is done", async () => {
    let finished = 0;
    const run = forEachConcurrently([1, 2, 3, 4], 2, async (item) => {
      await tick();
      if (item === 1) throw new Error("first");
      finished++;
    });
    await expect(run).rejects.toThrow("first");
    // the failed lane stops; the other takes the remaining items, and the rejection waits for it
    expect(finished).toBe(3);
  });
});
