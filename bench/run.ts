/**
 * `npm run bench -- <name>` runs bench/<name>.ts. Benchmarks measure; they are not part of CI's
 * pass/fail. Each prints its figures and writes them to bench/results/.
 */
import "../scripts/lib/load-env";
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const name = process.argv[2];
const available = readdirSync("bench")
  .filter((file) => file.endsWith(".ts") && file !== "run.ts")
  .map((file) => file.slice(0, -3));
if (!name || !existsSync(path.join("bench", `${name}.ts`))) {
  console.error(`usage: npm run bench -- <name>   (one of: ${available.join(", ")})`);
  process.exit(2);
}
const tsxCli = createRequire(import.meta.url).resolve("tsx/cli");
const result = spawnSync(process.execPath, [tsxCli, path.join("bench", `${name}.ts`), ...process.argv.slice(3)], { stdio: "inherit" });
process.exit(result.status ?? 1);
