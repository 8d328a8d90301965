import { randomUUID } from "node:crypto";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { currentUiSession } from "../../auth/ui-session";
import { getAppDb } from "../../db/instance";
import { AppError } from "../../errors";
import { log } from "../../log";
import { createContext } from "../context";
import { createUiCaller, uiRouter } from "./root";

/** /api/trpc: the UIs' procedures over tRPC's own protocol, with the session of the request. */
export async function handleUiRequest(request: Request): Promise<Response> {
  const db = await getAppDb();
  const session = await currentUiSession();
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req: request,
    router: uiRouter,
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
}

/** A caller for server components: the same procedures and scope checks, in-process. */
export async function uiCaller() {
  const session = await currentUiSession();
  return createUiCaller(createContext(await getAppDb(), new Headers(), randomUUID(), session));
}
