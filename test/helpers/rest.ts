import { createCaller, appRouter } from "../../server/api/root";
import { createRestHandler } from "../../server/api/rest/dispatcher";
import type { Db } from "../../server/db/client";
import { apiClient, serveOnLoopback } from "./http";

/** The service's REST API over real HTTP on 127.0.0.1, backed by the given database. */
export async function startRestServer(db: Db) {
  const handler = createRestHandler({ router: appRouter, createCaller, getDb: () => db });
  const server = await serveOnLoopback(handler);
  return { ...server, api: apiClient(server.baseUrl) };
}
