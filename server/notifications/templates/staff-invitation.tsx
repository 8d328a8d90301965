import { render } from "@react-email/render";
import { Link } from "@react-email/link";
import { Text } from "@react-email/text";
import { EmailLayout, styles } from "./layout";

interface StaffInvitationInput {
  url: string;
  hours: number;
  distributorName: string;
  role: string;
  invitedBy: string;
  adminUrl: string;
  /** The distributor signs in by single sign-on: the link's page offers it. */
  sso: boolean;
}

/**
 * An invitation to a distributor's admin UI (the admin UI is in English). Like the reset link,
 * the link is a secret: rendered and sent at once, kept nowhere.
 */
function StaffInvitationEmail({ url, hours, distributorName, role, invitedBy, adminUrl, sso }: StaffInvitationInput) {
  return (
    <EmailLayout
      locale="en-GB"
      preview={`Join ${distributorName} in the admin UI`}
      heading={`You are invited to ${distributorName}'s admin UI`}
      footer={{
        why: `You get this e-mail because ${invitedBy} invited this address to the admin UI at ${adminUrl}.`,
        howToStop: "If you did not expect it, ignore this e-mail: no account is made until the link is used.",
      }}
    >
      <Text style={styles.text}>
        {invitedBy} invited you with the role {role}. Open this link within {hours} hours to{" "}
        {sso ? "sign in with your organization's single sign-on or choose a password" : "choose a password"}. It works once.
      </Text>
      <Text style={styles.text}>
        <Link href={url} style={{ color: "#1d4ed8", textDecoration: "underline" }}>
          {url}
        </Link>
      </Text>
    </EmailLayout>
  );
}

export async function renderStaffInvitationEmail(input: StaffInvitationInput) {
  const email = <StaffInvitationEmail {...input} />;
  const [html, text] = await Promise.all([render(email), render(email, { plainText: true })]);
  return { subject: `Join ${input.distributorName} in the admin UI`, html, text };
}
