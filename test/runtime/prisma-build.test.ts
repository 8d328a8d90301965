import { describe, expect, it } from "vitest";
import { installedVersion, packageDirectory } from "../helpers/installed";

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
