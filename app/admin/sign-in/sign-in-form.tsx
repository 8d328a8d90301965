"use client";

import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { trpc } from "../_lib/client";
import { signInErrorMessage } from "./messages";

/**
 * E-mail and password, then (once MFA is set up) the authenticator's code; or single sign-on,
 * found by the address's domain or given by the page (`ssoProvider`, a distributor's sign-in link).
 */
export function SignInForm({
  callbackUrl,
  initialError,
  ssoProvider,
}: {
  callbackUrl: string;
  initialError?: string;
  ssoProvider?: string;
}) {
  const router = useRouter();
  const [error, setError] = useState(initialError);
  const [pending, setPending] = useState(false);
  const [askCode, setAskCode] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setError(undefined);
    try {
      const result = await signIn("staff", {
        redirect: false,
        email: String(form.get("email") ?? ""),
        password: String(form.get("password") ?? ""),
        otp: String(form.get("otp") ?? ""),
        callbackUrl,
      });
      if (result?.ok && !result.error) {
        router.replace(callbackUrl);
        router.refresh();
        return;
      }
      if (result?.error === "MfaRequired" || result?.error === "MfaInvalid") setAskCode(true);
      setError(signInErrorMessage(result?.error ?? ""));
    } catch {
      setError("The service could not be reached; please try again.");
    }
    setPending(false);
  }

  async function singleSignOn(form: HTMLFormElement | null) {
    setError(undefined);
    let provider = ssoProvider;
    if (!provider) {
      const email = String(new FormData(form ?? undefined).get("email") ?? "").trim();
      if (!email) {
        setError("Enter your e-mail address first: its domain tells which single sign-on to use.");
        return;
      }
      provider = (await trpc.staffInvitation.ssoFor.query({ email })).provider ?? undefined;
      if (!provider) {
        setError(
          "No single sign-on is set up for this address's domain. Sign in with your password, or use your organization's sign-in link.",
        );
        return;
      }
    }
    setPending(true);
    await signIn(provider, { callbackUrl });
  }

  return (
    <form className="card sign-in-form" onSubmit={submit} noValidate={false}>
      {error ? (
        <p className="form-error" role="alert" id="sign-in-error">
          {error}
        </p>
      ) : null}
      <div className="field">
        <label htmlFor="email">E-mail</label>
        <input
          id="email"
          name="email"
          type="email"
          autoComplete="username"
          required
          aria-describedby={error ? "sign-in-error" : undefined}
        />
      </div>
      <div className="field">
        <label htmlFor="password">Password</label>
        <input id="password" name="password" type="password" autoComplete="current-password" required={!ssoProvider} />
      </div>
      {askCode ? (
        <div className="field">
          <label htmlFor="otp">Authentication code</label>
          <input id="otp" name="otp" type="text" inputMode="text" autoComplete="one-time-code" required autoFocus />
          <p className="field-hint">The 6-digit code from your authenticator app, or a recovery code.</p>
        </div>
      ) : null}
      <div className="button-row">
        <button type="submit" className="button button-primary" disabled={pending}>
          {pending ? "Signing in…" : "Sign in"}
        </button>
        <button type="button" className="button" disabled={pending} onClick={(event) => void singleSignOn(event.currentTarget.form)}>
          Use single sign-on
        </button>
      </div>
    </form>
  );
}
