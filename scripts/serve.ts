/**
 * The production HTTP server, started by `npm start` (scripts/start.ts) once the build is current
 * and the database migrated. Next.js serves every request, except REST API requests once Next.js
 * has loaded the REST route: those go straight to its dispatcher (server/http/rest-fast-path.ts,
 * rest-node.ts), with the headers next.config.js adds (read from the build's manifests) and the
 * same compression. Behind Next.js's request pipeline the REST route costs more server time than
 * the service's own work, which this way is spared (measured: docs/measures.md, "Choices in the
 * code"). Everything else is `next start`'s: instrumentation (background
 * work), pages, the admin UI, /api/trpc, /api/auth, /api/inngest. Every request passes the edge
 * guard first (server/http/edge-guard.ts): security headers, cross-site refusals, body limits.
 *
 * Built into dist/serve.js (scripts/build.ts) and loaded by dist/start.js in its own process, so
 * `npm start` ends in this one process. On SIGTERM or SIGINT it shuts down gracefully within
 * SHUTDOWN_LIMIT_MS and exits 0 (docs/operations.md, "Shutdown").
 *
 * Every request first gets the socket's peer address in a header of the server's own
 * (server/client-address.ts), which is how route handlers such as next-auth's sign-in learn the
 * client. `--dev` (`npm run dev`, through tsx) serves Next.js's development server the same way,
 * without the REST shortcut.
 */
import { existsSync, readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import path from "node:path";
import next from "next";
import { requestClientAddress, stampPeerAddress } from "../server/client-address";
import { config } from "../server/config";
import { logRequest, stampRequestId } from "../server/http/access-log";
import { acceptRequestTarget, EDGE_SERVER_TIMEOUTS, guardRequest, setSecurityHeaders } from "../server/http/edge-guard";
import { countWhenSent, nextRouteLabeler } from "../server/http/next-route-metrics";
import { isPlainRestPath, publishedRestDispatcher } from "../server/http/rest-fast-path";
import { serveRestRequest } from "../server/http/rest-node";
import { headerResolverFromBuild } from "../server/http/route-headers";
import { log } from "../server/log";
import { writeServiceAccess } from "../server/service-access";
import { runShutdownPhase } from "../server/shutdown";
import { holdTickObjectShape } from "./lib/tick-object-shape";

/** Everything done within this; Kubernetes, systemd and Docker wait 10 s before SIGKILL by default. */
const SHUTDOWN_LIMIT_MS = 9_500;
/** How long requests and background work in flight may take to finish (a webhook attempt: at most two 3 s requests). */
const DRAIN_LIMIT_MS = 7_000;
/** Left for closing the database pools. */
const CLOSE_LIMIT_MS = 1_500;

let shuttingDown = false;
let stopHttp: (limitMs: number) => Promise<void> = async () => undefined;
let closeNext: () => Promise<void> = async () => undefined;
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => void shutDown(signal));

async function shutDown(signal: NodeJS.Signals): Promise<void> {
  if (shuttingDown) return;
  shuttingDown = true;
  const startedAt = Date.now();
  log.info("shutting down", { signal });
  setTimeout(() => {
    log.error("shutdown did not finish in time; exiting", { limitMs: SHUTDOWN_LIMIT_MS });
    process.exit(1);
  }, SHUTDOWN_LIMIT_MS).unref();
  await Promise.all([stopHttp(DRAIN_LIMIT_MS), runShutdownPhase("work", DRAIN_LIMIT_MS)]);
  await closeNext().catch((error: unknown) => log.error("closing Next.js failed", { error }));
  await runShutdownPhase("database", CLOSE_LIMIT_MS);
  log.info("shut down", { signal, ms: Date.now() - startedAt });
  process.exit(0);
}

holdTickObjectShape();

const dev = process.argv.includes("--dev");
const port = Number(process.env.PORT ?? 3000);
const app = next({ dev, dir: process.cwd(), port });
await app.prepare();
const handleWithNext = app.getRequestHandler();

const buildFile = (...parts: string[]) => path.join(process.cwd(), ".next", ...parts);
const readBuildFile = (file: string) => JSON.parse(readFileSync(file, "utf8"));
const readOptionalBuildFile = (file: string) => (existsSync(file) ? readBuildFile(file) : undefined);
// The development server has no build manifests: no REST shortcut, and only REST calls are counted.
const routesManifest = dev ? undefined : readBuildFile(buildFile("routes-manifest.json"));
const headerResolution =
  routesManifest && config.restFastPath()
    ? headerResolverFromBuild({
        routes: routesManifest,
        middleware: readOptionalBuildFile(buildFile("server", "middleware-manifest.json")),
        functions: readOptionalBuildFile(buildFile("server", "functions-config-manifest.json")),
      })
    : { unsupported: dev ? "the development server" : "REST_FAST_PATH is false" };
const configHeaders = typeof headerResolution === "function" ? headerResolution : undefined;
if (typeof headerResolution !== "function" && !dev) {
  log.warn("the REST API is served through Next.js's request pipeline", { reason: headerResolution.unsupported });
}

const routeOfNextPath = routesManifest ? nextRouteLabeler(routesManifest) : undefined;

const guardOptions = { appUrl: config.appUrl(), isRestPath: isPlainRestPath, inngestMode: config.inngestEnabled() };

// Headers within 10 s and the whole request within 30 s, else 408 (server/http/edge-guard.ts).
const server = createServer(EDGE_SERVER_TIMEOUTS, (received, res) => {
  serve(received, res).catch((error: unknown) => {
    log.error("request failed before it was handled", { method: received.method, error });
    res.destroy();
  });
});

const trustProxy = config.trustProxy();

async function serve(received: IncomingMessage, res: ServerResponse): Promise<void> {
  const startedAt = performance.now();
  stampPeerAddress(received);
  // Every answer carries the request's id; the REST dispatcher answers with the same one.
  const requestId = stampRequestId(received, trustProxy);
  res.setHeader("x-request-id", requestId);
  // Dot segments and backslashes refused, absolute form made origin form, `OPTIONS *` answered.
  const pathname = acceptRequestTarget(received, res, guardOptions.appUrl);
  if (pathname === undefined) return;
  const dispatchRest = configHeaders && isPlainRestPath(pathname) ? publishedRestDispatcher() : undefined;
  if (!dispatchRest && routeOfNextPath) {
    const route = routeOfNextPath(pathname);
    countWhenSent(received, res, route);
    // The REST dispatcher logs its own calls (route undefined: a REST path through Next.js's pipeline).
    if (route !== undefined) {
      res.once("close", () =>
        logRequest({
          method: received.method ?? "GET",
          route,
          status: res.statusCode,
          durationMs: performance.now() - startedAt,
          requestId,
          client: requestClientAddress(received.headers, trustProxy),
        }),
      );
    }
  }
  // Security headers, cross-site refusals and body limits, for every path (server/http/edge-guard.ts);
  // not on the development server, whose scripts need eval.
  const guarded = dev ? { req: received, securityHeaders: {} } : await guardRequest(received, res, pathname, guardOptions);
  if (!guarded) return;
  if (dispatchRest && configHeaders) {
    void serveRestRequest(dispatchRest, guarded.req, res, { ...guarded.securityHeaders, ...configHeaders(pathname) });
    return;
  }
  setSecurityHeaders(res, guarded.securityHeaders);
  await handleWithNext(guarded.req, res);
}

closeNext = () => app.close();
if (!shuttingDown) {
  // A port already taken must end the process (Next.js would log the error and keep it running, serving nothing).
  server.once("error", (error) => {
    log.error("the HTTP server could not start", { error, port });
    process.exit(1);
  });
  const host = config.host();
  server.listen(port, host, () => {
    console.log(`Ready on http://${host ? (host.includes(":") ? `[${host}]` : host) : "localhost"}:${port}`);
    // The embedded database admits this process only: the admin CLI's imports come through here.
    if (!config.databaseUrl()) process.once("exit", writeServiceAccess(localServiceUrl(host, port)));
  });
  stopHttp = (limitMs) => closeHttpServer(server, limitMs);
}

/** Where a process on this machine reaches the server: its bound address, loopback for a wildcard one. */
function localServiceUrl(host: string | undefined, listenPort: number): string {
  if (!host || host === "0.0.0.0") return `http://127.0.0.1:${listenPort}`;
  if (host === "::") return `http://[::1]:${listenPort}`;
  return `http://${host.includes(":") ? `[${host}]` : host}:${listenPort}`;
}

/**
 * Stops accepting connections and lets the requests in flight finish: a connection is closed as
 * soon as it is idle (keep-alive ones included), and whatever is still open after `limitMs` is cut.
 */
function closeHttpServer(httpServer: Server, limitMs: number): Promise<void> {
  return new Promise((resolve) => {
    const idleSweep = setInterval(() => httpServer.closeIdleConnections(), 100);
    const cut = setTimeout(() => {
      log.warn("requests still open at shutdown were cut", { limitMs });
      httpServer.closeAllConnections();
    }, limitMs);
    httpServer.close(() => {
      clearInterval(idleSweep);
      clearTimeout(cut);
      resolve();
    });
  });
}
