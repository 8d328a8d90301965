import { Heading } from "@react-email/heading";
import { Section } from "@react-email/section";
import { Text } from "@react-email/text";
import { visibleDataClasses } from "../../breaches/categories";
import type { LocaleCode } from "../../breaches/locales";
import { generatedSummary, nextStepsFor } from "../../breaches/texts";
import type { NotificationTexts } from "../texts";
import type { AlertBreach, BreachAlertData } from "../types";
import { EmailLayout, List, styles, type FooterProps } from "./layout";

/**
 * Breach alert. Active customers read each new breach with its summary, exposed data, exposed
 * addresses and next steps (the texts of server/breaches); prospects only the count and the
 * exposed addresses.
 */
export function BreachAlertEmail(props: {
  locale: LocaleCode;
  texts: NotificationTexts;
  data: BreachAlertData;
  partnerName: string;
  footer: FooterProps;
}) {
  const t = props.texts.alert;
  const { data } = props;
  const count = data.redacted ? data.count : data.breaches.length;
  const heading = t.heading(count);
  if (data.redacted) {
    return (
      <EmailLayout locale={props.locale} preview={heading} heading={heading} footer={props.footer}>
        <Text style={styles.text}>{t.redactedIntro(count, data.companyName)}</Text>
        <Heading as="h2" style={styles.subheading}>
          {t.exposedAddresses}
        </Heading>
        <List items={data.emails} />
        <Text style={styles.text}>{t.redactedMore(props.partnerName)}</Text>
      </EmailLayout>
    );
  }
  return (
    <EmailLayout locale={props.locale} preview={heading} heading={heading} footer={props.footer}>
      <Text style={styles.text}>{t.intro(data.companyName)}</Text>
      {data.breaches.map((breach) => (
        <BreachCard key={breach.name} breach={breach} locale={props.locale} texts={props.texts} />
      ))}
      <Text style={styles.text}>{props.texts.common.portalHint(props.partnerName)}</Text>
    </EmailLayout>
  );
}

function BreachCard({ breach, locale, texts }: { breach: AlertBreach; locale: LocaleCode; texts: NotificationTexts }) {
  const t = texts.alert;
  const categories = visibleDataClasses(breach.dataClasses);
  const summary = generatedSummary({ ...breach, breachDate: new Date(`${breach.breachDate}T00:00:00Z`) }, locale);
  return (
    <Section style={styles.card}>
      <Heading as="h2" style={styles.subheading}>
        {breach.title}
      </Heading>
      <Text style={styles.text}>{summary}</Text>
      {categories.length > 0 && (
        <Text style={styles.text}>
          <strong>{t.exposedData}:</strong> {categories.join(", ")}
        </Text>
      )}
      <Text style={{ ...styles.text, marginBottom: 0 }}>
        <strong>{t.exposedAddresses}:</strong>
      </Text>
      <List items={breach.emails} />
      <Text style={{ ...styles.text, marginBottom: 0 }}>
        <strong>{t.nextSteps}:</strong>
      </Text>
      <List items={nextStepsFor(breach.dataClasses, locale)} />
    </Section>
  );
}
