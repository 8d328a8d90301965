import { Heading } from "@react-email/heading";
import { Text } from "@react-email/text";
import type { LocaleCode } from "../../i18n/locales";
import type { NotificationTexts } from "../../i18n/translations";
import type { WelcomeData } from "../types";
import { EmailLayout, List, styles, type FooterProps } from "./layout";

/** Welcome: what is monitored and how the customer gets into the portal. */
export function WelcomeEmail(props: {
  locale: LocaleCode;
  texts: NotificationTexts;
  data: WelcomeData;
  partnerName: string;
  footer: FooterProps;
}) {
  const t = props.texts.welcome;
  const { data } = props;
  return (
    <EmailLayout locale={props.locale} preview={t.preview} heading={t.heading} footer={props.footer}>
      <Text style={styles.text}>{t.intro(props.partnerName, data.companyName)}</Text>
      {data.domains.length > 0 && (
        <>
          <Heading as="h2" style={styles.subheading}>
            {t.domains}
          </Heading>
          <List items={data.domains} />
          <Text style={styles.muted}>{t.domainsNote}</Text>
        </>
      )}
      {data.emails.length > 0 && (
        <>
          <Heading as="h2" style={styles.subheading}>
            {t.emails}
          </Heading>
          <List items={data.emails} />
        </>
      )}
      <Heading as="h2" style={styles.subheading}>
        {t.portalHeading}
      </Heading>
      <Text style={styles.text}>{t.portal(props.partnerName)}</Text>
    </EmailLayout>
  );
}
