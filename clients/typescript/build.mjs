// `npm run build`: index.ts to ESM JavaScript and declarations in dist/, beside the generated schema.d.ts.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const here = import.meta.dirname;
const outDir = process.argv[2] ? path.resolve(process.argv[2]) : path.join(here, "dist");
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
execFileSync(process.execPath, [tsc, "-p", path.join(here, "tsconfig.json"), "--outDir", outDir], { stdio: "inherit" });
copyFileSync(path.join(here, "schema.d.ts"), path.join(outDir, "schema.d.ts"));
