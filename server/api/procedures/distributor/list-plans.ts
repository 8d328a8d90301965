import { z } from "zod";
import { listPlans as listPlansService } from "../../../distributors/plans";
import { emptyInput, planSchema, successTrue } from "../../schemas";
import { distributorProcedure } from "../../trpc";

export const listPlans = distributorProcedure
  .meta({
    openapi: { method: "GET", path: "/api/v1/distributors/plans", tags: ["Distributor: plans"], summary: "List plans" },
    errors: { failure: "Internal server error" },
  })
  .input(emptyInput)
  .output(z.object({ success: successTrue, data: z.array(planSchema) }))
  .query(async ({ ctx }) => ({ success: true as const, data: await listPlansService(ctx.db) }));
