import { z } from "zod";
import { changeStaffPassword, newPasswordSchema } from "../../../auth/staff-passwords";
import { endStaffSessions } from "../../../auth/staff-sessions";
import { staffProcedure } from "../../trpc";

/** The signed-in staff member's own account (/admin/account): password and sessions (docs/admin-ui.md). */
export const accountRouter = {
  /** The current password, then the new one; the staff member's other sessions end, this one goes on. */
  changePassword: staffProcedure
    .requires("viewer")
    .meta({ audit: { action: "staff.password-change", target: { type: "staff", key: "$actor" } } })
    .input(z.object({ currentPassword: z.string().min(1, "Enter your current password").max(1_000), newPassword: newPasswordSchema }))
    .mutation(({ ctx, input }) =>
      changeStaffPassword(ctx.db, {
        staffUserId: ctx.staff.id,
        currentPassword: input.currentPassword,
        newPassword: input.newPassword,
        sessionId: ctx.staff.sessionId,
      }),
    ),
  /** Ends every session of the staff member, this one too (the page then signs out). */
  signOutEverywhere: staffProcedure
    .requires("viewer")
    .meta({ audit: { action: "staff.sign-out-everywhere", target: { type: "staff", key: "$actor" } } })
    .input(z.object({}).optional())
    .mutation(async ({ ctx }) => ({ endedSessions: await endStaffSessions(ctx.db, ctx.staff.id, "sign-out-everywhere") })),
};
