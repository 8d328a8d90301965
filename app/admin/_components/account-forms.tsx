"use client";

import { signOut } from "next-auth/react";
import { useRef, useState, type FormEvent } from "react";
import { trpc, useAction } from "../_lib/client";
import { FormError, TextField } from "./fields";
import { NewPasswordFields, newPasswordOf } from "./password-fields";

/** Changes the signed-in staff member's password; their other sessions end, this one goes on. */
export function ChangePasswordForm() {
  const { run, pending, error } = useAction();
  const [mismatch, setMismatch] = useState(false);
  const [done, setDone] = useState<string>();
  const formRef = useRef<HTMLFormElement>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setDone(undefined);
    const form = new FormData(event.currentTarget);
    const newPassword = newPasswordOf(form);
    setMismatch(newPassword === undefined);
    if (newPassword === undefined) return;
    const changed = await run(
      () => trpc.admin.account.changePassword.mutate({ currentPassword: String(form.get("currentPassword") ?? ""), newPassword }),
      { refresh: false },
    );
    if (!changed) return;
    formRef.current?.reset();
    const others = changed.endedSessions === 1 ? "1 other session was" : `${changed.endedSessions} other sessions were`;
    setDone(`Your password has been changed. ${others} signed out.`);
  }

  return (
    <form ref={formRef} className="card form" onSubmit={submit} noValidate aria-label="Change password">
      <FormError error={error} />
      <TextField
        name="currentPassword"
        label="Current password"
        type="password"
        autoComplete="current-password"
        required
        error={error?.fieldErrors.currentPassword}
      />
      <NewPasswordFields error={error} mismatch={mismatch} />
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={pending}>
          {pending ? "Changing…" : "Change password"}
        </button>
        <span role="status">{done ?? ""}</span>
      </div>
    </form>
  );
}

/** Ends every session of the staff member (other browsers and this one), then signs out here. */
export function SignOutEverywhereButton() {
  const { run, pending, error } = useAction();
  const [confirming, setConfirming] = useState(false);

  async function signOutEverywhere() {
    const ended = await run(() => trpc.admin.account.signOutEverywhere.mutate({}), { refresh: false });
    if (ended) await signOut({ callbackUrl: "/admin/sign-in?signedOut=everywhere" });
  }

  return (
    <div className="form">
      <FormError error={error} />
      {confirming ? (
        <div className="button-row">
          <button type="button" className="button button-danger" disabled={pending} onClick={() => void signOutEverywhere()}>
            Yes, sign out everywhere
          </button>
          <button type="button" className="button" disabled={pending} onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </div>
      ) : (
        <div className="button-row">
          <button type="button" className="button" onClick={() => setConfirming(true)}>
            Sign out everywhere
          </button>
        </div>
      )}
    </div>
  );
}
