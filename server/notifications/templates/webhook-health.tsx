import { Heading } from "@react-email/heading";
import { Link } from "@react-email/link";
import { Section } from "@react-email/section";
import { Text } from "@react-email/text";
import type { LocaleCode } from "../../i18n/locales";
import type { OrganizationTexts } from "../../i18n/translations";
import type { WebhookHealthContent, WebhookHealthEndpoint } from "../types";
import { EmailLayout, styles, type FooterProps } from "./layout";

/** One fact of the endpoint's card: a label and its value, one line each in the plain-text part. */
function Fact({ label, value }: { label: string; value: string }) {
  return (
    <Text style={{ ...styles.text, margin: "8px 0" }}>
      <strong>{label}:</strong> {value}
    </Text>
  );
}

/** A request the owner can make, as it would be typed: method and URL, then the JSON body. */
function Request({ method, url, body }: { method: string; url: string; body: object }) {
  return <pre style={styles.code}>{`${method} ${url}\n${JSON.stringify(body)}`}</pre>;
}

function EndpointCard({ endpoint, texts }: { endpoint: WebhookHealthEndpoint; texts: OrganizationTexts }) {
  const t = texts.common;
  return (
    <Section style={styles.card}>
      <Fact label={t.url} value={endpoint.url} />
      <Fact label={t.id} value={endpoint.id} />
      <Fact label={t.protocol} value={t.protocols[endpoint.protocol]} />
    </Section>
  );
}

/**
 * The owner's warning about one of its webhook endpoints (docs/webhooks.md, "Health and
 * warnings"): which endpoint, what happened, and the requests that bring it back.
 */
export function WebhookHealthEmail(props: {
  locale: LocaleCode;
  texts: OrganizationTexts;
  content: WebhookHealthContent;
  /** APP_URL: the requests the message gives go to this service. */
  appUrl: string;
  footer: FooterProps;
}) {
  const { texts, content, appUrl } = props;
  const common = texts.common;
  const endpoint = content.data.endpoint;
  const endpointUrl = `${appUrl}${endpoint.apiPath}`;
  const lastSuccess = content.data.lastSuccessAt ? common.time(content.data.lastSuccessAt) : common.never;
  // The earlier protocol's PATCH takes `active`, the current one's `enabled` (docs/webhooks.md).
  const enableBody = endpoint.protocol === "legacy" ? { active: true } : { enabled: true };
  const adminPage = endpoint.adminPath && (
    <Text style={styles.text}>
      {common.adminPage}{" "}
      <Link href={`${appUrl}${endpoint.adminPath}`} style={{ color: "#1d4ed8", textDecoration: "underline" }}>
        {`${appUrl}${endpoint.adminPath}`}
      </Link>
    </Text>
  );

  if (content.kind === "webhook_failing") {
    const t = texts.failing;
    const data = content.data;
    return (
      <EmailLayout locale={props.locale} preview={t.preview} heading={t.heading} footer={props.footer}>
        <Text style={styles.text}>{t.intro(data.organizationName, common.time(data.failingSince))}</Text>
        <EndpointCard endpoint={endpoint} texts={texts} />
        <Fact label={t.failingSince} value={common.time(data.failingSince)} />
        <Fact label={t.failuresInRow} value={String(data.consecutiveFailures)} />
        <Fact label={t.lastError} value={data.lastError ?? "—"} />
        <Fact label={common.lastSuccess} value={lastSuccess} />
        <Heading as="h2" style={styles.subheading}>
          {common.whatToDo}
        </Heading>
        <Text style={styles.text}>{t.fix}</Text>
        <Text style={styles.text}>{t.retrying(data.disableAfter)}</Text>
        <Text style={styles.text}>{t.recover}</Text>
        <Request method="POST" url={`${endpointUrl}/recover`} body={{ since: data.recoverSince }} />
        {adminPage}
      </EmailLayout>
    );
  }

  const t = texts.disabled;
  const data = content.data;
  return (
    <EmailLayout locale={props.locale} preview={t.preview} heading={t.heading} footer={props.footer}>
      <Text style={styles.text}>{t.intro(data.organizationName, common.time(data.disabledAt))}</Text>
      <EndpointCard endpoint={endpoint} texts={texts} />
      <Fact label={t.reason} value={data.disabledReason ?? t.kinds[data.disabledKind]} />
      <Text style={styles.text}>{t.kinds[data.disabledKind]}</Text>
      <Fact label={common.lastSuccess} value={lastSuccess} />
      <Heading as="h2" style={styles.subheading}>
        {common.whatToDo}
      </Heading>
      <Text style={styles.text}>{t.fix[data.disabledKind]}</Text>
      <Text style={styles.text}>{t.enable}</Text>
      <Request method="PATCH" url={endpointUrl} body={enableBody} />
      <Text style={styles.text}>{t.recover}</Text>
      <Request method="POST" url={`${endpointUrl}/recover`} body={{ since: data.recoverSince }} />
      <Text style={styles.text}>{t.whileDisabled}</Text>
      {adminPage}
    </EmailLayout>
  );
}
