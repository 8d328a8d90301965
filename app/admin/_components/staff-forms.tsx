"use client";

import Link from "next/link";
import { useState, type FormEvent } from "react";
import { trpc, useAction } from "../_lib/client";
import { FormError, TextField } from "./fields";

export const ROLES = ["owner", "admin", "agent", "viewer", "billing"] as const;
type Role = (typeof ROLES)[number];

function RoleSelect({ name, defaultValue, label }: { name: string; defaultValue: Role; label: string }) {
  return (
    <select name={name} defaultValue={defaultValue} aria-label={label}>
      {ROLES.map((role) => (
        <option key={role} value={role}>
          {role}
        </option>
      ))}
    </select>
  );
}

/** Invites an address with a role: the link is e-mailed and shown once here (to hand over if mail does not reach). */
export function InviteForm() {
  const { run, pending, error } = useAction();
  const [sent, setSent] = useState<{ email: string; url: string; emailed: boolean }>();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const invitation = await run(() =>
      trpc.admin.staff.invite.mutate({ email: String(form.get("email") ?? ""), role: String(form.get("role")) as Role }),
    );
    if (invitation) setSent(invitation);
  }

  return (
    <form className="card form" onSubmit={submit} aria-label="Invite a colleague">
      <FormError error={error} />
      <TextField name="email" label="E-mail" type="email" required error={error?.fieldErrors.email} />
      <div className="field">
        <label htmlFor="invite-role">Role</label>
        <select id="invite-role" name="role" defaultValue="agent">
          {ROLES.map((role) => (
            <option key={role} value={role}>
              {role}
            </option>
          ))}
        </select>
      </div>
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={pending}>
          {pending ? "Inviting…" : "Invite"}
        </button>
      </div>
      {sent ? (
        <p role="status">
          {sent.emailed ? `An invitation was e-mailed to ${sent.email}.` : `The e-mail to ${sent.email} could not be sent.`} Its link, valid
          72 hours and once: <code className="wrap">{sent.url}</code>
        </p>
      ) : null}
    </form>
  );
}

/** An owner's controls for one colleague: role, break-glass, MFA reset, removal. */
export function MemberActions({
  member,
}: {
  member: { id: string; email: string; role: Role; breakGlass: boolean; mfaEnrolled: boolean };
}) {
  const { run, pending, error } = useAction();
  const [confirmRemove, setConfirmRemove] = useState(false);
  return (
    <div className="form">
      <FormError error={error} />
      <div className="button-row">
        <form
          onSubmit={(event) => {
            event.preventDefault();
            const role = String(new FormData(event.currentTarget).get("role")) as Role;
            void run(() => trpc.admin.staff.changeRole.mutate({ staffId: member.id, role }));
          }}
        >
          <RoleSelect name="role" defaultValue={member.role} label={`Role of ${member.email}`} />{" "}
          <button type="submit" className="button" disabled={pending}>
            Change role
          </button>
        </form>
        <button
          type="button"
          className="button"
          disabled={pending}
          onClick={() => void run(() => trpc.admin.staff.setBreakGlass.mutate({ staffId: member.id, breakGlass: !member.breakGlass }))}
        >
          {member.breakGlass ? "Not break-glass" : "Make break-glass"}
        </button>
        {member.mfaEnrolled ? (
          <button
            type="button"
            className="button"
            disabled={pending}
            onClick={() => void run(() => trpc.admin.staff.resetMfa.mutate({ staffId: member.id }))}
          >
            Reset MFA
          </button>
        ) : null}
        {confirmRemove ? (
          <button
            type="button"
            className="button button-danger"
            disabled={pending}
            onClick={() => void run(() => trpc.admin.staff.remove.mutate({ staffId: member.id }))}
          >
            Yes, remove {member.email}
          </button>
        ) : (
          <button type="button" className="button button-danger" disabled={pending} onClick={() => setConfirmRemove(true)}>
            Remove
          </button>
        )}
      </div>
    </div>
  );
}

export function WithdrawInvitationButton({ invitationId }: { invitationId: string }) {
  const { run, pending, error } = useAction();
  return (
    <>
      <FormError error={error} />
      <button
        type="button"
        className="button"
        disabled={pending}
        onClick={() => void run(() => trpc.admin.staff.withdrawInvitation.mutate({ invitationId }))}
      >
        Withdraw
      </button>
    </>
  );
}

/** The distributor's single sign-on (owners). The client secret is never shown; left empty it stays as it is. */
export function SsoForm({
  sso,
}: {
  sso: { issuer: string; clientId: string; required: boolean; allowedDomains: string[]; jitRole: Role | null } | null;
}) {
  const { run, pending, error } = useAction();
  const [saved, setSaved] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSaved(false);
    const form = new FormData(event.currentTarget);
    const jitRole = String(form.get("jitRole") ?? "");
    const result = await run(() =>
      trpc.admin.security.setSso.mutate({
        issuer: String(form.get("issuer") ?? ""),
        clientId: String(form.get("clientId") ?? ""),
        clientSecret: String(form.get("clientSecret") ?? "") || undefined,
        required: form.get("required") === "on",
        allowedDomains: String(form.get("allowedDomains") ?? "")
          .split(/[\s,]+/)
          .filter(Boolean),
        jitRole: jitRole ? (jitRole as Role) : null,
      }),
    );
    if (result) setSaved(true);
  }

  return (
    <form className="card form" onSubmit={submit} aria-label="Single sign-on">
      <FormError error={error} />
      <TextField
        name="issuer"
        label="Issuer URL"
        required
        defaultValue={sso?.issuer}
        error={error?.fieldErrors.issuer}
        hint="The provider's issuer, without /.well-known/openid-configuration"
      />
      <TextField name="clientId" label="Client id" required defaultValue={sso?.clientId} error={error?.fieldErrors.clientId} />
      <TextField
        name="clientSecret"
        label="Client secret"
        type="password"
        autoComplete="off"
        required={!sso}
        hint={sso ? "Stored encrypted and never shown; leave empty to keep it." : undefined}
        error={error?.fieldErrors.clientSecret}
      />
      <TextField
        name="allowedDomains"
        label="Allowed e-mail domains"
        defaultValue={sso?.allowedDomains.join(", ")}
        hint="Separated by commas; empty: any address of existing or invited staff."
      />
      <div className="field">
        <label htmlFor="sso-jit">Just-in-time accounts</label>
        <select id="sso-jit" name="jitRole" defaultValue={sso?.jitRole ?? ""}>
          <option value="">Off: only invited or existing staff</option>
          {ROLES.map((role) => (
            <option key={role} value={role}>
              On, with the role {role}
            </option>
          ))}
        </select>
      </div>
      <div className="field field-checkbox">
        <input id="sso-required" name="required" type="checkbox" defaultChecked={sso?.required} />
        <label htmlFor="sso-required">Single sign-on required (passwords refused, except for break-glass accounts)</label>
      </div>
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={pending}>
          Save single sign-on
        </button>
        {sso ? (
          <button
            type="button"
            className="button button-danger"
            disabled={pending}
            onClick={() => void run(() => trpc.admin.security.removeSso.mutate({}))}
          >
            Turn single sign-on off
          </button>
        ) : null}
        <span role="status">{saved ? "Saved." : ""}</span>
      </div>
    </form>
  );
}

export function MfaRequiredToggle({ required }: { required: boolean }) {
  const { run, pending, error } = useAction();
  return (
    <div className="form">
      <FormError error={error} />
      <button
        type="button"
        className="button"
        disabled={pending}
        onClick={() => void run(() => trpc.admin.security.setMfaRequired.mutate({ required: !required }))}
      >
        {required ? "Stop requiring MFA" : "Require MFA for every staff member"}
      </button>
    </div>
  );
}

/** The signed-in staff member's own MFA enrolment: a QR code, its first code, then the recovery codes once. */
export function MfaEnrolment() {
  const { run, pending, error } = useAction();
  const [started, setStarted] = useState<{ qrDataUrl: string; secret: string }>();
  const [codes, setCodes] = useState<string[]>();

  if (codes) {
    return (
      <div className="card">
        <p role="status">
          MFA is on. Keep these recovery codes somewhere safe: each signs in once without the app, and they are shown only now.
        </p>
        <ul className="recovery-codes">
          {codes.map((code) => (
            <li key={code}>
              <code>{code}</code>
            </li>
          ))}
        </ul>
        <Link className="button button-primary" href="/admin">
          Continue
        </Link>
      </div>
    );
  }
  if (!started) {
    return (
      <div className="form">
        <FormError error={error} />
        <button
          type="button"
          className="button button-primary"
          disabled={pending}
          onClick={async () => setStarted(await run(() => trpc.admin.security.mfa.begin.mutate({}), { refresh: false }))}
        >
          Set up an authenticator app
        </button>
      </div>
    );
  }
  return (
    <form
      className="card form"
      aria-label="Confirm the authenticator app"
      onSubmit={async (event) => {
        event.preventDefault();
        const code = String(new FormData(event.currentTarget).get("code") ?? "");
        const result = await run(() => trpc.admin.security.mfa.confirm.mutate({ code }), { refresh: false });
        if (result) setCodes(result.recoveryCodes);
      }}
    >
      <FormError error={error} />
      {/* eslint-disable-next-line @next/next/no-img-element -- a data URL made by the server */}
      <img src={started.qrDataUrl} alt="QR code for the authenticator app" width={240} height={240} />
      <p>
        Scan it with the authenticator app, or enter this key:{" "}
        <code className="wrap" data-testid="totp-secret">
          {started.secret}
        </code>
      </p>
      <TextField
        name="code"
        label="The 6-digit code the app shows"
        inputMode="numeric"
        autoComplete="one-time-code"
        required
        error={error?.fieldErrors.code}
      />
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={pending}>
          Turn MFA on
        </button>
      </div>
    </form>
  );
}

/** The invitation page's form: a password for the new account (or single sign-on, when the distributor has it). */
export function AcceptInvitationForm({ token, email, ssoProvider }: { token: string; email: string; ssoProvider: string | null }) {
  const { run, pending, error } = useAction();
  const [done, setDone] = useState(false);
  if (done) {
    return (
      <p role="status">
        Your account is ready. <Link href="/admin/sign-in">Sign in</Link> as {email}.
      </p>
    );
  }
  return (
    <form
      className="card form"
      aria-label="Accept the invitation"
      onSubmit={async (event) => {
        event.preventDefault();
        const form = new FormData(event.currentTarget);
        const newPassword = String(form.get("newPassword") ?? "");
        if (newPassword !== String(form.get("confirmPassword") ?? "")) return;
        const accepted = await run(() => trpc.staffInvitation.accept.mutate({ token, newPassword, name: String(form.get("name") ?? "") }), {
          refresh: false,
        });
        if (accepted) setDone(true);
      }}
    >
      <FormError error={error} />
      <TextField name="name" label="Your name" autoComplete="name" />
      <TextField
        name="newPassword"
        label="Password"
        type="password"
        autoComplete="new-password"
        required
        error={error?.fieldErrors.newPassword}
        hint="At least 12 characters, not a common password."
      />
      <TextField name="confirmPassword" label="Password again" type="password" autoComplete="new-password" required />
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={pending}>
          Create my account
        </button>
        {ssoProvider ? (
          <Link className="button" href={`/admin/sign-in?sso=${ssoProvider.replace(/^sso-/, "")}`}>
            Use single sign-on instead
          </Link>
        ) : null}
      </div>
    </form>
  );
}
