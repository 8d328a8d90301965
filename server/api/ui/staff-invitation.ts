import { z } from "zod";
import { recordAuditAfter } from "../../audit/log";
import { acceptInvitation, invitationRefusal, invitationState } from "../../auth/staff-management";
import { newPasswordSchema } from "../../auth/staff-passwords";
import { ssoDistributorForEmail, ssoProviderId } from "../../auth/staff-sso";
import { requestClientAddress } from "../../client-address";
import { config } from "../../config";
import { publicProcedure } from "../trpc";

/**
 * Without a session: the page an invitation link opens (choose a password, or sign in by single
 * sign-on) and the sign-in page's single sign-on button (docs/admin-ui.md, "Staff").
 */
export const staffInvitationRouter = {
  /** Whether the link can still be used, for which address and distributor; consumes nothing. */
  state: publicProcedure.input(z.object({ token: z.string().max(200) })).query(async ({ ctx, input }) => {
    const { state, email, distributorId, distributorName, sso } = await invitationState(ctx.db, input.token);
    if (state !== "valid") return { valid: false as const, message: invitationRefusal(state) };
    return {
      valid: true as const,
      email: email!,
      distributorName: distributorName!,
      ssoProvider: sso ? ssoProviderId(distributorId!) : null,
    };
  }),

  /** Makes the account with the invited role and the chosen password; the link is spent. */
  accept: publicProcedure
    .meta({ audit: { action: "staff.invitation-accept", target: { type: "staff" }, self: true } })
    .input(z.object({ token: z.string().max(200), newPassword: newPasswordSchema, name: z.string().trim().max(200).optional() }))
    .mutation(async ({ ctx, input }) => {
      const staff = await acceptInvitation(ctx.db, { token: input.token, password: input.newPassword, name: input.name || undefined });
      await recordAuditAfter(ctx.db, {
        distributorId: staff.distributorId,
        actor: { kind: "staff", staffId: staff.id, email: staff.email },
        clientAddress: requestClientAddress(ctx.headers, config.trustProxy()),
        action: "staff.invitation-accept",
        target: { type: "staff", id: staff.id },
        after: { email: staff.email, role: staff.role },
      });
      return { email: staff.email };
    }),

  /** The single sign-on provider for an address's domain, when a distributor allows that domain. */
  ssoFor: publicProcedure.input(z.object({ email: z.string().trim().max(320) })).query(async ({ ctx, input }) => {
    const distributorId = await ssoDistributorForEmail(ctx.db, input.email);
    return { provider: distributorId ? ssoProviderId(distributorId) : null };
  }),
};
