import type { Metadata } from "next";
import { MfaEnrolment } from "../../../_components/staff-forms";
import { adminApi } from "../../../_lib/server";

export const metadata: Metadata = { title: "MFA" };

/** The signed-in staff member's authenticator app (docs/admin-ui.md, "MFA"). */
export default async function MfaPage() {
  const status = await (await adminApi()).admin.security.mfa.status();
  return (
    <>
      <h1>MFA</h1>
      {status.enrolled ? (
        <p>
          MFA is on: every password sign-in asks for a code. {status.recoveryCodesLeft} recovery codes left. Lost the app? An owner can
          reset your MFA.
        </p>
      ) : (
        <MfaEnrolment />
      )}
    </>
  );
}
