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
  /** A customer's e-mails from a branded partner: logo and name above the heading, its contacts below. */
  brand?: MailBrand;
}

/** The partner's brand as an e-mail shows it (docs/brand.md); none: the service's own look. */
export interface MailBrand {
  name: string;
  /** The logo's address in the message (an inline part: cid:...), or null. */
  logoSrc: string | null;
  primaryColor: string;
  textOnPrimary: string;
  /** Support e-mail, phone and address, as given. */
  contacts: string[];
}

/** The colours of a button: the brand's, else the service's blue with white text. */
export function buttonColors(brand: MailBrand | undefined): { backgroundColor: string; color: string } {
  return { backgroundColor: brand?.primaryColor ?? "#1d4ed8", color: brand?.textOnPrimary ?? "#ffffff" };
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
          {props.footer.brand && <BrandHeader brand={props.footer.brand} />}
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
            {props.footer.brand && props.footer.brand.contacts.length > 0 && (
              <Text style={styles.muted}>{`${props.footer.brand.name}: ${props.footer.brand.contacts.join(" · ")}`}</Text>
            )}
          </Section>
        </Container>
      </Body>
    </Html>
  );
}

/** The brand's logo (its name as the text for readers without images), or its name in the brand colour's bar. */
function BrandHeader({ brand }: { brand: MailBrand }) {
  if (brand.logoSrc) {
    return (
      <Section style={{ margin: "0 0 20px" }}>
        {/* An e-mail, not a Next.js page: next/image has no place here. */}
        {/* eslint-disable-next-line @next/next/no-img-element */}
        <img src={brand.logoSrc} alt={brand.name} height={48} style={{ height: "48px", width: "auto", maxWidth: "240px", border: 0 }} />
      </Section>
    );
  }
  return (
    <Section style={{ margin: "0 0 20px", backgroundColor: brand.primaryColor, borderRadius: "4px", padding: "10px 14px" }}>
      <Text style={{ margin: 0, fontSize: "17px", fontWeight: 700, color: brand.textOnPrimary }}>{brand.name}</Text>
    </Section>
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
