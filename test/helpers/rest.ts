import { appRouter } from "../../server/api/root";
import { createRestDispatcher } from "../../server/api/rest/dispatcher";
import type { Db } from "../../server/db/client";
import { apiClient, serveRestOnLoopback } from "./http";

/** The service's REST API over real HTTP on 127.0.0.1 (as the production server serves it), backed by the given database. */
export async function startRestServer(db: Db) {
  const server = await serveRestOnLoopback(createRestDispatcher({ router: appRouter, getDb: () => db }));
  return { ...server, api: apiClient(server.baseUrl) };
}
