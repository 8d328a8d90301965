import { getAppDb } from "@/server/db/instance";
import { confirmSignIn, confirmSignInHead, confirmSignInPost } from "@/server/portal/auth-routes";

// The magic link's landing: consumes the token, sets the session cookie, redirects to /portal.
export const dynamic = "force-dynamic";

export async function GET(request: Request) {
  return confirmSignIn(await getAppDb(), request);
}

export const HEAD = confirmSignInHead;

/** The "Continue as <company>?" page's button. */
export async function POST(request: Request) {
  return confirmSignInPost(await getAppDb(), request);
}
