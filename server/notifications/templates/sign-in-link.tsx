import { Link } from "@react-email/link";
import { Text } from "@react-email/text";
import type { LocaleCode } from "../../i18n/locales";
import type { NotificationTexts } from "../../i18n/translations";
import { buttonColors, EmailLayout, styles, type FooterProps } from "./layout";

/** A one-time portal sign-in link the recipient asked for at /portal/sign-in (docs/portal.md). */
export function SignInLinkEmail(props: {
  locale: LocaleCode;
  texts: NotificationTexts;
  companyName: string;
  url: string;
  footer: FooterProps;
}) {
  const t = props.texts.signInLink;
  return (
    <EmailLayout locale={props.locale} preview={t.preview} heading={t.heading} footer={props.footer}>
      <Text style={styles.text}>{t.intro(props.companyName)}</Text>
      <Link
        href={props.url}
        style={{
          display: "inline-block",
          textDecoration: "none",
          ...buttonColors(props.footer.brand),
          padding: "12px 20px",
          borderRadius: "6px",
          fontSize: "15px",
          fontWeight: 600,
        }}
      >
        {t.button}
      </Link>
      <Text style={styles.text}>{t.expiry}</Text>
      <Text style={styles.muted}>{t.copy}</Text>
      <Text style={styles.code}>{props.url}</Text>
      <Text style={styles.muted}>{t.notYou}</Text>
    </EmailLayout>
  );
}
