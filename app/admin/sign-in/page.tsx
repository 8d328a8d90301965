import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { currentUiSession } from "@/server/api/ui/session";
import { textParam, type SearchParams } from "../_lib/server";
import { ssoProviderId } from "@/server/auth/staff-sso";
import { signInErrorMessage } from "./messages";
import { SignInForm } from "./sign-in-form";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const callbackUrl = safeCallback(textParam(params.callbackUrl));
  if ((await currentUiSession("staff"))?.kind === "staff") redirect(callbackUrl);
  const error = textParam(params.error);
  // A distributor's sign-in link: /admin/sign-in?sso=<distributor id> (docs/admin-ui.md, "Single sign-on").
  const ssoParam = UUID.test(textParam(params.sso) ?? "") ? textParam(params.sso) : undefined;
  return (
    <main className="sign-in" id="main">
      <h1>Sign in</h1>
      <p className="muted">Distributor staff: manage your partners, their API keys, webhooks and billing.</p>
      {textParam(params.signedOut) && !error ? (
        <p role="status">{textParam(params.signedOut) === "everywhere" ? "You have signed out everywhere." : "You have signed out."}</p>
      ) : null}
      <SignInForm
        callbackUrl={callbackUrl}
        initialError={error ? signInErrorMessage(error) : undefined}
        ssoProvider={ssoParam ? ssoProviderId(ssoParam) : undefined}
      />
      <p>
        <Link href="/admin/forgot-password">Forgot your password?</Link>
      </p>
    </main>
  );
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Only a path of the admin UI itself (never another site: no open redirect). */
function safeCallback(url: string | undefined): string {
  return url && /^\/admin(?:[/?#]|$)/.test(url) && !url.startsWith("//") ? url : "/admin";
}
