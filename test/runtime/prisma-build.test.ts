import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.join(import.meta.dirname, "../..");

/** The version Node's resolution finds for `name` from `from`'s directory (several packages export no package.json). */
function installedVersion(name: string, from = root): string {
  for (let directory = from; ; directory = path.dirname(directory)) {
    const file = path.join(directory, "node_modules", name, "package.json");
    if (existsSync(file)) return (JSON.parse(readFileSync(file, "utf8")) as { version: string }).version;
    if (directory === path.dirname(directory)) throw new Error(`${name} is not installed`);
  }
}

const packageDirectory = (name: string) => path.join(root, "node_modules", name);

// One Prisma build (docs/operations.md, "Production install"): the CLI, the client, the driver
// adapters and the schema engine the migrations run on all come from the same release.
describe("the Prisma packages", () => {
  const release = installedVersion("prisma");

  it.each(["@prisma/client", "@prisma/adapter-pg", "@prisma/driver-adapter-utils"])("%s is on the CLI's release", (name) => {
    expect(installedVersion(name)).toBe(release);
  });

  it("the PGlite adapter uses the same driver-adapter utilities", () => {
    expect(installedVersion("@prisma/driver-adapter-utils", packageDirectory("pglite-prisma-adapter"))).toBe(release);
  });

  it("the schema engine's WebAssembly build is the engines build that release expects", () => {
    const expected = installedVersion("@prisma/engines-version", packageDirectory("@prisma/engines"));
    expect(installedVersion("@prisma/schema-engine-wasm")).toBe(expected);
  });
});
