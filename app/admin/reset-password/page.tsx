import type { Metadata } from "next";
import Link from "next/link";
import { linkTokenParam } from "@/app/_lib/link-token";
import { uiCaller } from "@/server/api/ui/handler";
import type { SearchParams } from "../_lib/server";
import { ResetPasswordForm } from "./reset-password-form";

// The URL carries the one-time token: no Referer leaves this page.
export const metadata: Metadata = { title: "Choose a new password", referrer: "no-referrer" };

/** The page the e-mailed reset link opens (docs/admin-ui.md); the link is spent only when the form is sent. */
export default async function ResetPasswordPage({ searchParams }: { searchParams: SearchParams }) {
  const token = linkTokenParam((await searchParams).token, 200);
  const link = await (await uiCaller()).staffPassword.linkState({ token });
  return (
    <main className="sign-in" id="main">
      <h1>Choose a new password</h1>
      {link.valid ? (
        <ResetPasswordForm token={token} />
      ) : (
        <>
          <p className="form-error" role="alert">
            {link.message}
          </p>
          <p>
            <Link href="/admin/forgot-password">Ask for a new link</Link>
          </p>
        </>
      )}
    </main>
  );
}
