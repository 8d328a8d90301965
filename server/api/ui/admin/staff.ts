import { z } from "zod";
import {
  changeStaffRole,
  inviteStaff,
  listStaff,
  removeStaffMember,
  setBreakGlass,
  withdrawInvitation,
} from "../../../auth/staff-management";
import { resetStaffMfa } from "../../../auth/staff-mfa";
import { STAFF_ROLES } from "../../../auth/staff-roles";
import type { Queryable } from "../../../db/client";
import type { StaffContext } from "../../audit";
import { uuidInput } from "../../schemas";
import { router, staffProcedure } from "../../trpc";
import { iso } from "./inputs";

const staffIdInput = z.object({ staffId: uuidInput("Staff member not found") });
const roleInput = z.enum(STAFF_ROLES, { error: `Choose one of ${STAFF_ROLES.join(", ")}` });

/** A colleague's role and switches, as the audit row's before and after. */
function memberState(db: Queryable, distributorId: string, staffId: unknown) {
  return db.staffUser.findFirst({
    where: { id: String(staffId), distributorId },
    select: { id: true, email: true, role: true, breakGlass: true, totpEnabledAt: true },
  });
}

const memberAudit = (action: string, reload = true) => ({
  audit: {
    action,
    target: { type: "staff", key: "staffId" },
    before: (ctx: StaffContext, input: Record<string, unknown>) => memberState(ctx.db, ctx.staff.distributorId, input.staffId),
    ...(reload ? { reload: true as const } : {}),
  },
});

/** The distributor's staff (docs/admin-ui.md, "Staff"): anyone may see the list; owners manage it. */
export const staffRouter = router({
  list: staffProcedure.requires("viewer").query(async ({ ctx }) => {
    const { staff, invitations } = await listStaff(ctx.db, ctx.staff.distributorId);
    return {
      staff: staff.map((member) => ({ ...member, createdAt: iso(member.createdAt), lastLoginAt: iso(member.lastLoginAt) })),
      invitations: invitations.map((invitation) => ({
        ...invitation,
        createdAt: iso(invitation.createdAt),
        expiresAt: iso(invitation.expiresAt),
      })),
    };
  }),

  /** A one-time link (72 hours) e-mailed to the address, and answered here too. */
  invite: staffProcedure
    .requires("owner")
    .meta({ audit: { action: "staff.invite", target: { type: "staff-invitation" } } })
    .input(z.object({ email: z.string().trim().max(320).pipe(z.email("Enter a valid e-mail address")), role: roleInput }))
    .mutation(async ({ ctx, input }) => {
      const invitation = await inviteStaff(ctx.db, {
        distributorId: ctx.staff.distributorId,
        invitedBy: { id: ctx.staff.id, email: ctx.staff.email },
        ...input,
      });
      return { ...invitation, expiresAt: iso(invitation.expiresAt) };
    }),

  withdrawInvitation: staffProcedure
    .requires("owner")
    .meta({ audit: { action: "staff.invitation-withdraw", target: { type: "staff-invitation", key: "invitationId" } } })
    .input(z.object({ invitationId: uuidInput("Invitation not found") }))
    .mutation(({ ctx, input }) => withdrawInvitation(ctx.db, ctx.staff.distributorId, input.invitationId)),

  changeRole: staffProcedure
    .requires("owner")
    .meta(memberAudit("staff.role-change"))
    .input(staffIdInput.extend({ role: roleInput }))
    .mutation(({ ctx, input }) => changeStaffRole(ctx.db, { distributorId: ctx.staff.distributorId, ...input })),

  /** Break-glass accounts keep their password while single sign-on is required. */
  setBreakGlass: staffProcedure
    .requires("owner")
    .meta(memberAudit("staff.break-glass"))
    .input(staffIdInput.extend({ breakGlass: z.boolean() }))
    .mutation(({ ctx, input }) => setBreakGlass(ctx.db, { distributorId: ctx.staff.distributorId, ...input })),

  /** A colleague's lost authenticator: MFA off for them, their sessions ended. */
  resetMfa: staffProcedure
    .requires("owner")
    .meta(memberAudit("staff.mfa-reset"))
    .input(staffIdInput)
    .mutation(({ ctx, input }) => resetStaffMfa(ctx.db, ctx.staff.distributorId, input.staffId)),

  remove: staffProcedure
    .requires("owner")
    .meta(memberAudit("staff.remove", false))
    .input(staffIdInput)
    .mutation(({ ctx, input }) => removeStaffMember(ctx.db, { distributorId: ctx.staff.distributorId, staffId: input.staffId })),
});
