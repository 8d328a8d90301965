import { z } from "zod";
import { checkReadiness, DATABASE_UNAVAILABLE, MIGRATIONS_PENDING } from "../../health";
import { successTrue } from "../schemas";
import { publicProcedure } from "../trpc";

export const health = publicProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/api/v1/health",
      tags: ["General"],
      summary: "Health check (readiness)",
      description:
        "Readiness for load balancers: 200 when the database answers and has applied every migration this server ships; " +
        "503 naming the check that failed otherwise. No credentials. Liveness without the database: GET /api/live.",
      protect: false,
    },
    errors: { failure: "Health check failed" },
    responses: { 503: [DATABASE_UNAVAILABLE, MIGRATIONS_PENDING] },
  })
  .input(z.object({}))
  .output(z.object({ success: successTrue, status: z.literal("ok"), database: z.literal("ok") }))
  .query(async ({ ctx }) => {
    await checkReadiness(ctx.db);
    return { success: true as const, status: "ok" as const, database: "ok" as const };
  });
