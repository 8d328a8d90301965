import { z } from "zod";
import { staffProcedure } from "../trpc";

/** The signed-in staff member, their role and MFA state, and their distributor (the admin UI's header and navigation). */
export const me = staffProcedure
  .requires("viewer")
  .meta({ beforeMfaEnrolment: true })
  .input(z.object({}).optional())
  .query(async ({ ctx }) => {
    const distributor = await ctx.db.distributor.findUniqueOrThrow({
      where: { id: ctx.staff.distributorId },
      select: { id: true, name: true },
    });
    return {
      staff: {
        id: ctx.staff.id,
        email: ctx.staff.email,
        role: ctx.staff.role,
        mfaEnrolled: ctx.staff.mfaEnrolled,
        mustEnrolMfa: ctx.staff.mustEnrolMfa,
      },
      distributor,
    };
  });
