import type { Metadata } from "next";
import { ChangePasswordForm, SignOutEverywhereButton } from "../../_components/account-forms";
import { adminApi } from "../../_lib/server";

export const metadata: Metadata = { title: "Account" };

/** The signed-in staff member's own account: password and sessions (docs/admin-ui.md). */
export default async function AccountPage() {
  const { staff } = await (await adminApi()).admin.me();
  return (
    <>
      <h1>Account</h1>
      <p className="muted">
        Signed in as <strong>{staff.email}</strong>.
      </p>
      <section aria-labelledby="password-heading">
        <h2 id="password-heading">Change password</h2>
        <p className="muted">Changing it signs you out in every other browser; this one stays signed in.</p>
        <ChangePasswordForm />
      </section>
      <section aria-labelledby="sessions-heading">
        <h2 id="sessions-heading">Sessions</h2>
        <p className="muted">
          A sign-in lasts at most 12 hours. Signed in somewhere you no longer have at hand? End every session, this one included.
        </p>
        <SignOutEverywhereButton />
      </section>
    </>
  );
}
