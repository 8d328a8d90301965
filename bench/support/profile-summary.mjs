/**
 * Summarizes a V8 CPU profile (.cpuprofile, as `node --cpu-prof` or `webhook-delivery --profile`
 * write it): self time per package or source folder, then per function, as shares of the samples.
 *
 *   node bench/support/profile-summary.mjs FILE [TOP=30]
 */
import { readFileSync } from "node:fs";

const [file, top = "30"] = process.argv.slice(2);
const profile = JSON.parse(readFileSync(file, "utf8"));
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const selfTime = new Map();
profile.samples.forEach((id, index) => selfTime.set(id, (selfTime.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0)));

const root = process.cwd() + "/";
const byPlace = new Map();
const byFunction = new Map();
let total = 0;
for (const [id, micros] of selfTime) {
  const { functionName, url, lineNumber } = nodes.get(id).callFrame;
  total += micros;
  const local = url.replace("file://", "").replace(root, "");
  const place = local.includes("node_modules/")
    ? local.replace(/.*node_modules\/((@[^/]+\/)?[^/]+).*/, "$1")
    : local.startsWith("/") || local === ""
      ? functionName || "(native)"
      : local.startsWith("node:")
        ? local
        : local.split("/").slice(0, -1).join("/") || local;
  byPlace.set(place, (byPlace.get(place) ?? 0) + micros);
  const name = `${functionName || "(anonymous)"} ${local.replace(/.*node_modules\//, "")}${lineNumber >= 0 ? `:${lineNumber + 1}` : ""}`;
  byFunction.set(name, (byFunction.get(name) ?? 0) + micros);
}

const list = (map) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, Number(top))
    .map(([name, micros]) => `${((100 * micros) / total).toFixed(1).padStart(5)} %  ${(micros / 1e6).toFixed(2).padStart(7)} s  ${name}`)
    .join("\n");
console.log(`${(total / 1e6).toFixed(1)} s sampled\n\nby package or folder:\n${list(byPlace)}\n\nby function:\n${list(byFunction)}`);
