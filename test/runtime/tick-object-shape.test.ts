import { spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { holdTickObjectShape } from "../../scripts/lib/tick-object-shape";

/**
 * The inline caches of the object literal in Node's nextTick, in a process that ran a full
 * collection while no tick object was alive (scripts/lib/tick-object-shape.ts), read from V8's
 * own debug print. Without the hold they turn generic; with it they keep their one hidden class.
 * If a Node upgrade makes the first case pass too, V8 or Node fixed it and the hold can go.
 */
function literalCacheStates(mode: "hold" | "none"): string[] {
  const child = path.join(import.meta.dirname, "tick-object-shape.child.ts");
  // V8 prints to the process's stdout itself: into a file, as a pipe can take only part of it.
  const dir = mkdtempSync(path.join(tmpdir(), "tick-shape-"));
  const outFile = path.join(dir, "stdout.txt");
  try {
    const out = openSync(outFile, "w");
    try {
      const run = spawnSync(
        process.execPath,
        ["--no-opt", "--no-maglev", "--retain-maps-for-n-gc=0", "--expose-gc", "--allow-natives-syntax", "--import", "tsx", child, mode],
        { encoding: "utf8", cwd: path.join(import.meta.dirname, "../.."), stdio: ["ignore", out, "pipe"] },
      );
      expect(run.status, run.stderr).toBe(0);
    } finally {
      closeSync(out);
    }
    return cacheStatesIn(readFileSync(outFile, "utf8"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function cacheStatesIn(printed: string): string[] {
  return [...printed.matchAll(/slot #\d+ DefineKeyedOwnPropertyInLiteral (\w+)/g)].map((match) => match[1]!);
}

describe("the tick object shape", () => {
  it("is held once per process", () => {
    const slots = globalThis as unknown as Record<symbol, unknown>;
    const slot = Symbol.for("exposure-monitor.held-tick-object");
    expect(holdTickObjectShape()).toBe(true);
    const held = slots[slot];
    expect(held).toBeTypeOf("object");
    expect(holdTickObjectShape()).toBe(true);
    expect(slots[slot]).toBe(held);
  });

  it("turns nextTick's literal generic after a collection when not held", () => {
    const states = literalCacheStates("none");
    expect(states.length).toBeGreaterThanOrEqual(3);
    expect(states).toContain("MEGAMORPHIC");
  });

  it("keeps nextTick's literal on its one hidden class when held", () => {
    const states = literalCacheStates("hold");
    expect(states.length).toBeGreaterThanOrEqual(3);
    expect(states.every((state) => state === "MONOMORPHIC")).toBe(true);
  });
});
