import { z } from "zod";
import { listActivePlansCached } from "../../../distributors/plans";
import { emptyInput, planSchema, successTrue } from "../../schemas";
import { partnerProcedure } from "../../trpc";

export const listPlans = partnerProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/api/v1/integrations/partner/plans",
      tags: ["Partner: plans"],
      summary: "List the plans customers can be onboarded on",
      description: "Only plans with status `active`. Onboarding takes a plan's `id` as `planId` (or its `planType`).",
    },
    errors: { failure: "Failed to retrieve plans" },
  })
  .input(emptyInput)
  .output(z.object({ success: successTrue, data: z.array(planSchema) }))
  .query(async ({ ctx }) => ({ success: true as const, data: await listActivePlansCached(ctx.db) }));
