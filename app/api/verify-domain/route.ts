import { config } from "@/server/config";
import { getAppDb } from "@/server/db/instance";
import { consumeVerificationLink } from "@/server/domains/email-link";

export const dynamic = "force-dynamic";

/** The verification page's form (docs/domains.md, "E-mail"): follows the link, then back to the page, which shows the result. */
export async function POST(request: Request) {
  const form = await request.formData().catch(() => undefined);
  const value = form?.get("token");
  const token = typeof value === "string" ? value : "";
  await consumeVerificationLink(await getAppDb(), token);
  return new Response(null, {
    status: 303,
    headers: { location: `${config.appUrl()}/verify-domain?token=${encodeURIComponent(token)}`, "cache-control": "no-store" },
  });
}
