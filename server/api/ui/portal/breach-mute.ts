import { z } from "zod";
import { isBreachMuted, setBreachMuted as setMuted } from "../../../customers/mutes";
import { PORTAL_BREACH_NOT_FOUND } from "../../../portal/view";
import { uuidInput } from "../../schemas";
import { customerProcedure } from "../../trpc";

/** Whether the customer muted this breach's alerts (docs/notifications.md, "Quiet by design"). */
export const breachMuted = customerProcedure
  .input(z.object({ breachId: uuidInput(PORTAL_BREACH_NOT_FOUND) }))
  .query(async ({ ctx, input }) => ({ muted: await isBreachMuted(ctx.db, ctx.customer.id, input.breachId) }));

/** Mutes or unmutes every channel's notices about this breach, for good (the partner can set an end). */
export const setBreachMuted = customerProcedure
  .input(z.object({ breachId: uuidInput(PORTAL_BREACH_NOT_FOUND), muted: z.boolean() }))
  .mutation(({ ctx, input }) => setMuted(ctx.db, ctx.customer.id, input.breachId, input.muted));
