"use client";

import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { signInErrorMessage } from "./messages";

export function SignInForm({ callbackUrl, initialError }: { callbackUrl: string; initialError?: string }) {
  const router = useRouter();
  const [error, setError] = useState(initialError);
  const [pending, setPending] = useState(false);

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
        callbackUrl,
      });
      if (result?.ok && !result.error) {
        router.replace(callbackUrl);
        router.refresh();
        return;
      }
      setError(signInErrorMessage(result?.error ?? ""));
    } catch {
      setError("The service could not be reached; please try again.");
    }
    setPending(false);
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
        <input id="password" name="password" type="password" autoComplete="current-password" required />
      </div>
      <button type="submit" className="button button-primary" disabled={pending}>
        {pending ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
