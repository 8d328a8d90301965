import { z } from "zod";
import { unsubscribeStatus } from "../../notifications/unsubscribe";
import { publicProcedure } from "../trpc";

/** The unsubscribe page: the signed token is the only credential (no session). */
export const unsubscribe = publicProcedure
  .input(z.object({ token: z.string().max(2_000) }))
  .query(async ({ ctx, input }) => unsubscribeStatus(ctx.db, input.token));
