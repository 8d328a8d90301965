import { z } from "zod";
import { requestStaffPasswordReset, resetLinkRefusal, resetLinkState, resetStaffPassword } from "../../auth/staff-password-reset";
import { newPasswordSchema } from "../../auth/staff-passwords";
import { requestClientAddress } from "../../client-address";
import { config } from "../../config";
import { publicProcedure } from "../trpc";

/**
 * "Forgot password" on the admin sign-in page and the page its e-mailed link opens: no session,
 * the e-mail address and then the link's token are all they take (docs/admin-ui.md).
 */
export const staffPasswordRouter = {
  /** The same answer for every address (counted per address and per client). */
  requestReset: publicProcedure
    .meta({ audit: { skip: "changes no account: a link is e-mailed, and only to an existing one" } })
    .input(z.object({ email: z.string().trim().max(320).pipe(z.email("Enter a valid e-mail address")) }))
    .mutation(async ({ ctx, input }) => {
      const { message } = await requestStaffPasswordReset(ctx.db, {
        email: input.email,
        clientAddress: requestClientAddress(ctx.headers, config.trustProxy()),
      });
      return { message };
    }),
  /** Whether the link's token can still be used (the reset page shows its form only then); consumes nothing. */
  linkState: publicProcedure.input(z.object({ token: z.string().max(200) })).query(async ({ ctx, input }) => {
    const state = await resetLinkState(ctx.db, input.token);
    return state === "valid" ? { valid: true as const } : { valid: false as const, message: resetLinkRefusal(state) };
  }),
  /** Sets the new password with the link's token; every session of the account ends. */
  reset: publicProcedure
    .meta({ audit: { action: "staff.password-reset", target: { type: "staff" }, self: true } })
    .input(z.object({ token: z.string().max(200), newPassword: newPasswordSchema }))
    .mutation(async ({ ctx, input }) => {
      await resetStaffPassword(ctx.db, { ...input, clientAddress: requestClientAddress(ctx.headers, config.trustProxy()) });
      return { reset: true };
    }),
};
