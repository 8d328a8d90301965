import { initTRPC, TRPCError } from "@trpc/server";
import { z } from "zod";
import { authenticateDistributor, authenticatePartner } from "../auth/api-keys";
import { MFA_ENROLMENT_REQUIRED, roleAllows, roleRefusal, staffAccess, type StaffRule } from "../auth/staff-roles";
import { AppError } from "../errors";
import { apiKeyActor, auditedCall } from "./audit";
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

/**
 * Partner API: SW-PARTNER-ID + a key of that partner. A distributor key is refused. Every
 * builder below that takes credentials audits its mutations (./audit.ts: each states `audit`).
 */
export const partnerProcedure = t.procedure
  .meta({ auth: "partner" })
  .use(async ({ ctx, type, meta, getRawInput, next }) => {
    const caller = await authenticatePartner(ctx.db, ctx.headers, { allowDistributorKey: false });
    return auditedCall(
      { type, meta, ctx, getRawInput, proceed: () => next({ ctx: { caller } }) },
      { actor: apiKeyActor(ctx, caller), distributorId: caller.distributorId, ctx: { caller } },
    );
  })
  .use(refuseNulCharacters);

/**
 * Partner API endpoints that a distributor may call on behalf of one of its own partners
 * (offboard, upgrade, downgrade, analytics, list customers; docs/api.md, "Credentials").
 */
export const partnerOrDistributorProcedure = t.procedure
  .meta({ auth: "partnerOrDistributor" })
  .use(async ({ ctx, type, meta, getRawInput, next }) => {
    const caller = await authenticatePartner(ctx.db, ctx.headers, { allowDistributorKey: true });
    return auditedCall(
      { type, meta, ctx, getRawInput, proceed: () => next({ ctx: { caller } }) },
      { actor: apiKeyActor(ctx, caller), distributorId: caller.distributorId, ctx: { caller } },
    );
  })
  .use(refuseNulCharacters);

/** Distributor API: SW-DISTRIBUTOR-ID + a key of that distributor. */
export const distributorProcedure = t.procedure
  .meta({ auth: "distributor" })
  .use(async ({ ctx, type, meta, getRawInput, next }) => {
    const caller = await authenticateDistributor(ctx.db, ctx.headers);
    return auditedCall(
      { type, meta, ctx, getRawInput, proceed: () => next({ ctx: { caller } }) },
      { actor: apiKeyActor(ctx, caller), distributorId: caller.distributorId, ctx: { caller } },
    );
  })
  .use(refuseNulCharacters);

/**
 * Admin UI: a signed-in staff member whose role has the procedure's rule (`staffRule` in its
 * meta, stated with `staffProcedure.requires(rule)` or `.meta(requires(rule))`; a procedure
 * without one is refused to all but owners, and test/admin/role-matrix.test.ts fails for it).
 * The role and MFA state are read on every call, so a change takes effect at once. ctx.staff
 * carries the distributor every query must be scoped to; nothing a staff member asks for may
 * reach outside it. Mutations are audited like the APIs'.
 */
const staffBase = t.procedure
  .meta({ auth: "none" })
  .use(async ({ ctx, type, meta, getRawInput, next }) => {
    const session = ctx.session;
    if (session?.kind !== "staff") throw new AppError("UNAUTHENTICATED", "Sign in to continue");
    const access = await staffAccess(ctx.db, session);
    if (!access) throw new AppError("UNAUTHENTICATED", "Sign in to continue");
    if (access.mustEnrolMfa && !meta?.beforeMfaEnrolment) throw new AppError("FORBIDDEN", MFA_ENROLMENT_REQUIRED);
    const rule = meta?.staffRule ?? "owner";
    if (!roleAllows(rule, access.role)) throw roleRefusal(rule, access.role);
    const staff = {
      id: session.staffId,
      distributorId: session.distributorId,
      email: access.email,
      sessionId: session.sessionId,
      role: access.role,
      mfaEnrolled: access.mfaEnrolled,
      mustEnrolMfa: access.mustEnrolMfa,
    };
    return auditedCall(
      { type, meta, ctx, getRawInput, proceed: () => next({ ctx: { staff } }) },
      { actor: { kind: "staff", staffId: staff.id, email: staff.email }, distributorId: staff.distributorId, ctx: { staff } },
    );
  })
  .use(refuseNulCharacters);

/** The meta that states a staff procedure's rule (for builders derived from staffProcedure). */
export function requires(rule: StaffRule): { staffRule: StaffRule } {
  return { staffRule: rule };
}

export const staffProcedure = Object.assign(staffBase, {
  /** The builder for procedures that need `rule` (server/auth/staff-roles.ts, STAFF_RULES). */
  requires: (rule: StaffRule) => staffBase.meta(requires(rule)),
});

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
