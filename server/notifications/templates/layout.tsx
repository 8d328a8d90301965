import { Body } from "@react-email/body";
import { Container } from "@react-email/container";
import { Head } from "@react-email/head";
import { Heading } from "@react-email/heading";
import { Hr } from "@react-email/hr";
import { Html } from "@react-email/html";
import { Link } from "@react-email/link";
import { Preview } from "@react-email/preview";
import { Section } from "@react-email/section";
import { Text } from "@react-email/text";
import type { CSSProperties, ReactNode } from "react";
import type { LocaleCode } from "../../i18n/locales";

/** What every message ends with: why it came, whom a reply reaches, and how to stop it. */
export interface FooterProps {
  why: string;
  reply?: string;
  /** A customer's e-mails: the recipient's unsubscribe link. */
  unsubscribe?: { text: string; url: string };
  /** An organization's operational e-mails: why they have no such link, and what stops them. */
  howToStop?: string;
}

const text: CSSProperties = { fontSize: "15px", lineHeight: "24px", margin: "12px 0", color: "#1f2933" };

export const styles = {
  text,
  subheading: { fontSize: "17px", lineHeight: "24px", margin: "24px 0 8px", color: "#1f2933" } satisfies CSSProperties,
  list: { margin: "8px 0 12px", paddingLeft: "22px", fontSize: "15px", lineHeight: "24px", color: "#1f2933" } satisfies CSSProperties,
  muted: { ...text, fontSize: "13px", lineHeight: "20px", color: "#52606d" } satisfies CSSProperties,
  code: {
    fontFamily: "'SFMono-Regular', Consolas, 'Liberation Mono', Menlo, monospace",
    fontSize: "13px",
    lineHeight: "20px",
    backgroundColor: "#f4f5f7",
    padding: "8px 12px",
    margin: "8px 0 12px",
    whiteSpace: "pre-wrap",
    wordBreak: "break-all",
    color: "#1f2933",
  } satisfies CSSProperties,
  card: { border: "1px solid #d9dee4", borderRadius: "6px", padding: "4px 16px", margin: "16px 0" } satisfies CSSProperties,
};

/** The frame of every message: an accessible single column, readable without images or styles. */
export function EmailLayout(props: { locale: LocaleCode; preview: string; heading: string; footer: FooterProps; children: ReactNode }) {
  return (
    <Html lang={props.locale}>
      <Head />
      <Preview>{props.preview}</Preview>
      <Body
        style={{ backgroundColor: "#f4f5f7", fontFamily: "-apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif", margin: 0 }}
      >
        <Container
          style={{ backgroundColor: "#ffffff", maxWidth: "600px", margin: "24px auto", padding: "24px 28px", borderRadius: "6px" }}
        >
          <Heading as="h1" style={{ fontSize: "22px", lineHeight: "30px", margin: "0 0 16px", color: "#1f2933" }}>
            {props.heading}
          </Heading>
          {props.children}
          <Hr style={{ borderColor: "#d9dee4", margin: "28px 0 12px" }} />
          <Section>
            <Text style={styles.muted}>{props.footer.why}</Text>
            {props.footer.reply && <Text style={styles.muted}>{props.footer.reply}</Text>}
            {props.footer.unsubscribe && (
              <Text style={styles.muted}>
                <Link href={props.footer.unsubscribe.url} style={{ color: "#1d4ed8", textDecoration: "underline" }}>
                  {props.footer.unsubscribe.text}
                </Link>
              </Text>
            )}
            {props.footer.howToStop && <Text style={styles.muted}>{props.footer.howToStop}</Text>}
          </Section>
        </Container>
      </Body>
    </Html>
  );
}

/** A bulleted list; its items stay one per line in the plain-text part. */
export function List({ items }: { items: readonly string[] }) {
  return (
    <ul style={styles.list}>
      {items.map((item, index) => (
        <li key={index}>{item}</li>
      ))}
    </ul>
  );
}
