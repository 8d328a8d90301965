// Reads what `npm ci --os=OS --cpu=CPU --dry-run` would add (its "add <name> <version>" lines) and
// fails where that install would: a package planned for a platform its os/cpu fields exclude
// (npm's EBADPLATFORM, which a dry run does not check). It also requires the plan to hold a
// Node 24 for the npm scripts and Next.js's SWC build for that platform.
//   node .ci/platform-plan.mjs <plan.txt> <package-lock.json> <os> <cpu>
import { readFileSync } from "node:fs";

const [planFile, lockFile, os, cpu] = process.argv.slice(2);
const lock = JSON.parse(readFileSync(lockFile, "utf8"));
const entries = new Map();
for (const [location, entry] of Object.entries(lock.packages)) {
  if (!location) continue;
  // An alias (npm:other@x) is planned under the name it is installed as.
  const installedAs = location.slice(location.lastIndexOf("node_modules/") + "node_modules/".length);
  entries.set(`${installedAs}@${entry.version}`, entry);
}
const fits = (allowed, actual) => {
  const list = [allowed ?? []].flat();
  if (list.length === 0) return true;
  if (list.includes(`!${actual}`)) return false;
  return list.some((value) => !value.startsWith("!")) ? list.includes(actual) : true;
};

const problems = [];
const planned = [];
for (const line of readFileSync(planFile, "utf8").split("\n")) {
  const match = /^add (\S+) (\S+)$/.exec(line);
  if (!match) continue;
  const [, name, version] = match;
  const entry = entries.get(`${name}@${version}`);
  if (!entry) {
    problems.push(`${name}@${version} is planned but not in the lockfile`);
    continue;
  }
  planned.push({ name, version, entry });
  if (!fits(entry.os, os) || !fits(entry.cpu, cpu)) {
    problems.push(
      `${name}@${version} is for ${[entry.os].flat().join(",") || "any os"} ${[entry.cpu].flat().join(",") || "any cpu"} (EBADPLATFORM)`,
    );
  }
}
const node = planned.find(({ entry }) => entry.bin?.node && entry.version.startsWith("24."));
if (!node) problems.push("no Node 24 for the npm scripts");
const nextVersion = lock.packages["node_modules/next"].version;
const swc = planned.find(({ name, version, entry }) => name.startsWith("@next/swc-") && version === nextVersion && entry.os);
if (!swc) problems.push(`no @next/swc build ${nextVersion} for ${os}-${cpu}`);

if (problems.length > 0) {
  console.error(`npm ci on ${os}-${cpu}:\n  ${problems.join("\n  ")}`);
  process.exit(1);
}
process.stdout.write(`${os}-${cpu}: ${planned.length} packages, Node ${node.version} (${node.name}), ${swc.name} ${swc.version}\n`);
