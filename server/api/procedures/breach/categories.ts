import { z } from "zod";
import { listBreachCategories } from "../../../breaches/catalogue/categories";
import { emptyInput, successTrue } from "../../schemas";
import { partnerProcedure } from "../../trpc";
import { breachCategorySchema } from "./schemas";

export const categories = partnerProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/api/v1/integrations/breach-categories",
      tags: ["Partner: breaches"],
      summary: "List the breach categories",
      description:
        "One category per data class of the catalogue. Categories with `isBlacklist` (special categories of personal data) " +
        "never appear in breach responses and never count towards the threat score.",
    },
    errors: { failure: "Failed to retrieve breach categories" },
  })
  .input(emptyInput)
  .output(z.object({ success: successTrue, breachCategories: z.array(breachCategorySchema) }))
  .query(async ({ ctx }) => ({ success: true as const, breachCategories: await listBreachCategories(ctx.db) }));
