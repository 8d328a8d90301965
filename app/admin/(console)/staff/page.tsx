import type { Metadata } from "next";
import { DateTime } from "../../_components/date-time";
import { InviteForm, MemberActions, WithdrawInvitationButton } from "../../_components/staff-forms";
import { adminApi } from "../../_lib/server";

export const metadata: Metadata = { title: "Staff" };

/** The distributor's staff and open invitations; owners invite, change roles, reset MFA and remove (docs/admin-ui.md, "Staff"). */
export default async function StaffPage() {
  const api = await adminApi();
  const [{ staff: me }, { staff, invitations }] = await Promise.all([api.admin.me(), api.admin.staff.list()]);
  const owner = me.role === "owner";
  return (
    <>
      <h1>Staff</h1>
      <p className="muted">
        Your role: {me.role}. {owner ? "" : "Only owners invite, change roles and remove staff."}
      </p>
      <table className="table">
        <caption className="visually-hidden">Staff members</caption>
        <thead>
          <tr>
            <th scope="col">E-mail</th>
            <th scope="col">Role</th>
            <th scope="col">Sign-in</th>
            <th scope="col">Last sign-in</th>
            {owner ? <th scope="col">Actions</th> : null}
          </tr>
        </thead>
        <tbody>
          {staff.map((member) => (
            <tr key={member.id}>
              <td className="wrap">
                {member.email}
                {member.name ? <span className="muted"> ({member.name})</span> : null}
              </td>
              <td>{member.role}</td>
              <td>
                {[member.ssoLinked ? "single sign-on" : "password", member.mfaEnrolled ? "MFA" : "", member.breakGlass ? "break-glass" : ""]
                  .filter(Boolean)
                  .join(", ")}
              </td>
              <td>
                <DateTime iso={member.lastLoginAt} />
              </td>
              {owner ? <td>{member.id === me.id ? <span className="muted">You</span> : <MemberActions member={member} />}</td> : null}
            </tr>
          ))}
        </tbody>
      </table>
      <section aria-labelledby="invitations-heading">
        <h2 id="invitations-heading">Open invitations</h2>
        {invitations.length === 0 ? (
          <p className="muted">None.</p>
        ) : (
          <ul>
            {invitations.map((invitation) => (
              <li key={invitation.id}>
                <span className="wrap">{invitation.email}</span> as {invitation.role}, until <DateTime iso={invitation.expiresAt} />
                {invitation.invitedBy ? ` (by ${invitation.invitedBy})` : ""}{" "}
                {owner ? <WithdrawInvitationButton invitationId={invitation.id} /> : null}
              </li>
            ))}
          </ul>
        )}
        {owner ? (
          <>
            <h2>Invite a colleague</h2>
            <InviteForm />
          </>
        ) : null}
      </section>
    </>
  );
}
