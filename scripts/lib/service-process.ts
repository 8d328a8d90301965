import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createWriteStream, mkdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

export interface DemoCredentials {
  distributorId: string;
  distributorKey: string;
  partnerId: string;
  partnerKey: string;
  /** The demo staff account of the admin UI. */
  staffEmail: string;
  staffPassword: string;
}

export interface ServiceProcess<Demo = DemoCredentials> {
  baseUrl: string;
  /** The server process (the one `npm start` ends in; npm's with `viaNpm`), leader of its process group. */
  pid: number;
  demo: Demo;
  /** How the server process ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM to the server's process group. */
  stop(): void;
}

interface ServiceOptions {
  port: number;
  dataDir: string;
  logFile: string;
  databaseUrl?: string;
  env?: Record<string, string>;
  timeoutMs?: number;
  /** Start on whatever `databaseUrl` holds (another server's database) and read no demo credentials. */
  existingDatabase?: boolean;
  /** Run `npm start` itself (then `pid` is npm's, and the server is its child). */
  viaNpm?: boolean;
  /** Node options for the server process (not with `viaNpm`), e.g. `--cpu-prof`. */
  nodeArgs?: string[];
}

/**
 * Starts the service the way `npm start` does (package.json: scripts/build.ts --if-stale, then
 * dist/start.js, which migrates, seeds the demo data and becomes the production server), waits
 * until it is healthy, and reads the demo credentials it printed.
 * On a fresh embedded database in `dataDir`, or, with `databaseUrl`, on that (empty) PostgreSQL
 * database with the demo seeded explicitly (SEED_DEMO), where the admin CLI can run alongside.
 * Used by the e2e suites and the benchmarks.
 */
export async function startServiceProcess(options: ServiceOptions & { existingDatabase?: false }): Promise<ServiceProcess>;
export async function startServiceProcess(options: ServiceOptions & { existingDatabase: true }): Promise<ServiceProcess<undefined>>;
export async function startServiceProcess(options: ServiceOptions): Promise<ServiceProcess<DemoCredentials | undefined>> {
  rmSync(options.dataDir, { recursive: true, force: true });
  mkdirSync(path.dirname(options.logFile), { recursive: true });
  const log = createWriteStream(options.logFile);
  const baseUrl = `http://127.0.0.1:${options.port}`;
  const env: NodeJS.ProcessEnv = { ...serviceEnvironment(options), PORT: String(options.port), APP_URL: baseUrl, ...options.env };
  if (options.existingDatabase) env.SEED_DEMO = "false";
  if (!options.viaNpm) await buildIfStale(log);
  const [command, args] = options.viaNpm ? ["npm", ["start"]] : [process.execPath, [...(options.nodeArgs ?? []), "dist/start.js"]];
  const child: ChildProcess = spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);
  const exited = once(child, "exit").then(([code, signal]) => ({ code: code as number | null, signal: signal as NodeJS.Signals | null }));
  const stop = () => {
    try {
      process.kill(-child.pid!, "SIGTERM");
    } catch {
      // already gone
    }
  };

  const deadline = Date.now() + (options.timeoutMs ?? 240_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the service exited early; see ${options.logFile}`);
    if (Date.now() > deadline) {
      stop();
      throw new Error(`the service did not become healthy in time; see ${options.logFile}`);
    }
    try {
      if ((await fetch(`${baseUrl}/api/v1/health`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  if (options.existingDatabase) return { baseUrl, pid: child.pid!, demo: undefined, exited, stop };
  const output = readFileSync(options.logFile, "utf8");
  const pair = (idHeader: string) => new RegExp(`${idHeader}:\\s+(\\S+)\\s+SW-API-KEY:\\s+(\\S+)`).exec(output);
  const distributor = pair("SW-DISTRIBUTOR-ID");
  const partner = pair("SW-PARTNER-ID");
  const staff = /Admin UI\s+E-mail:\s+(\S+)\s+Password:\s+(\S+)/.exec(output);
  if (!distributor || !partner || !staff) {
    stop();
    throw new Error(`no demo credentials in the start output (is ${options.dataDir} fresh?); see ${options.logFile}`);
  }
  return {
    baseUrl,
    pid: child.pid!,
    exited,
    demo: {
      distributorId: distributor[1]!,
      distributorKey: distributor[2]!,
      partnerId: partner[1]!,
      partnerKey: partner[2]!,
      staffEmail: staff[1]!,
      staffPassword: staff[2]!,
    },
    stop,
  };
}

/** npm start's prestart step: the production build and dist/, made when missing or older than the sources. */
async function buildIfStale(log: NodeJS.WritableStream): Promise<void> {
  const tsxCli = createRequire(import.meta.url).resolve("tsx/cli");
  const build = spawn(process.execPath, [tsxCli, "scripts/build.ts", "--if-stale"], { stdio: ["ignore", "pipe", "pipe"] });
  build.stdout!.pipe(log, { end: false });
  build.stderr!.pipe(log, { end: false });
  const [code] = await once(build, "exit");
  if (code !== 0) throw new Error("the build failed; see the service log");
}

/** The environment of the service and of admin CLI runs beside it (same database, same app secret). */
export function serviceEnvironment(options: { dataDir: string; databaseUrl?: string }): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATA_DIR: options.dataDir,
    DATABASE_URL: options.databaseUrl ?? "",
    ...(options.databaseUrl
      ? { SEED_DEMO: "true", APP_SECRET: process.env.APP_SECRET ?? "e2e-only-app-secret-0123456789abcdef01234567" }
      : {}),
  };
}
