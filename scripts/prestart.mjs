// `npm start`'s prestart, plain JavaScript on purpose: it runs on the machine's Node in a production
// install, where there are no dev dependencies (no tsx, no esbuild, no Next.js type check). In a
// checkout it builds when there is no build yet or a source changed (scripts/build.ts --if-stale);
// in a production install the build it was made with is the one there is (docs/operations.md).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";

let tsx;
try {
  tsx = createRequire(import.meta.url).resolve("tsx/cli");
} catch {
  tsx = undefined;
}

if (tsx) {
  const build = spawnSync(process.execPath, [tsx, "scripts/build.ts", "--if-stale"], { stdio: "inherit" });
  process.exit(build.status ?? 1);
}
if (!existsSync("dist/BUILD")) {
  console.error("No build in dist/, and this install has no dev dependencies to make one: build it with `npm ci && npm run build` first.");
  process.exit(1);
}
