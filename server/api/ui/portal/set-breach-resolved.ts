import { z } from "zod";
import { PORTAL_BREACH_NOT_FOUND, setPortalBreachResolved } from "../../../portal/view";
import { uuidInput } from "../../schemas";
import { customerProcedure } from "../../trpc";

/** Mark fixed / not fixed: the partner API's breach/status service, so the same webhook events fire. */
export const setBreachResolved = customerProcedure
  .input(z.object({ breachId: uuidInput(PORTAL_BREACH_NOT_FOUND), resolved: z.boolean() }))
  .mutation(({ ctx, input }) => setPortalBreachResolved(ctx.db, ctx.customer.id, input.breachId, input.resolved));
