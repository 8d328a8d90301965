/**
 * A webhook receiver in a process of its own on 127.0.0.1 that can be taken down and brought
 * back, for the outage and recover benchmarks. Up, it answers 200 with the response X-Signature
 * of the current protocol (signed with the organization's token); down, it answers 503 without
 * Retry-After (a Retry-After would set the retry's delay itself, unscaled; docs/webhooks.md).
 * It counts by idempotencyToken: which events it accepted, and how many it accepted again.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";

export interface ReceiverStats {
  requests: number;
  /** Requests answered 503 while down. */
  refused: number;
  /** Distinct idempotency tokens answered 2xx. */
  accepted: number;
  /** 2xx answers for a token already accepted. */
  duplicates: number;
  /** Date.now() of the first and the last time a token was accepted for the first time. */
  firstAcceptedAt: number | null;
  lastAcceptedAt: number | null;
}

const PROGRAM = `
const http = require("node:http"); const crypto = require("node:crypto"); const readline = require("node:readline");
const token = process.env.TOKEN;
let down = false;
const stats = { requests: 0, refused: 0, accepted: 0, duplicates: 0, firstAcceptedAt: null, lastAcceptedAt: null };
const seen = new Set();
const server = http.createServer((req, res) => {
  const chunks = []; req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    stats.requests++;
    if (down) { stats.refused++; res.writeHead(503, { "content-length": 4 }); res.end("down"); return; }
    const body = Buffer.concat(chunks).toString("utf8");
    const id = JSON.parse(body).idempotencyToken;
    if (seen.has(id)) stats.duplicates++;
    else { seen.add(id); stats.accepted++; const now = Date.now(); stats.firstAcceptedAt ??= now; stats.lastAcceptedAt = now; }
    const signature = crypto.createHmac("sha256", token).update(req.headers["x-token"] + ":" + body).digest("hex");
    res.writeHead(200, { "x-signature": signature, "content-length": 2 }); res.end("ok");
  });
});
server.keepAliveTimeout = 30000;
readline.createInterface({ input: process.stdin }).on("line", (line) => {
  if (line === "down") down = true;
  if (line === "up") down = false;
  process.stdout.write(JSON.stringify(line === "stats" ? stats : { ok: line }) + "\\n");
});
server.listen(0, "127.0.0.1", () => process.stdout.write(JSON.stringify({ port: server.address().port }) + "\\n"));`;

export async function startOutageReceiver(token: string, { down = false } = {}) {
  const child: ChildProcess = spawn(process.execPath, ["-e", PROGRAM], {
    env: { ...process.env, TOKEN: token },
    stdio: ["pipe", "pipe", "inherit"],
  });
  const replies: Array<(line: string) => void> = [];
  const lines = createInterface({ input: child.stdout! });
  lines.on("line", (line) => replies.shift()?.(line));
  const next = () => new Promise<string>((resolve) => replies.push(resolve));
  const { port } = JSON.parse(await next()) as { port: number };
  const command = async (line: "down" | "up" | "stats") => {
    const reply = next();
    child.stdin!.write(line + "\n");
    return JSON.parse(await reply) as unknown;
  };
  if (down) await command("down");
  return {
    url: `http://127.0.0.1:${port}/hook`,
    /** Answers 503 from now on. */
    takeDown: async () => void (await command("down")),
    /** Answers 200 from now on; returns when (Date.now()) it came back. */
    bringBack: async () => {
      await command("up");
      return Date.now();
    },
    stats: async () => (await command("stats")) as ReceiverStats,
    stop: () => {
      lines.close();
      child.kill();
    },
  };
}
