// Liveness: the process answers HTTP. No database, no tRPC (GET /api/v1/health is readiness).
// Also the baseline of bench/api-overhead.ts: a bare route handler returning a constant.
export const dynamic = "force-dynamic";

export function GET() {
  return Response.json({ success: true, status: "live" });
}
