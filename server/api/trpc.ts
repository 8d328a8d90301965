import { initTRPC, TRPCError } from "@trpc/server";
import { z } from "zod";
import { authenticateDistributor, authenticatePartner } from "../auth/api-keys";
import { AppError } from "../errors";
import { isAccessExpired, PORTAL_SESSION_EXPIRED } from "../portal/sessions";
import type { Context } from "./context";
import type { AppMeta } from "./meta";
import { nulCharacterPath } from "./schemas";

/**
 * For the UIs' tRPC calls (/api/trpc): an AppError keeps its message and status, and a zod
 * failure carries its issues so forms can show them beside their fields. (The REST dispatcher
 * maps errors itself and does not use this shape.)
 */
const t = initTRPC
  .context<Context>()
  .meta<AppMeta>()
  .create({
    errorFormatter({ shape, error }) {
      const cause = error.cause;
      if (cause instanceof AppError) {
        return { ...shape, message: cause.message, data: { ...shape.data, httpStatus: cause.status, appCode: cause.code } };
      }
      if (error.code === "BAD_REQUEST" && cause && "issues" in cause && Array.isArray(cause.issues)) {
        const fieldErrors: Record<string, string> = {};
        for (const issue of cause.issues as Array<{ path: PropertyKey[]; message: string }>) {
          fieldErrors[issue.path.map(String).join(".")] ??= issue.message;
        }
        return { ...shape, message: "Please correct the highlighted fields", data: { ...shape.data, fieldErrors } };
      }
      if (error.code === "INTERNAL_SERVER_ERROR") return { ...shape, message: "Something went wrong; please try again" };
      return shape;
    },
  });

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/**
 * A NUL character anywhere in the input is a 400 naming its field, before the input's schema runs
 * (docs/api.md, "Text fields"). Every builder below adds it after its credential check, as the
 * schema comes after the credentials. Paths whose validation messages carry no field name get
 * one in the message itself.
 */
const refuseNulCharacters = t.middleware(async ({ meta, getRawInput, next }) => {
  const path = nulCharacterPath(await getRawInput());
  if (!path) return next();
  const style = meta?.errors?.validation ?? "prefixed";
  const field = path.map(String).join(".");
  const message =
    style === "prefixed" || style === "field" || !field ? "Must not contain a NUL character" : `${field} must not contain a NUL character`;
  throw new TRPCError({ code: "BAD_REQUEST", cause: new z.ZodRealError([{ code: "custom", path, message, input: undefined }]) });
});

/** No credentials (health). */
export const publicProcedure = t.procedure.meta({ auth: "none" }).use(refuseNulCharacters);

/** Partner API: SW-PARTNER-ID + a key of that partner. A distributor key is refused. */
export const partnerProcedure = t.procedure
  .meta({ auth: "partner" })
  .use(async ({ ctx, next }) => {
    const caller = await authenticatePartner(ctx.db, ctx.headers, { allowDistributorKey: false });
    return next({ ctx: { caller } });
  })
  .use(refuseNulCharacters);

/**
 * Partner API endpoints that a distributor may call on behalf of one of its own partners
 * (offboard, upgrade, downgrade, analytics, list customers; docs/api.md, "Credentials").
 */
export const partnerOrDistributorProcedure = t.procedure
  .meta({ auth: "partnerOrDistributor" })
  .use(async ({ ctx, next }) => {
    const caller = await authenticatePartner(ctx.db, ctx.headers, { allowDistributorKey: true });
    return next({ ctx: { caller } });
  })
  .use(refuseNulCharacters);

/** Distributor API: SW-DISTRIBUTOR-ID + a key of that distributor. */
export const distributorProcedure = t.procedure
  .meta({ auth: "distributor" })
  .use(async ({ ctx, next }) => {
    const caller = await authenticateDistributor(ctx.db, ctx.headers);
    return next({ ctx: { caller } });
  })
  .use(refuseNulCharacters);

/**
 * Admin UI: a signed-in staff member. ctx.staff carries the distributor every query must be
 * scoped to; nothing a staff member asks for may reach outside it.
 */
export const staffProcedure = t.procedure
  .meta({ auth: "none" })
  .use(async ({ ctx, next }) => {
    const session = ctx.session;
    if (session?.kind !== "staff") throw new AppError("UNAUTHENTICATED", "Sign in to continue");
    return next({
      ctx: { staff: { id: session.staffId, distributorId: session.distributorId, email: session.email, sessionId: session.sessionId } },
    });
  })
  .use(refuseNulCharacters);

/**
 * Customer portal: a customer signed in with a magic link, whose access token is current (an
 * expired one is refreshed at /auth/refresh first). ctx.customer.id scopes every query; nothing
 * of another customer is reachable.
 */
export const customerProcedure = t.procedure
  .meta({ auth: "none" })
  .use(async ({ ctx, next }) => {
    const session = ctx.session;
    if (session?.kind !== "customer") throw new AppError("UNAUTHENTICATED", "Sign in to continue");
    if (isAccessExpired(session.accessExpiresAt)) throw new AppError("UNAUTHENTICATED", PORTAL_SESSION_EXPIRED);
    const customer = {
      id: session.customerId,
      portalUserId: session.portalUserId,
      email: session.email,
      accessExpiresAt: session.accessExpiresAt,
    };
    return next({ ctx: { customer } });
  })
  .use(refuseNulCharacters);
