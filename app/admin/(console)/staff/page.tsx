import type { Metadata } from "next";
import { DateTime } from "../../_components/date-time";
import { DataTable } from "../../_components/data-table";
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
      <DataTable
        caption="Staff members"
        rows={staff}
        rowKey={(member) => member.id}
        columns={[
          {
            header: "E-mail",
            className: "wrap",
            cell: (member) => (
              <>
                {member.email}
                {member.name ? <span className="muted"> ({member.name})</span> : null}
              </>
            ),
          },
          { header: "Role", cell: (member) => member.role },
          {
            header: "Sign-in",
            cell: (member) =>
              [member.ssoLinked ? "single sign-on" : "password", member.mfaEnrolled ? "MFA" : "", member.breakGlass ? "break-glass" : ""]
                .filter(Boolean)
                .join(", "),
          },
          { header: "Last sign-in", cell: (member) => <DateTime iso={member.lastLoginAt} /> },
          owner && {
            header: "Actions",
            cell: (member) => (member.id === me.id ? <span className="muted">You</span> : <MemberActions member={member} />),
          },
        ]}
      />
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
