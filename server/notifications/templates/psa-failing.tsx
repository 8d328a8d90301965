import { Heading } from "@react-email/heading";
import { Section } from "@react-email/section";
import { Text } from "@react-email/text";
import type { LocaleCode } from "../../i18n/locales";
import type { OrganizationTexts } from "../../i18n/translations";
import type { PsaFailingData } from "../types";
import { EmailLayout, styles, type FooterProps } from "./layout";

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <Text style={{ ...styles.text, margin: "8px 0" }}>
      <strong>{label}:</strong> {value}
    </Text>
  );
}

/**
 * The partner's warning that its PSA refused the connection's credentials (docs/integrations.md,
 * "PSA: exactly once"): which PSA, what it answered, and the requests that bring it back.
 */
export function PsaFailingEmail(props: {
  locale: LocaleCode;
  texts: OrganizationTexts["psaFailing"];
  data: PsaFailingData;
  /** APP_URL: the requests the message gives go to this service. */
  appUrl: string;
  /** Formats an ISO time as the organization e-mails show it. */
  time: (iso: string) => string;
  footer: FooterProps;
}) {
  const { texts: t, data, appUrl, time } = props;
  const provider = t.providers[data.provider];
  return (
    <EmailLayout locale={props.locale} preview={t.preview} heading={t.heading} footer={props.footer}>
      <Text style={styles.text}>{t.intro(data.organizationName, provider, time(data.failingSince))}</Text>
      <Section style={styles.card}>
        <Fact label={t.provider} value={provider} />
        <Fact label={t.address} value={data.baseUrl} />
        <Fact label={t.failingSince} value={time(data.failingSince)} />
        <Fact label={t.lastError} value={data.lastError} />
      </Section>
      <Heading as="h2" style={styles.subheading}>
        {t.whatToDo}
      </Heading>
      <Text style={styles.text}>{t.fix}</Text>
      <Text style={styles.text}>{t.replace}</Text>
      <pre style={styles.code}>{`PUT ${appUrl}/api/v1/integrations/psa`}</pre>
      <Text style={styles.text}>{t.test}</Text>
      <pre style={styles.code}>{`POST ${appUrl}/api/v1/integrations/psa/test`}</pre>
      <Text style={styles.text}>{t.waiting}</Text>
      <Text style={styles.text}>{t.adminPage}</Text>
    </EmailLayout>
  );
}
