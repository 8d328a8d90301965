"use client";

import Link from "next/link";
import { useState, type FormEvent } from "react";
import { FormError } from "../_components/fields";
import { NewPasswordFields, newPasswordOf } from "../_components/password-fields";
import { trpc, useAction } from "../_lib/client";

export function ResetPasswordForm({ token }: { token: string }) {
  const { run, pending, error } = useAction();
  const [mismatch, setMismatch] = useState(false);
  const [done, setDone] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const newPassword = newPasswordOf(new FormData(event.currentTarget));
    setMismatch(newPassword === undefined);
    if (newPassword === undefined) return;
    if (await run(() => trpc.staffPassword.reset.mutate({ token, newPassword }), { refresh: false })) setDone(true);
  }

  if (done) {
    return (
      <div className="form">
        <p className="notice" role="status">
          Your password has been changed, and every session of your account has been signed out.
        </p>
        <p>
          <Link href="/admin/sign-in">Sign in with the new password</Link>
        </p>
      </div>
    );
  }
  return (
    <form className="card sign-in-form" onSubmit={submit} noValidate aria-label="Choose a new password">
      <FormError error={error} />
      <NewPasswordFields error={error} mismatch={mismatch} />
      <button type="submit" className="button button-primary" disabled={pending}>
        {pending ? "Saving…" : "Set new password"}
      </button>
    </form>
  );
}
