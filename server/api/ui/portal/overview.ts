import { z } from "zod";
import { portalOverview } from "../../../portal/view";
import { customerProcedure } from "../../trpc";
import { overviewOutput } from "./schemas";

/** Threat score, breach counts and (not for prospects) the exposures by year. */
export const overview = customerProcedure
  .input(z.object({}).optional())
  .output(overviewOutput)
  .query(({ ctx }) => portalOverview(ctx.db, ctx.customer.id));
