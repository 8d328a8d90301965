import { render } from "@react-email/render";
import type { ReactElement } from "react";
import type { LocaleCode } from "../i18n/locales";
import { reportBrandOf } from "./report-brand";
import { monthlyReportPdf } from "./report-pdf";
import { monthlyReportView } from "./report-view";
import { BreachAlertEmail } from "./templates/breach-alert";
import type { FooterProps, MailBrand } from "./templates/layout";
import { brandBaseUrl, DEFAULT_BRAND, type Brand } from "../brand/brand";
import { MonthlyReportEmail } from "./templates/monthly-report";
import { SignInLinkEmail } from "./templates/sign-in-link";
import { PsaFailingEmail } from "./templates/psa-failing";
import { WebhookHealthEmail } from "./templates/webhook-health";
import { WelcomeEmail } from "./templates/welcome";
import { notificationSubject } from "./subjects";
import { config } from "../config";
import { portalLocale } from "../i18n/negotiate";
import { notificationTexts, organizationTexts } from "../i18n/translations";
import {
  isCustomerNotificationKind,
  type CustomerNotificationContent,
  type NotificationKind,
  type OrganizationNotificationContent,
} from "./types";
import { unsubscribePageUrl } from "./unsubscribe";

/** What a customer's message is rendered with besides its facts. */
export interface RenderContext {
  locale: LocaleCode;
  /** The partner's brand (brandFor): its name is who the texts say monitors the customer. */
  brand: Brand;
  unsubscribeUrl: string;
}

export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
  /** An inline part the HTML shows (cid:<cid>), e.g. the brand's logo. */
  cid?: string;
}

const LOGO_CID = "brand-logo@exposure-monitoring";

/** The brand as e-mails show it, and the logo's inline part; nothing for the service's own look. */
export function mailBranding(brand: Brand): { mailBrand?: MailBrand; parts: MailAttachment[] } {
  if (brand.source === "default") return { parts: [] };
  const contacts = [brand.supportEmail, brand.supportPhone, brand.supportUrl].filter((value): value is string => Boolean(value));
  return {
    mailBrand: {
      name: brand.name,
      logoSrc: brand.logo ? `cid:${LOGO_CID}` : null,
      primaryColor: brand.primaryColor,
      textOnPrimary: brand.textOnPrimary,
      contacts,
    },
    parts: brand.logo ? [{ filename: "logo.png", contentType: "image/png", content: brand.logo.png, cid: LOGO_CID }] : [],
  };
}

export interface RenderedNotification {
  subject: string;
  html: string;
  text: string;
  attachments: MailAttachment[];
}

/** A customer's message as sent: subject, HTML and plain-text parts, and the monthly report's PDF. */
export async function renderNotification(content: CustomerNotificationContent, context: RenderContext): Promise<RenderedNotification> {
  const { locale, brand } = context;
  const partnerName = brand.name;
  const texts = notificationTexts(locale);
  const companyName = content.data.companyName;
  const { mailBrand, parts } = mailBranding(brand);
  const footer: FooterProps = {
    why: texts.common.why(partnerName, companyName),
    reply: brand.replyTo ? texts.common.reply(partnerName) : undefined,
    unsubscribe: { text: texts.common.unsubscribe[content.kind], url: context.unsubscribeUrl },
    brand: mailBrand,
  };
  let email: ReactElement;
  const attachments: MailAttachment[] = [...parts];
  switch (content.kind) {
    case "welcome":
      email = <WelcomeEmail locale={locale} texts={texts} data={content.data} partnerName={partnerName} footer={footer} />;
      break;
    case "breach_alert":
      email = <BreachAlertEmail locale={locale} texts={texts} data={content.data} partnerName={partnerName} footer={footer} />;
      break;
    case "monthly_report": {
      const view = monthlyReportView(content.data, locale, texts);
      email = (
        <MonthlyReportEmail
          locale={locale}
          view={view}
          attachmentNote={texts.report.attachment}
          portalHint={texts.common.portalHint(partnerName)}
          footer={footer}
        />
      );
      attachments.push({
        filename: `breach-report-${content.data.period}.pdf`,
        contentType: "application/pdf",
        content: await monthlyReportPdf(view, { locale, companyName, brand: reportBrandOf(brand) }),
      });
      break;
    }
  }
  const [html, text] = await Promise.all([render(email), render(email, { plainText: true })]);
  return { subject: notificationSubject(content, locale), html, text, attachments };
}

/**
 * An organization's operational message (a webhook endpoint's health, a failing PSA connection) as sent: no unsubscribe
 * link (the footer says why and what stops them), and the requests it gives point at APP_URL.
 */
export async function renderOrganizationNotification(
  content: OrganizationNotificationContent,
  locale: LocaleCode,
): Promise<RenderedNotification> {
  const texts = organizationTexts(locale);
  const email =
    content.kind === "psa_failing" ? (
      <PsaFailingEmail
        locale={locale}
        texts={texts.psaFailing}
        data={content.data}
        appUrl={config.appUrl()}
        time={texts.common.time}
        footer={{ why: texts.psaFailing.why(content.data.organizationName), howToStop: texts.psaFailing.howToStop }}
      />
    ) : (
      <WebhookHealthEmail
        locale={locale}
        texts={texts}
        content={content}
        appUrl={config.appUrl()}
        footer={{ why: texts.common.why(content.data.organizationName), howToStop: texts.common.howToStop }}
      />
    );
  const [html, text] = await Promise.all([render(email), render(email, { plainText: true })]);
  return { subject: notificationSubject(content, locale), html, text, attachments: [] };
}

/**
 * A portal sign-in link the recipient asked for (server/portal/email-sign-in.ts): sent at once and
 * never stored, since the link signs in; no unsubscribe link, as nothing is sent unasked.
 */
export async function renderSignInLinkEmail(input: { locale: LocaleCode; companyName: string; brand: Brand; url: string }) {
  const texts = notificationTexts(input.locale);
  const { mailBrand, parts } = mailBranding(input.brand);
  const footer: FooterProps = { why: texts.signInLink.why(input.brand.name, input.companyName), brand: mailBrand };
  const email = <SignInLinkEmail locale={input.locale} texts={texts} companyName={input.companyName} url={input.url} footer={footer} />;
  const [html, text] = await Promise.all([render(email), render(email, { plainText: true })]);
  return { subject: texts.signInLink.subject(input.companyName), html, text, attachments: parts };
}

/** A stored message's row, as far as rendering needs it (a customer's message has its customer). */
export interface StoredNotification {
  kind: NotificationKind;
  data: unknown;
  customerId: string | null;
  recipient: string;
  localeCode: string;
}

/**
 * Renders a stored message as it is sent (the send job) or previewed (the staff mail preview);
 * a customer's message with its partner's brand (brandFor).
 */
export function renderStoredNotification(message: StoredNotification, brand: Brand = DEFAULT_BRAND): Promise<RenderedNotification> {
  const locale = portalLocale(message.localeCode);
  if (!isCustomerNotificationKind(message.kind)) {
    return renderOrganizationNotification({ kind: message.kind, data: message.data } as OrganizationNotificationContent, locale);
  }
  if (!message.customerId) throw new Error(`a ${message.kind} message without its customer`);
  return renderNotification({ kind: message.kind, data: message.data } as CustomerNotificationContent, {
    locale,
    brand,
    unsubscribeUrl: unsubscribePageUrl(
      { customerId: message.customerId, kind: message.kind, email: message.recipient },
      brandBaseUrl(brand),
    ),
  });
}
