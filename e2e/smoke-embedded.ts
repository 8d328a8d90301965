/**
 * The fresh-machine path in CI: `npm start` on a new embedded database prints demo keys that work,
 * and ends in one Node process under npm: the server (dist/start.js; no launcher or tsx left).
 * (The Playwright suites run on PostgreSQL in CI so the admin CLI can run beside the server; this
 * covers the embedded default.)
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import { startServiceProcess } from "../scripts/lib/service-process";

const service = await startServiceProcess({
  port: Number(process.env.SMOKE_PORT ?? 3220),
  dataDir: path.resolve("e2e/artifacts/smoke-data"),
  logFile: path.resolve("e2e/artifacts/smoke-server.log"),
  viaNpm: true,
});
try {
  const response = await fetch(`${service.baseUrl}/api/v1/integrations/partner/plans`, {
    headers: { "SW-PARTNER-ID": service.demo.partnerId, "SW-API-KEY": service.demo.partnerKey },
  });
  const body = (await response.json()) as { success?: boolean; data?: unknown[] };
  if (response.status !== 200 || body.success !== true || !body.data?.length) {
    throw new Error(`the demo partner key did not work: ${response.status} ${JSON.stringify(body)}`);
  }
  const processes = execFileSync("ps", ["-A", "-o", "pid=,ppid=,rss=,args="], { encoding: "utf8" })
    .trim()
    .split("\n")
    .map((line) => {
      const [pid, ppid, rss, ...args] = line.trim().split(/\s+/);
      return { pid: Number(pid), ppid: Number(ppid), rssMiB: Math.round(Number(rss) / 1024), command: args.join(" ") };
    });
  const underNpm = processes.filter((candidate) => {
    for (let parent = candidate.ppid; parent > 1; parent = processes.find((p) => p.pid === parent)?.ppid ?? 0) {
      if (parent === service.pid) return true;
    }
    return false;
  });
  // dist/start.js replaces itself (same pid) with a process started with the server's V8 heap flags.
  const server = /(^|\/)node --max-semi-space-size=\d+ --max-old-space-size=\d+ (\S*\/)?dist\/start\.js$/;
  if (underNpm.length !== 1 || !server.test(underNpm[0]!.command)) {
    throw new Error(`npm start should end in one process, node dist/start.js with the heap flags; found: ${JSON.stringify(underNpm)}`);
  }
  console.log(`embedded start: healthy, demo keys work, one server process under npm (${underNpm[0]!.rssMiB} MiB resident)`);
} finally {
  service.stop();
}
