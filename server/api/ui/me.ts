import { z } from "zod";
import { staffProcedure } from "../trpc";

/** The signed-in staff member and their distributor (the admin UI's header). */
export const me = staffProcedure.input(z.object({}).optional()).query(async ({ ctx }) => {
  const distributor = await ctx.db.distributor.findUniqueOrThrow({
    where: { id: ctx.staff.distributorId },
    select: { id: true, name: true },
  });
  return { staff: { id: ctx.staff.id, email: ctx.staff.email }, distributor };
});
