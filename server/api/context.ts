import type { UiSession } from "./ui/session";
import type { Db } from "../db/client";
import type { HeaderSource } from "../http/headers";
import { log, type Log } from "../log";

/**
 * What a request carries into a procedure. `response` is shared by reference with the REST
 * dispatcher (middlewares copy ctx, not this object), so a procedure can set a status or header.
 */
export interface Context {
  db: Db;
  headers: HeaderSource;
  requestId: string;
  /** The request's logger: every line carries its requestId (the X-Request-Id answered). */
  log: Log;
  /** `body`: a REST answer that is not the procedure's JSON (a CSV export, a PDF report), sent as it is with its own content-type header. */
  response: { status?: number; headers: Record<string, string>; body?: string | Uint8Array };
  /** The signed-in UI user (admin UI and portal calls through /api/trpc); absent on the REST API. */
  session?: UiSession;
}

export function createContext(db: Db, headers: HeaderSource, requestId: string, session?: UiSession): Context {
  return { db, headers, requestId, log: log.child({ requestId }), response: { headers: {} }, session };
}
