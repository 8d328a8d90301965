import { z } from "zod";
import { getPlan as getPlanService } from "../../../distributors/plans";
import { planSchema, successTrue, uuidInput } from "../../schemas";
import { distributorProcedure } from "../../trpc";

export const getPlan = distributorProcedure
  .meta({
    openapi: { method: "GET", path: "/api/v1/distributors/plans/{planId}", tags: ["Distributor: plans"], summary: "Get a plan" },
    errors: { failure: "Internal server error", validation: "message" },
    responses: { 400: "Plan ID must be valid", 404: "Plan not found" },
  })
  .input(z.object({ planId: uuidInput("Plan ID must be valid") }))
  .output(z.object({ success: successTrue, data: planSchema }))
  .query(async ({ ctx, input }) => ({ success: true as const, data: await getPlanService(ctx.db, input.planId) }));
