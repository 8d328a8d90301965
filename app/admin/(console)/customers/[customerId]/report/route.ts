import { TRPCError } from "@trpc/server";
import { uiCaller } from "@/server/api/ui/handler";
import { AppError } from "@/server/errors";

export const dynamic = "force-dynamic";

/**
 * GET /admin/customers/<id>/report?kind=executive&from=&to= (or kind=prospect): the customer's
 * report as a PDF download (docs/customers.md, "Reports"), for staff of its distributor.
 */
export async function GET(request: Request, { params }: { params: Promise<{ customerId: string }> }): Promise<Response> {
  const { customerId } = await params;
  const query = new URL(request.url).searchParams;
  let report;
  try {
    report = await (
      await uiCaller()
    ).admin.customers.report({
      customerId,
      kind: query.get("kind") === "prospect" ? "prospect" : "executive",
      from: query.get("from") ?? undefined,
      to: query.get("to") ?? undefined,
    });
  } catch (error) {
    const cause = error instanceof TRPCError ? error.cause : undefined;
    if (cause instanceof AppError && cause.code === "UNAUTHENTICATED")
      return Response.redirect(new URL("/admin/sign-in", request.url), 303);
    if (cause instanceof AppError && ["BAD_REQUEST", "NOT_FOUND", "UNPROCESSABLE"].includes(cause.code)) {
      return new Response(`${cause.message}\n`, { status: cause.status, headers: { "content-type": "text/plain; charset=utf-8" } });
    }
    if (error instanceof TRPCError && error.code === "BAD_REQUEST") {
      return new Response("The report's kind and dates are not valid\n", {
        status: 400,
        headers: { "content-type": "text/plain; charset=utf-8" },
      });
    }
    throw error;
  }
  return new Response(Buffer.from(report.base64, "base64"), {
    headers: {
      "content-type": "application/pdf",
      "content-disposition": `attachment; filename="${report.filename}"`,
      "cache-control": "private, no-store",
    },
  });
}
