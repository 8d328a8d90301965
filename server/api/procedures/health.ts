import { z } from "zod";
import { checkDatabase } from "../../health";
import { successTrue } from "../schemas";
import { publicProcedure } from "../trpc";

export const health = publicProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/api/v1/health",
      tags: ["General"],
      summary: "Health check",
      description: "Confirms the API is up and its database answers. No credentials.",
      protect: false,
    },
    errors: { failure: "Health check failed" },
    responses: { 503: "Database unavailable" },
  })
  .input(z.object({}))
  .output(z.object({ success: successTrue, status: z.literal("ok"), database: z.literal("ok") }))
  .query(async ({ ctx }) => {
    await checkDatabase(ctx.db);
    return { success: true as const, status: "ok" as const, database: "ok" as const };
  });
