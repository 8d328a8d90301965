import { render } from "@react-email/render";
import type { ReactElement } from "react";
import type { LocaleCode } from "../breaches/locales";
import { monthlyReportPdf } from "./report-pdf";
import { monthlyReportView } from "./report-view";
import { BreachAlertEmail } from "./templates/breach-alert";
import type { FooterProps } from "./templates/layout";
import { MonthlyReportEmail } from "./templates/monthly-report";
import { WelcomeEmail } from "./templates/welcome";
import { notificationSubject } from "./subjects";
import { portalLocale } from "../portal/locale";
import { notificationTexts } from "./texts";
import type { NotificationContent } from "./types";
import { unsubscribePageUrl } from "./unsubscribe";

export interface RenderContext {
  locale: LocaleCode;
  partnerName: string;
  /** The partner's reply-to address; the footer says a reply reaches the partner only when there is one. */
  replyTo: string | null;
  unsubscribeUrl: string;
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

/** The message as sent: subject, HTML and plain-text parts, and the monthly report's PDF. */
export async function renderNotification(content: NotificationContent, context: RenderContext): Promise<RenderedNotification> {
  const { locale, partnerName } = context;
  const texts = notificationTexts(locale);
  const companyName = content.data.companyName;
  const footer: FooterProps = {
    why: texts.common.why(partnerName, companyName),
    reply: context.replyTo ? texts.common.reply(partnerName) : undefined,
    unsubscribeText: texts.common.unsubscribe[content.kind],
    unsubscribeUrl: context.unsubscribeUrl,
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
        content: await monthlyReportPdf(view, { locale, companyName, partnerName }),
      });
      break;
    }
  }
  const [html, text] = await Promise.all([render(email), render(email, { plainText: true })]);
  return { subject: notificationSubject(content, locale), html, text, attachments };
}

/** A stored message's row, as far as rendering needs it. */
export interface StoredNotification {
  kind: NotificationContent["kind"];
  data: unknown;
  customerId: string;
  recipient: string;
  localeCode: string;
  customer: { partner: { name: string; replyToEmail: string | null } };
}

/** Renders a stored message as it is sent (the send job) or previewed (the staff mail preview). */
export function renderStoredNotification(message: StoredNotification): Promise<RenderedNotification> {
  return renderNotification({ kind: message.kind, data: message.data } as NotificationContent, {
    locale: portalLocale(message.localeCode),
    partnerName: message.customer.partner.name,
    replyTo: message.customer.partner.replyToEmail,
    unsubscribeUrl: unsubscribePageUrl({ customerId: message.customerId, kind: message.kind, email: message.recipient }),
  });
}
