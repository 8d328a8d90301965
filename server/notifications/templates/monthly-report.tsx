import { Heading } from "@react-email/heading";
import { Text } from "@react-email/text";
import type { LocaleCode } from "../../i18n/locales";
import type { MonthlyReportView } from "../report-view";
import { EmailLayout, List, styles, type FooterProps } from "./layout";

/** Monthly report: threat score and its change, new, open and fixed breaches, monitored assets. */
export function MonthlyReportEmail(props: {
  locale: LocaleCode;
  view: MonthlyReportView;
  attachmentNote: string;
  portalHint: string;
  footer: FooterProps;
}) {
  const { view } = props;
  return (
    <EmailLayout locale={props.locale} preview={view.intro} heading={view.heading} footer={props.footer}>
      <Text style={styles.text}>{view.intro}</Text>
      <Heading as="h2" style={styles.subheading}>
        {view.threatScore.label}: {view.threatScore.value}
      </Heading>
      <Text style={styles.text}>{view.change}</Text>
      <Text style={styles.muted}>{view.threatScore.scale}</Text>
      {view.figures.map((figure) => (
        <Text key={figure.label} style={{ ...styles.text, margin: "6px 0" }}>
          <strong>
            {figure.label}: {figure.value}
          </strong>{" "}
          <span style={{ color: "#52606d" }}>({figure.note})</span>
        </Text>
      ))}
      <Heading as="h2" style={styles.subheading}>
        {view.newBreaches.heading}
      </Heading>
      {view.newBreaches.items.length > 0 ? (
        <List items={view.newBreaches.items} />
      ) : (
        <Text style={styles.text}>{view.newBreaches.empty}</Text>
      )}
      <Heading as="h2" style={styles.subheading}>
        {view.assets.heading}
      </Heading>
      <Text style={styles.text}>{view.assets.summary}</Text>
      {view.assets.domains.length > 0 && <List items={view.assets.domains} />}
      <Text style={styles.text}>{props.portalHint}</Text>
      <Text style={styles.muted}>{props.attachmentNote}</Text>
    </EmailLayout>
  );
}
