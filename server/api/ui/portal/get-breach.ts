import { z } from "zod";
import { PORTAL_BREACH_NOT_FOUND, portalBreach, portalCustomer } from "../../../portal/view";
import { uuidInput } from "../../schemas";
import { customerProcedure } from "../../trpc";
import { breachDetailOutput } from "./schemas";

/** One of the customer's breaches with its description and next steps; redacted for prospects. */
export const getBreach = customerProcedure
  .input(z.object({ breachId: uuidInput(PORTAL_BREACH_NOT_FOUND) }))
  .output(breachDetailOutput)
  .query(async ({ ctx, input }) => {
    const { locale } = await portalCustomer(ctx.db, ctx.customer.id);
    return portalBreach(ctx.db, ctx.customer.id, input.breachId, locale);
  });
