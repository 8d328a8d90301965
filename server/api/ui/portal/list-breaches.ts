import { z } from "zod";
import { portalBreaches, portalCustomer } from "../../../portal/view";
import { customerProcedure } from "../../trpc";
import { breachListOutput } from "./schemas";

/** The customer's breaches, newest first, texts in the customer's locale; redacted for prospects. */
export const listBreaches = customerProcedure
  .input(z.object({}).optional())
  .output(breachListOutput)
  .query(async ({ ctx }) => {
    const { locale } = await portalCustomer(ctx.db, ctx.customer.id);
    return portalBreaches(ctx.db, ctx.customer.id, locale);
  });
