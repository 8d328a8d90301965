import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "../../server/api/openapi";
import { hibpBreach, seedExposures } from "../helpers/breach-fixtures";
import { createTestOrg } from "../helpers/fixtures";
import { restTestBed } from "../helpers/rest";

/**
 * clients/typescript as someone installs it: built to dist/, laid out in a consumer project's
 * node_modules with only what package.json's `files` ships, type-checked there under `nodenext`
 * and `bundler` resolution, and its README example run with Node against a real server.
 */
const run = promisify(execFile);
const root = path.join(import.meta.dirname, "../..");
const clientDir = path.join(root, "clients/typescript");
const manifest = JSON.parse(readFileSync(path.join(clientDir, "package.json"), "utf8"));
const { testDb, server } = restTestBed();
let consumer: string;

const tsc = (project: string) =>
  run(process.execPath, [path.join(root, "node_modules/typescript/bin/tsc"), "-p", project], { cwd: consumer });

function tsconfig(resolution: "nodenext" | "bundler") {
  return JSON.stringify({
    compilerOptions: {
      target: "ES2022",
      lib: ["ES2023", "dom"],
      module: resolution === "nodenext" ? "nodenext" : "esnext",
      moduleResolution: resolution,
      strict: true,
      noEmit: true,
      types: [],
    },
    files: ["example.ts"],
  });
}

beforeAll(async () => {
  consumer = mkdtempSync(path.join(tmpdir(), "client-consumer-"));
  const built = path.join(consumer, "build");
  await run(process.execPath, [path.join(clientDir, "build.mjs"), built], { cwd: clientDir });
  const installed = path.join(consumer, "node_modules/@exposure-monitor/client");
  mkdirSync(installed, { recursive: true });
  for (const entry of manifest.files as string[]) {
    cpSync(entry === "dist" ? built : path.join(clientDir, entry), path.join(installed, entry), { recursive: true });
  }
  cpSync(path.join(clientDir, "package.json"), path.join(installed, "package.json"));
  symlinkSync(path.join(root, "node_modules/openapi-fetch"), path.join(consumer, "node_modules/openapi-fetch"), "junction");
  writeFileSync(path.join(consumer, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
  const readme = readFileSync(path.join(clientDir, "README.md"), "utf8");
  const example = /```ts\n([\s\S]*?)```/.exec(readme)![1]!;
  writeFileSync(path.join(consumer, "example.ts"), `declare const process: { env: Record<string, string | undefined> };\n${example}`);
  writeFileSync(path.join(consumer, "tsconfig.nodenext.json"), tsconfig("nodenext"));
  writeFileSync(path.join(consumer, "tsconfig.bundler.json"), tsconfig("bundler"));
}, 120_000);

afterAll(() => {
  if (consumer) rmSync(consumer, { recursive: true, force: true });
});

describe("the TypeScript client as a package", () => {
  it("is package shaped: ESM with declarations behind an exports map, a licence, the API's version", () => {
    expect(manifest.private).toBeUndefined();
    expect(manifest.type).toBe("module");
    expect(manifest.exports["."]).toEqual({ types: "./dist/index.d.ts", import: "./dist/index.js" });
    expect(manifest.license).toBe("MIT");
    expect(readFileSync(path.join(clientDir, "LICENSE"), "utf8")).toMatch(/^MIT License/);
    expect(manifest.version).toBe(buildOpenApiDocument("http://localhost:3000").info.version);
    const shipped = path.join(consumer, "node_modules/@exposure-monitor/client/dist");
    expect(readFileSync(path.join(shipped, "index.js"), "utf8")).toContain('from "openapi-fetch"');
    expect(readFileSync(path.join(shipped, "index.d.ts"), "utf8")).toContain('from "./schema.js"');
  });

  it("type-checks its README example under nodenext and bundler resolution", async () => {
    await expect(tsc("tsconfig.nodenext.json")).resolves.toBeDefined();
    await expect(tsc("tsconfig.bundler.json")).resolves.toBeDefined();
  }, 120_000);

  it("refuses an onboarding body without assets, and an unknown key, at compile time", async () => {
    writeFileSync(
      path.join(consumer, "wrong.ts"),
      `import { createExposureClient } from "@exposure-monitor/client";
const api = createExposureClient({ baseUrl: "http://127.0.0.1:9", credentials: { partnerId: "p", apiKey: "k" } });
const base = { companyName: "A", contactEmail: "a@a.example", customerReference: "R" };
await api.POST("/api/v1/integrations/customer/onboard", { body: base });
await api.POST("/api/v1/integrations/customer/onboard", { body: { ...base, assetsDomain: ["a.example"] } });
await api.POST("/api/v1/integrations/customer/onboard", { body: { ...base, assetsEmails: ["it@a.example"] } });
`,
    );
    writeFileSync(path.join(consumer, "tsconfig.wrong.json"), tsconfig("nodenext").replace('"example.ts"', '"wrong.ts"'));
    const failure = await tsc("tsconfig.wrong.json").then(
      () => undefined,
      (error: { stdout: string }) => error.stdout,
    );
    const errors = (failure ?? "").split("\n").filter((line) => line.includes("error TS"));
    expect(errors.map((line) => /wrong\.ts\((\d+),/.exec(line)?.[1])).toEqual(["4", "5"]);
    expect(failure).toContain("assetsDomain");
  }, 120_000);

  it("runs its README example against the service", async () => {
    const org = await createTestOrg(testDb.db);
    await seedExposures(testDb.db, [hibpBreach("PackageBreach")], { "it@acme.example": ["PackageBreach"] });
    const { stdout } = await run(process.execPath, ["--experimental-strip-types", "--no-warnings", "example.ts"], {
      cwd: consumer,
      env: { ...process.env, SW_BASE_URL: server.baseUrl, SW_PARTNER_ID: org.partner.id, SW_API_KEY: org.partner.apiKey },
    });
    expect(stdout.trim()).toMatch(/^[0-9a-f-]{36} true$/);
  }, 60_000);
});
