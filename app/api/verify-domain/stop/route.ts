import { config } from "@/server/config";
import { getAppDb } from "@/server/db/instance";
import { stopVerificationMails } from "@/server/domains/mail-stops";

export const dynamic = "force-dynamic";

/** The stop page's form (docs/domains.md, "E-mail"): records the stop, then back to the page, which shows the result. */
export async function POST(request: Request) {
  const form = await request.formData().catch(() => undefined);
  const value = form?.get("token");
  const token = typeof value === "string" ? value : "";
  await stopVerificationMails(await getAppDb(), token);
  return new Response(null, {
    status: 303,
    headers: { location: `${config.appUrl()}/verify-domain/stop?token=${encodeURIComponent(token)}`, "cache-control": "no-store" },
  });
}
