import type { Metadata } from "next";
import Link from "next/link";
import { ForgotPasswordForm } from "./forgot-password-form";

export const metadata: Metadata = { title: "Forgot password" };

/** Asks for a reset link by e-mail (docs/admin-ui.md): the answer is the same for every address. */
export default function ForgotPasswordPage() {
  return (
    <main className="sign-in" id="main">
      <h1>Forgot password</h1>
      <p className="muted">
        Enter the e-mail address of your admin account. We send a link to choose a new password; it works once, within an hour.
      </p>
      <ForgotPasswordForm />
      <p>
        <Link href="/admin/sign-in">Back to sign-in</Link>
      </p>
    </main>
  );
}
