import { config } from "../config";
import type { Db } from "../db/client";
import { log } from "../log";
import { optOut, readUnsubscribeToken } from "./unsubscribe";

const text = (status: number, body: string, headers: Record<string, string> = {}) =>
  new Response(body, { status, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", ...headers } });

/**
 * POST /api/unsubscribe: the token comes in the query (the List-Unsubscribe URL) or in the form
 * of the unsubscribe page. A mail program's RFC 8058 one-click request (body
 * "List-Unsubscribe=One-Click") gets 200; the page's form is sent back to the page (303), which
 * then shows the result.
 */
export async function handleUnsubscribePost(db: Db, request: Request): Promise<Response> {
  const form = await request.formData().catch(() => undefined);
  const token = formValue(form, "token") ?? new URL(request.url).searchParams.get("token") ?? "";
  const target = readUnsubscribeToken(token);
  if (!target || !(await db.customer.findUnique({ where: { id: target.customerId }, select: { id: true } }))) {
    return text(400, "This unsubscribe link is not valid.");
  }
  const kinds = await optOut(db, target);
  log.info("notification opt-out", { customerId: target.customerId, kinds });
  if (formValue(form, "List-Unsubscribe") === "One-Click") return text(200, "Unsubscribed.");
  return text(303, "", { location: `${config.appUrl()}/unsubscribe?token=${encodeURIComponent(token)}` });
}

function formValue(form: FormData | undefined, name: string): string | undefined {
  const value = form?.get(name);
  return typeof value === "string" ? value : undefined;
}
