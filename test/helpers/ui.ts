import { randomUUID } from "node:crypto";
import { createTRPCClient, httpLink, TRPCClientError } from "@trpc/client";
import { createContext } from "../../server/api/context";
import { createUiRequestHandler } from "../../server/api/ui/handler";
import { createUiCaller, type UiRouter } from "../../server/api/ui/root";
import { createStaffUser } from "../../server/auth/staff";
import type { StaffRole } from "../../server/auth/staff-roles";
import type { UiSession } from "../../server/api/ui/session";
import type { Db } from "../../server/db/client";
import { serveOnLoopback } from "./http";

/** A new staff member of the distributor (an owner unless told) and the session they would have after signing in. */
export async function createStaffSession(db: Db, distributorId: string, role: StaffRole = "owner"): Promise<UiSession> {
  const email = `staff-${randomUUID().slice(0, 8)}@admin.example`;
  const { id } = await createStaffUser(db, { distributorId, email, password: "a long staff password", role });
  return { kind: "staff", staffId: id, distributorId, email, name: null };
}

/** The UI procedures in-process, as server components call them. */
export function uiCallerAs(db: Db, session?: UiSession) {
  return createUiCaller(createContext(db, new Headers(), randomUUID(), session));
}

/**
 * The real /api/trpc handler over HTTP on 127.0.0.1, and the browser's tRPC client. The test
 * stands in for next-auth: a request's session is the one registered for its x-test-session header.
 */
export async function startUiServer(db: Db) {
  const sessions = new Map<string, UiSession>();
  const server = await serveOnLoopback(
    createUiRequestHandler({
      getDb: async () => db,
      getSession: async (request) => sessions.get(request.headers.get("x-test-session") ?? ""),
    }),
  );
  return {
    ...server,
    clientAs(session?: UiSession) {
      return createTRPCClient<UiRouter>({ links: [httpLink({ url: `${server.baseUrl}/api/trpc`, headers: this.headersAs(session) })] });
    },
    /** The headers that carry a session here, for requests a tRPC client would not send. */
    headersAs(session?: UiSession): Record<string, string> {
      const token = randomUUID();
      if (session) sessions.set(token, session);
      return { "x-test-session": token };
    },
  };
}

/** The error a tRPC client call failed with (fails the test when it succeeded). */
export async function clientError(call: Promise<unknown>): Promise<TRPCClientError<UiRouter>> {
  try {
    await call;
  } catch (error) {
    if (error instanceof TRPCClientError) return error as TRPCClientError<UiRouter>;
    throw error;
  }
  throw new Error("expected the call to fail");
}
