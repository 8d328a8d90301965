import { render } from "@react-email/render";
import type { ReactElement } from "react";
import type { LocaleCode } from "../i18n/locales";
import type { ReportBrand } from "./report-brand";
import { monthlyReportPdf } from "./report-pdf";
import { monthlyReportView } from "./report-view";
import { BreachAlertEmail } from "./templates/breach-alert";
import type { FooterProps } from "./templates/layout";
import { MonthlyReportEmail } from "./templates/monthly-report";
import { SignInLinkEmail } from "./templates/sign-in-link";
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
  partnerName: string;
  /** The partner's reply-to address; the footer says a reply reaches the partner only when there is one. */
  replyTo: string | null;
  unsubscribeUrl: string;
  /** The partner's brand on the monthly report's PDF; none: today's look (report-brand.ts). */
  brand?: ReportBrand;
}

export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

export interface RenderedNotification {
  subject: string;
  html: string;
  text: string;
  attachments: MailAttachment[];
}

/** A customer's message as sent: subject, HTML and plain-text parts, and the monthly report's PDF. */
export async function renderNotification(content: CustomerNotificationContent, context: RenderContext): Promise<RenderedNotification> {
  const { locale, partnerName } = context;
  const texts = notificationTexts(locale);
  const companyName = content.data.companyName;
  const footer: FooterProps = {
    why: texts.common.why(partnerName, companyName),
    reply: context.replyTo ? texts.common.reply(partnerName) : undefined,
    unsubscribe: { text: texts.common.unsubscribe[content.kind], url: context.unsubscribeUrl },
  };
  let email: ReactElement;
  const attachments: MailAttachment[] = [];
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
        content: await monthlyReportPdf(view, { locale, companyName, partnerName, brand: context.brand }),
      });
      break;
    }
  }
  const [html, text] = await Promise.all([render(email), render(email, { plainText: true })]);
  return { subject: notificationSubject(content, locale), html, text, attachments };
}

/**
 * An organization's operational message (a webhook endpoint's health) as sent: no unsubscribe
 * link (the footer says why and what stops them), and the requests it gives point at APP_URL.
 */
export async function renderOrganizationNotification(
  content: OrganizationNotificationContent,
  locale: LocaleCode,
): Promise<RenderedNotification> {
  const texts = organizationTexts(locale);
  const footer: FooterProps = { why: texts.common.why(content.data.organizationName), howToStop: texts.common.howToStop };
  const email = <WebhookHealthEmail locale={locale} texts={texts} content={content} appUrl={config.appUrl()} footer={footer} />;
  const [html, text] = await Promise.all([render(email), render(email, { plainText: true })]);
  return { subject: notificationSubject(content, locale), html, text, attachments: [] };
}

/**
 * A portal sign-in link the recipient asked for (server/portal/email-sign-in.ts): sent at once and
 * never stored, since the link signs in; no unsubscribe link, as nothing is sent unasked.
 */
export async function renderSignInLinkEmail(input: { locale: LocaleCode; companyName: string; partnerName: string; url: string }) {
  const texts = notificationTexts(input.locale);
  const footer: FooterProps = { why: texts.signInLink.why(input.partnerName, input.companyName) };
  const email = <SignInLinkEmail locale={input.locale} texts={texts} companyName={input.companyName} url={input.url} footer={footer} />;
  const [html, text] = await Promise.all([render(email), render(email, { plainText: true })]);
  return { subject: texts.signInLink.subject(input.companyName), html, text };
}

/** A stored message's row, as far as rendering needs it (a customer's message has its customer). */
export interface StoredNotification {
  kind: NotificationKind;
  data: unknown;
  customerId: string | null;
  recipient: string;
  localeCode: string;
  customer: { partner: { name: string; replyToEmail: string | null } } | null;
}

/** Renders a stored message as it is sent (the send job) or previewed (the staff mail preview). */
export function renderStoredNotification(message: StoredNotification): Promise<RenderedNotification> {
  const locale = portalLocale(message.localeCode);
  if (!isCustomerNotificationKind(message.kind)) {
    return renderOrganizationNotification({ kind: message.kind, data: message.data } as OrganizationNotificationContent, locale);
  }
  if (!message.customerId || !message.customer) throw new Error(`a ${message.kind} message without its customer`);
  return renderNotification({ kind: message.kind, data: message.data } as CustomerNotificationContent, {
    locale,
    partnerName: message.customer.partner.name,
    replyTo: message.customer.partner.replyToEmail,
    unsubscribeUrl: unsubscribePageUrl({ customerId: message.customerId, kind: message.kind, email: message.recipient }),
  });
}
