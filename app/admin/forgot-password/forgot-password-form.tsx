"use client";

import { useState, type FormEvent } from "react";
import { FormError, TextField } from "../_components/fields";
import { trpc, useAction } from "../_lib/client";

export function ForgotPasswordForm() {
  const { run, pending, error } = useAction();
  const [answer, setAnswer] = useState<string>();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget).get("email") ?? "");
    const result = await run(() => trpc.staffPassword.requestReset.mutate({ email }), { refresh: false });
    if (result) setAnswer(result.message);
  }

  if (answer) {
    return (
      <p className="notice" role="status">
        {answer}
      </p>
    );
  }
  return (
    <form className="card sign-in-form" onSubmit={submit} noValidate aria-label="Forgot password">
      <FormError error={error} />
      <TextField
        name="email"
        label="E-mail"
        type="email"
        autoComplete="username"
        required
        maxLength={320}
        error={error?.fieldErrors.email}
      />
      <button type="submit" className="button button-primary" disabled={pending}>
        {pending ? "Sending…" : "Send reset link"}
      </button>
    </form>
  );
}
