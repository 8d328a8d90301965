import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SERVER_TIERS } from "../../eslint.layers.js";

/** The layer order npm run lint enforces (eslint.layers.js) and ARCHITECTURE.md's table of it. */
const root = path.resolve(import.meta.dirname, "../..");
const folders = (dir: string) =>
  readdirSync(path.join(root, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== "generated")
    .map((entry) => entry.name);

describe("the server's layers", () => {
  it("give every folder of server/ a tier, breaches/ by its two parts", () => {
    const expected = folders("server")
      .flatMap((name) => (name === "breaches" ? folders("server/breaches").map((part) => `breaches/${part}`) : [name]))
      .concat("*.ts")
      .sort();
    expect(SERVER_TIERS.flat().sort()).toEqual(expected);
  });

  it("leave no file directly in server/breaches/, which has no tier of its own", () => {
    const files = readdirSync(path.join(root, "server/breaches"), { withFileTypes: true }).filter((entry) => entry.isFile());
    expect(files.map((file) => file.name)).toEqual([]);
  });

  it("are the ones ARCHITECTURE.md's table lists, tier by tier", () => {
    const architecture = readFileSync(path.join(root, "ARCHITECTURE.md"), "utf8");
    const rows = [...architecture.matchAll(/^ {2}\| (\d+) \| (.+?) \|/gm)].map(([, tier, cells]) => ({
      tier: Number(tier),
      folders: [...cells!.matchAll(/`(?:server\/)?([^`]+?)\/?`/g)].map(([, folder]) => folder),
    }));
    expect(rows).toEqual(SERVER_TIERS.map((tier, index) => ({ tier: index, folders: tier })));
  });
});
