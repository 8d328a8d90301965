import { z } from "zod";
import { portalCustomer } from "../../../portal/view";
import { customerProcedure } from "../../trpc";

/** The signed-in customer (the portal's header, locale and view), and when the access token runs out. */
export const me = customerProcedure.input(z.object({}).optional()).query(async ({ ctx }) => ({
  ...(await portalCustomer(ctx.db, ctx.customer.id)),
  email: ctx.customer.email,
  accessExpiresAt: ctx.customer.accessExpiresAt,
}));
