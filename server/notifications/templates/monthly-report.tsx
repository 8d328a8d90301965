import { Heading } from "@react-email/heading";
import { Text } from "@react-email/text";
import { Fragment } from "react";
import type { LocaleCode } from "../../i18n/locales";
import type { MonthlyReportView } from "../report-view";
import { EmailLayout, List, styles, type FooterProps } from "./layout";

/** Monthly report: threat score and its change, new, still open and resolved breaches, the mailboxes and assets monitored. */
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
      {[view.newBreaches, view.openBreaches, view.fixedBreaches].map(
        (section) =>
          section && (
            <Fragment key={section.heading}>
              <Heading as="h2" style={styles.subheading}>
                {section.heading}
              </Heading>
              {section.items.length > 0 ? <List items={section.items} /> : <Text style={styles.text}>{section.empty}</Text>}
            </Fragment>
          ),
      )}
      <Heading as="h2" style={styles.subheading}>
        {view.mailboxes.heading}
      </Heading>
      <Text style={styles.text}>{view.mailboxes.summary}</Text>
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
