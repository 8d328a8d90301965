import { randomUUID } from "node:crypto";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { currentUiSession, uiSessionOfRequest, type UiSession } from "./session";
import type { Db } from "../../db/client";
import { getAppDb } from "../../db/instance";
import { AppError } from "../../errors";
import { cookieRequestRefusal, refusalResponse } from "../../http/cross-site";
import { log } from "../../log";
import { createContext } from "../context";
import { UI_MAX_BATCH_SIZE } from "./batch-size";
import { createUiCaller, uiRouter } from "./root";

/**
 * The UIs' procedures over tRPC's own protocol, with the session the request carries. An
 * AppError answers with its own status (401 without a session, 404 for another distributor's
 * partner, ...); the error formatter (trpc.ts) gives forms their field errors. A state-changing
 * call from another site, or not in JSON, is refused first (server/http/cross-site.ts); a batch
 * of more than UI_MAX_BATCH_SIZE calls is a 400 before any of them runs.
 */
export function createUiRequestHandler(options: {
  getDb: () => Promise<Db>;
  getSession: (request: Request) => Promise<UiSession | undefined>;
}): (request: Request) => Promise<Response> {
  return async (request) => {
    // Mutations come from the UIs' own pages as JSON; a form posted from another site (or another port of this host) changes nothing.
    const refusal = cookieRequestRefusal(request, { json: true });
    if (refusal) return refusalResponse(refusal);
    const db = await options.getDb();
    const session = await options.getSession(request);
    return fetchRequestHandler({
      endpoint: "/api/trpc",
      req: request,
      router: uiRouter,
      maxBatchSize: UI_MAX_BATCH_SIZE,
      createContext: () => createContext(db, request.headers, randomUUID(), session),
      responseMeta({ errors }) {
        const cause = errors[0]?.cause;
        return cause instanceof AppError ? { status: cause.status } : {};
      },
      onError({ error, path }) {
        if (!(error.cause instanceof AppError) && error.code === "INTERNAL_SERVER_ERROR") {
          log.error("UI procedure failed", { path, error });
        }
      },
    });
  };
}

/** /api/trpc: the session is the staff cookie's, or the portal cookie's for portal procedures. */
export const handleUiRequest = createUiRequestHandler({ getDb: getAppDb, getSession: uiSessionOfRequest });

/** A caller for server components: the same procedures and scope checks, in-process (the staff session unless given one). */
export async function uiCaller(session?: UiSession) {
  return createUiCaller(createContext(await getAppDb(), new Headers(), randomUUID(), session ?? (await currentUiSession("staff"))));
}
