import { getAppDb } from "@/server/db/instance";
import { refreshSession } from "@/server/portal/auth-routes";

// Rotates the portal session's refresh token: GET from a page whose access token ran out, POST from the keep-alive.
export const dynamic = "force-dynamic";

export async function GET(request: Request) {
  return refreshSession(await getAppDb(), request);
}

export async function POST(request: Request) {
  return refreshSession(await getAppDb(), request);
}
