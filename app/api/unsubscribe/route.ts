import { getAppDb } from "@/server/db/instance";
import { handleUnsubscribePost } from "@/server/notifications/unsubscribe-http";

export const dynamic = "force-dynamic";

/** One-click unsubscribe (List-Unsubscribe, RFC 8058) and the unsubscribe page's form. */
export async function POST(request: Request) {
  return handleUnsubscribePost(await getAppDb(), request);
}
