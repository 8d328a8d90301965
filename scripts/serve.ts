/**
 * The production HTTP server, started by `npm start` (scripts/start.ts) once the build is current
 * and the database migrated. Next.js serves every request, except REST API requests once Next.js
 * has loaded the REST route: those go straight to its dispatcher (server/http/rest-fast-path.ts,
 * rest-node.ts), with the headers next.config.js adds (read from the build's manifests) and the
 * same compression. Behind Next.js's request pipeline the REST route costs more server time than
 * the service's own work; served this way the same dispatcher answers about twice as many calls
 * per core (docs/measures.md). Everything else is `next start`'s: instrumentation (background
 * work), pages, the admin UI, /api/trpc, /api/auth, /api/inngest.
 */
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";
import next from "next";
import { countWhenSent, nextRouteLabeler } from "../server/http/next-route-metrics";
import { isPlainRestPath, publishedRestDispatcher } from "../server/http/rest-fast-path";
import { serveRestRequest, splitTarget } from "../server/http/rest-node";
import { headerResolverFromBuild } from "../server/http/route-headers";
import { log } from "../server/log";

const port = Number(process.env.PORT ?? 3000);
const app = next({ dev: false, dir: process.cwd(), port });
await app.prepare();
const handleWithNext = app.getRequestHandler();

const buildFile = (...parts: string[]) => path.join(process.cwd(), ".next", ...parts);
const readBuildFile = (file: string) => JSON.parse(readFileSync(file, "utf8"));
const readOptionalBuildFile = (file: string) => (existsSync(file) ? readBuildFile(file) : undefined);
const routesManifest = readBuildFile(buildFile("routes-manifest.json"));
const headerResolution = headerResolverFromBuild({
  routes: routesManifest,
  middleware: readOptionalBuildFile(buildFile("server", "middleware-manifest.json")),
  functions: readOptionalBuildFile(buildFile("server", "functions-config-manifest.json")),
});
const configHeaders = typeof headerResolution === "function" ? headerResolution : undefined;
if (typeof headerResolution !== "function") {
  log.warn("the REST API is served through Next.js's request pipeline", { reason: headerResolution.unsupported });
}

const routeOfNextPath = nextRouteLabeler(routesManifest);

const server = createServer((req, res) => {
  const { path: pathname } = splitTarget(req.url);
  const dispatchRest = configHeaders && isPlainRestPath(pathname) ? publishedRestDispatcher() : undefined;
  if (dispatchRest && configHeaders) {
    void serveRestRequest(dispatchRest, req, res, configHeaders(pathname));
    return;
  }
  countWhenSent(req, res, routeOfNextPath(pathname));
  void handleWithNext(req, res);
});

server.listen(port, () => console.log(`Ready on http://localhost:${port}`));

// The database registers its own close on these signals (server/db/instance.ts); with a listener
// present Node no longer exits by itself, so the server does, after Next.js has closed.
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    server.close();
    server.closeIdleConnections();
    void app
      .close()
      .catch((error) => log.error("closing Next.js failed", { error }))
      .finally(() => process.exit(signal === "SIGINT" ? 130 : 143));
  });
}
