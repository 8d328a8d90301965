import type { ActionError } from "../_lib/client";
import { TextField } from "./fields";

/** The rule the server checks (server/auth/staff-passwords.ts), said beside the field. */
export const NEW_PASSWORD_HINT = "At least 12 characters, and not one of the most common passwords. A few unrelated words make a good one.";

/** New password and its repetition; a mismatch is caught here, the rule by the server. */
export function NewPasswordFields({ error, mismatch }: { error?: ActionError; mismatch: boolean }) {
  return (
    <>
      <TextField
        name="newPassword"
        label="New password"
        type="password"
        autoComplete="new-password"
        required
        maxLength={256}
        hint={NEW_PASSWORD_HINT}
        error={error?.fieldErrors.newPassword}
      />
      <TextField
        name="repeatPassword"
        label="Repeat the new password"
        type="password"
        autoComplete="new-password"
        required
        maxLength={256}
        error={mismatch ? "The two new passwords are not the same" : undefined}
      />
    </>
  );
}

/** The two new-password fields of a form, or undefined when they differ. */
export function newPasswordOf(form: FormData): string | undefined {
  const password = String(form.get("newPassword") ?? "");
  return password === String(form.get("repeatPassword") ?? "") ? password : undefined;
}
