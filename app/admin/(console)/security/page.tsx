import type { Metadata } from "next";
import { MfaRequiredToggle, SsoForm } from "../../_components/staff-forms";
import { adminApi } from "../../_lib/server";

export const metadata: Metadata = { title: "Sign-in security" };

/** Single sign-on and "MFA required" for the distributor's staff; owners change them (docs/admin-ui.md). */
export default async function SecurityPage() {
  const api = await adminApi();
  const [{ staff, distributor }, { sso, mfaRequired }] = await Promise.all([api.admin.me(), api.admin.security.settings()]);
  const owner = staff.role === "owner";
  return (
    <>
      <h1>Sign-in security</h1>
      <section aria-labelledby="sso-heading">
        <h2 id="sso-heading">Single sign-on (OpenID Connect)</h2>
        <p className="muted">
          {sso ? (sso.required ? "Required: passwords work only for break-glass accounts." : "Enabled: staff sign in either way.") : "Off."}{" "}
          Register this redirect URI with the provider:{" "}
          <code className="wrap">{sso?.redirectUri ?? `/api/auth/callback/sso-${distributor.id}`}</code>. Your staff&apos;s sign-in link:{" "}
          <code className="wrap">/admin/sign-in?sso={distributor.id}</code>.
        </p>
        {owner ? (
          <SsoForm sso={sso} />
        ) : sso ? (
          <dl>
            <dt>Issuer</dt>
            <dd className="wrap">{sso.issuer}</dd>
            <dt>Client id</dt>
            <dd className="wrap">{sso.clientId}</dd>
            <dt>Allowed domains</dt>
            <dd>{sso.allowedDomains.join(", ") || "any"}</dd>
          </dl>
        ) : null}
      </section>
      <section aria-labelledby="mfa-heading">
        <h2 id="mfa-heading">MFA</h2>
        <p className="muted">
          {mfaRequired
            ? "Required: after a password sign-in, staff without an authenticator app set one up before anything else."
            : "Not required: each staff member may set it up under Account."}
        </p>
        {owner ? <MfaRequiredToggle required={mfaRequired} /> : null}
      </section>
    </>
  );
}
