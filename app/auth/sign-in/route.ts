import { after } from "next/server";
import { getAppDb } from "@/server/db/instance";
import { log } from "@/server/log";
import { requestSignInLink } from "@/server/portal/auth-routes";

// The form of /portal/sign-in: a sign-in link by e-mail (docs/portal.md, "Sign in by e-mail").
export const dynamic = "force-dynamic";

export async function POST(request: Request) {
  const { response, deliver } = await requestSignInLink(await getAppDb(), request);
  if (deliver) after(() => deliver().catch((error: unknown) => log.error("portal sign-in e-mail failed", { error: String(error) })));
  return response;
}
