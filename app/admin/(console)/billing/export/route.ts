import { TRPCError } from "@trpc/server";
import { uiCaller } from "@/server/api/ui/handler";
import { billingOverviewCsv } from "@/server/distributors/billing";
import { AppError } from "@/server/errors";

export const dynamic = "force-dynamic";

/** GET /admin/billing/export?month=YYYY-MM: the month's billing overview as a CSV download. */
export async function GET(request: Request): Promise<Response> {
  const month = new URL(request.url).searchParams.get("month") ?? undefined;
  let overview;
  try {
    overview = await (await uiCaller()).admin.overview.billing({ month });
  } catch (error) {
    const cause = error instanceof TRPCError ? error.cause : undefined;
    if (cause instanceof AppError && cause.code === "UNAUTHENTICATED") {
      return Response.redirect(new URL("/admin/sign-in", request.url), 303);
    }
    if (error instanceof TRPCError && error.code === "BAD_REQUEST") {
      return new Response("Month must be given as YYYY-MM\n", { status: 400, headers: { "content-type": "text/plain; charset=utf-8" } });
    }
    throw error;
  }
  return new Response(billingOverviewCsv(overview), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="billing-${overview.month}.csv"`,
      "cache-control": "no-store",
    },
  });
}
