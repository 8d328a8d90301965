import { render } from "@react-email/render";
import { Link } from "@react-email/link";
import { Text } from "@react-email/text";
import { EmailLayout, styles } from "./layout";

/**
 * A staff member's password reset link (the admin UI is in English). Not a stored notification:
 * the link is a secret, so the message is rendered and sent at once and kept nowhere.
 */
function StaffPasswordResetEmail({ url, minutes, adminUrl }: { url: string; minutes: number; adminUrl: string }) {
  return (
    <EmailLayout
      locale="en-GB"
      preview="Choose a new password for the admin UI"
      heading="Reset your admin password"
      footer={{
        why: `You get this e-mail because someone asked to reset the password of the admin UI account with this address at ${adminUrl}.`,
        howToStop: "If that was not you, ignore this e-mail: your password stays as it is.",
      }}
    >
      <Text style={styles.text}>
        Open this link within {minutes} minutes to choose a new password. It works once, and signs you out everywhere else.
      </Text>
      <Text style={styles.text}>
        <Link href={url} style={{ color: "#1d4ed8", textDecoration: "underline" }}>
          {url}
        </Link>
      </Text>
    </EmailLayout>
  );
}

export async function renderStaffPasswordResetEmail(input: { url: string; minutes: number; adminUrl: string }) {
  const email = <StaffPasswordResetEmail {...input} />;
  const [html, text] = await Promise.all([render(email), render(email, { plainText: true })]);
  return { subject: "Reset your admin password", html, text };
}
