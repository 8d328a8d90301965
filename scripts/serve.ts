/**
 * The production HTTP server, started by `npm start` (scripts/start.ts) once the build is current
 * and the database migrated. Next.js serves every request, except REST API requests once Next.js
 * has loaded the REST route: those go straight to its handler (server/http/rest-fast-path.ts),
 * with the headers next.config.js adds (read from the build's manifests) and the same
 * compression. Behind Next.js's request pipeline the REST route costs more server time than the
 * service's own work; served this way the same handler answers about twice as many calls per core
 * (docs/measures.md). Everything else is `next start`'s: instrumentation (background work), pages,
 * the admin UI, /api/trpc, /api/auth, /api/inngest.
 */
import { existsSync, readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import path from "node:path";
import next from "next";
import { sendFetchResponse, toFetchRequest, UnreadableRequestError } from "../server/http/fetch-bridge";
import { MAX_REST_BODY_BYTES } from "../server/api/rest/limits";
import { isPlainRestPath, publishedRestHandler, type FetchHandler } from "../server/http/rest-fast-path";
import { headerResolverFromBuild } from "../server/http/route-headers";
import { log } from "../server/log";

const port = Number(process.env.PORT ?? 3000);
const app = next({ dev: false, dir: process.cwd(), port });
await app.prepare();
const handleWithNext = app.getRequestHandler();

const buildFile = (...parts: string[]) => path.join(process.cwd(), ".next", ...parts);
const readBuildFile = (file: string) => JSON.parse(readFileSync(file, "utf8"));
const readOptionalBuildFile = (file: string) => (existsSync(file) ? readBuildFile(file) : undefined);
const configHeaders = headerResolverFromBuild({
  routes: readBuildFile(buildFile("routes-manifest.json")),
  middleware: readOptionalBuildFile(buildFile("server", "middleware-manifest.json")),
  functions: readOptionalBuildFile(buildFile("server", "functions-config-manifest.json")),
});
if (typeof configHeaders !== "function") {
  log.warn("the REST API is served through Next.js's request pipeline", { reason: configHeaders.unsupported });
}

const server = createServer((req, res) => {
  const target = req.url ?? "/";
  const queryAt = target.indexOf("?");
  const pathname = queryAt === -1 ? target : target.slice(0, queryAt);
  const restHandler = isPlainRestPath(pathname) ? publishedRestHandler() : undefined;
  if (restHandler && typeof configHeaders === "function") void serveRest(restHandler, req, res, configHeaders(pathname));
  else void handleWithNext(req, res);
});

async function serveRest(handler: FetchHandler, req: IncomingMessage, res: ServerResponse, headers: Record<string, string>) {
  try {
    const response = await handler(await toFetchRequest(req, MAX_REST_BODY_BYTES));
    await sendFetchResponse(req, res, response, headers);
  } catch (error) {
    if (res.headersSent || req.socket.destroyed) {
      res.destroy();
      return;
    }
    const unreadable = error instanceof UnreadableRequestError;
    if (!unreadable) log.error("REST request failed outside the handler", { method: req.method, error });
    res.writeHead(unreadable ? 400 : 500, { ...headers, "content-type": "application/json; charset=utf-8" });
    res.end(JSON.stringify({ success: false, error: unreadable ? "Bad request" : "Internal server error" }));
  }
}

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
