import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { DecoyRing, RANGE_ENTRIES, rangeDecoys, rangeEntries } from "../../server/breaches/exposure-index/range";

/** breach/range's padding (docs/breaches.md, "Look up addresses by hash prefix"), without a database. */
const names = (count: number) => Array.from({ length: count }, (_, i) => `Breach${String(i).padStart(3, "0")}`);
const positions = Array.from({ length: 2_000 }, (_, i) => Math.floor((i / 2_000) * 2 ** 48));

describe("the decoys' ring", () => {
  it("gives 1 to 3 distinct names, sorted, from those it holds", () => {
    const ring = new DecoyRing(names(5));
    for (const at of positions.slice(0, 50)) {
      for (const count of [1, 2, 3]) {
        const picked = ring.namesAt(at, count);
        expect(picked).toHaveLength(count);
        expect(new Set(picked).size).toBe(count);
        expect(picked).toEqual([...picked].sort());
      }
    }
    expect(new DecoyRing(["Only"]).namesAt(positions[7]!, 3)).toEqual(["Only"]);
    expect(new DecoyRing([]).namesAt(positions[7]!, 2)).toEqual([]);
  });

  it("moves only a few decoys when a breach is added", () => {
    const before = new DecoyRing(names(40));
    const after = new DecoyRing([...names(40), "Newcomer"]);
    const moved = positions.filter((at) => before.namesAt(at, 2).join() !== after.namesAt(at, 2).join()).length;
    expect(moved).toBeGreaterThan(0);
    expect(moved / positions.length).toBeLessThan(0.15);
  });
});

describe("a prefix's entries", () => {
  const ring = new DecoyRing(names(30));

  it("are 64, sorted, the same every time for the same prefix and other for another", () => {
    const first = rangeEntries("5BAA61", [], ring);
    expect(first).toHaveLength(RANGE_ENTRIES);
    expect(first.map((entry) => entry.suffix)).toEqual(first.map((entry) => entry.suffix).sort());
    expect(rangeEntries("5BAA61", [], ring)).toEqual(first);
    const other = new Set(rangeEntries("5BAA62", [], ring).map((entry) => entry.suffix));
    expect(first.filter((entry) => other.has(entry.suffix))).toEqual([]);
  });

  it("never draw a decoy with a real entry's suffix", () => {
    const [drawn] = rangeDecoys("ABCDEF", 1, [], ring);
    const decoys = rangeDecoys("ABCDEF", 3, [drawn!], ring);
    expect(decoys).toHaveLength(3);
    expect(decoys.map((entry) => entry.suffix)).not.toContain(drawn!.suffix);
  });

  it("list a real address with its breaches once each, and leave out rows whose address does not have the prefix", () => {
    // sha1("alice@acme.example") starts with the prefix below; the second address's does not.
    const prefix = "72B7B0";
    const entries = rangeEntries(
      prefix,
      [
        { email: "alice@acme.example", name: "Canva" },
        { email: "alice@acme.example", name: "Adobe" },
        { email: "alice@acme.example", name: "Adobe" },
        { email: "bob@acme.example", name: "Adobe" },
      ],
      ring,
    );
    expect(entries).toHaveLength(RANGE_ENTRIES);
    expect(entries.filter((entry) => entry.breachNames.includes("Adobe"))).toEqual([
      { suffix: expect.stringMatching(/^[0-9A-F]{34}$/), breachNames: ["Adobe", "Canva"] },
    ]);
  });

  it("hold at most the 64 lowest real suffixes, and then no decoy", () => {
    // A one-character prefix stands in for a crowded one: about 1 address in 16 shares it.
    const rows = Array.from({ length: 2_000 }, (_, i) => ({ email: `user${i}@crowd.example`, name: "Adobe" }));
    const sharing = rows
      .map(({ email }) => createHash("sha1").update(email).digest("hex").toUpperCase())
      .filter((hash) => hash.startsWith("A"))
      .map((hash) => hash.slice(1))
      .sort();
    expect(sharing.length).toBeGreaterThan(RANGE_ENTRIES);
    const entries = rangeEntries("A", rows, ring);
    expect(entries.map((entry) => entry.suffix)).toEqual(sharing.slice(0, RANGE_ENTRIES));
    expect(entries.every((entry) => entry.breachNames.join() === "Adobe")).toBe(true);
  });
});
