import { Heading } from "@react-email/heading";
import { Section } from "@react-email/section";
import { Text } from "@react-email/text";
import { visibleDataClasses } from "../../breaches/catalogue/categories";
import type { LocaleCode } from "../../i18n/locales";
import { generatedSummary, nextStepsFor, stealerLogSteps } from "../../breaches/catalogue/texts";
import type { NotificationTexts } from "../../i18n/translations";
import type { AlertBreach, BreachAlertData } from "../types";
import { EmailLayout, List, styles, type FooterProps } from "./layout";

/**
 * An initial scan of a large domain can find a hundred breaches and addresses: the newest
 * breaches are told in full, the others by title, and long address lists are cut, so the message
 * stays readable and under the size at which mail programs clip it (Gmail: about 100 KB of HTML).
 * The portal has everything.
 */
export const DETAILED_BREACHES = 10;
export const LISTED_ADDRESSES = 20;
export const LISTED_WEBSITES = 20;

function cut(items: readonly string[], limit: number, more: (count: number) => string): string[] {
  return items.length > limit ? [...items.slice(0, limit), more(items.length - limit)] : [...items];
}

/**
 * Breach alert. Active customers read each new breach with its summary, exposed data, exposed
 * addresses and next steps (the texts of server/breaches/catalogue/), a stealer log also with the
 * websites captured and its own steps; prospects only the count and the exposed addresses.
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
        <List items={cut(data.emails, LISTED_ADDRESSES, t.moreAddresses)} />
        <Text style={styles.text}>{t.redactedMore(props.partnerName)}</Text>
      </EmailLayout>
    );
  }
  return (
    <EmailLayout locale={props.locale} preview={heading} heading={heading} footer={props.footer}>
      <Text style={styles.text}>{data.digest ? t.digestIntro(data.digest === "weekly", data.companyName) : t.intro(data.companyName)}</Text>
      {data.breaches.slice(0, DETAILED_BREACHES).map((breach) => (
        <BreachCard key={breach.name} breach={breach} locale={props.locale} texts={props.texts} />
      ))}
      {data.breaches.length > DETAILED_BREACHES && (
        <>
          <Heading as="h2" style={styles.subheading}>
            {t.alsoFound}
          </Heading>
          <List
            items={data.breaches
              .slice(DETAILED_BREACHES)
              .map((breach) => `${breach.title} (${dateFormat(props.locale).format(utcDate(breach.breachDate))})`)}
          />
        </>
      )}
      <Text style={styles.text}>{props.texts.common.portalHint(props.partnerName)}</Text>
    </EmailLayout>
  );
}

function BreachCard({ breach, locale, texts }: { breach: AlertBreach; locale: LocaleCode; texts: NotificationTexts }) {
  const t = texts.alert;
  const categories = visibleDataClasses(breach.dataClasses);
  const summary = generatedSummary({ ...breach, breachDate: utcDate(breach.breachDate) }, locale);
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
      <List items={cut(breach.emails, LISTED_ADDRESSES, t.moreAddresses)} />
      {breach.websiteDomains && breach.websiteDomains.length > 0 && (
        <>
          <Text style={{ ...styles.text, marginBottom: 0 }}>
            <strong>{t.capturedSites}:</strong>
          </Text>
          <List items={cut(breach.websiteDomains, LISTED_WEBSITES, t.moreSites)} />
        </>
      )}
      <Text style={{ ...styles.text, marginBottom: 0 }}>
        <strong>{t.nextSteps}:</strong>
      </Text>
      <List items={breach.websiteDomains ? stealerLogSteps(locale) : nextStepsFor(breach.dataClasses, locale)} />
    </Section>
  );
}

const utcDate = (day: string) => new Date(`${day}T00:00:00Z`);
const dateFormat = (locale: LocaleCode) => new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" });
