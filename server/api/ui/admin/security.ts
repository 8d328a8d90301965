import { z } from "zod";
import { beginMfaEnrolment, confirmMfaEnrolment, setStaffMfaRequired, unusedRecoveryCodes } from "../../../auth/staff-mfa";
import { STAFF_ROLES } from "../../../auth/staff-roles";
import { getSsoSettings, removeSsoSettings, setSsoSettings } from "../../../auth/staff-sso";
import { config } from "../../../config";
import type { StaffContext } from "../../audit";
import { requires, router, staffProcedure } from "../../trpc";

const ssoState = (ctx: StaffContext) => getSsoSettings(ctx.db, ctx.staff.distributorId, config.appUrl());
const mfaPolicy = async (ctx: StaffContext) =>
  ctx.db.distributor.findUniqueOrThrow({ where: { id: ctx.staff.distributorId }, select: { staffMfaRequired: true } });

/**
 * The distributor's sign-in policy (docs/admin-ui.md, "Single sign-on", "MFA"): single sign-on
 * and "MFA required", set by owners; and a staff member's own MFA enrolment.
 */
export const securityRouter = router({
  /** The settings without the client secret (never answered), and the redirect URI to register. */
  settings: staffProcedure.requires("viewer").query(async ({ ctx }) => ({
    sso: await ssoState(ctx),
    mfaRequired: (await mfaPolicy(ctx)).staffMfaRequired,
  })),

  setSso: staffProcedure
    .requires("owner")
    .meta({ audit: { action: "distributor.sso-set", target: { type: "distributor" }, before: ssoState, reload: true } })
    .input(
      z.object({
        issuer: z.string().trim().min(1, "Enter the issuer URL").max(500),
        clientId: z.string().trim().min(1, "Enter the client id").max(500),
        /** Left empty: the stored secret stays. */
        clientSecret: z.string().max(2000).optional(),
        required: z.boolean(),
        allowedDomains: z.array(z.string().max(253)).max(50),
        jitRole: z.enum(STAFF_ROLES).nullable(),
      }),
    )
    .mutation(({ ctx, input }) => setSsoSettings(ctx.db, ctx.staff.distributorId, input, config.appUrl())),

  removeSso: staffProcedure
    .requires("owner")
    .meta({ audit: { action: "distributor.sso-off", target: { type: "distributor" }, before: ssoState, reload: true } })
    .input(z.object({}).optional())
    .mutation(({ ctx }) => removeSsoSettings(ctx.db, ctx.staff.distributorId)),

  setMfaRequired: staffProcedure
    .requires("owner")
    .meta({ audit: { action: "distributor.mfa-required", target: { type: "distributor" }, before: mfaPolicy, reload: true } })
    .input(z.object({ required: z.boolean() }))
    .mutation(({ ctx, input }) => setStaffMfaRequired(ctx.db, ctx.staff.distributorId, input.required)),

  /** The signed-in staff member's own MFA. */
  mfa: router({
    status: staffProcedure.meta({ ...requires("viewer"), beforeMfaEnrolment: true }).query(async ({ ctx }) => ({
      enrolled: ctx.staff.mfaEnrolled,
      mustEnrol: ctx.staff.mustEnrolMfa,
      recoveryCodesLeft: ctx.staff.mfaEnrolled ? await unusedRecoveryCodes(ctx.db, ctx.staff.id) : 0,
    })),

    /** A new seed as a QR code and as text (in this answer only). */
    begin: staffProcedure
      .meta({
        ...requires("viewer"),
        beforeMfaEnrolment: true,
        audit: { skip: "stores a seed not yet in use; the enrolment is audited when confirmed" },
      })
      .input(z.object({}).optional())
      .mutation(({ ctx }) => beginMfaEnrolment(ctx.db, ctx.staff.id)),

    /** The first code from the app turns MFA on; the ten recovery codes are in this answer only. */
    confirm: staffProcedure
      .meta({
        ...requires("viewer"),
        beforeMfaEnrolment: true,
        audit: { action: "staff.mfa-enrol", target: { type: "staff", key: "$actor" } },
      })
      .input(
        z.object({
          code: z
            .string()
            .trim()
            .regex(/^\d{6}$/, "Enter the 6-digit code from the app"),
        }),
      )
      .mutation(({ ctx, input }) => confirmMfaEnrolment(ctx.db, ctx.staff.id, input.code)),
  }),
});
