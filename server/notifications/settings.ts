import type { Db, Queryable } from "../db/client";
import { badRequest, notFound } from "../errors";
import type { LocaleCode } from "../i18n/locales";
import { portalLocale } from "../i18n/negotiate";
import { breachAlertAudience } from "./breach-alerts";

/** The kinds a recipient can turn on and off in the portal (the welcome is sent once, at onboarding). */
export const RECIPIENT_KINDS = ["breach_alert", "monthly_report"] as const;
export type RecipientKind = (typeof RECIPIENT_KINDS)[number];

export interface NotificationSettings {
  /** Breach alerts are sent for this customer (prospects only when enabled at onboarding). */
  breachAlerts: boolean;
  monthlyReport: boolean;
  /** The customer's language: the portal's, the e-mails' and the breach texts' (its localeCode). */
  locale: LocaleCode;
  /** Whether the partner sends such e-mails at all (send_transactional_emails); off: the settings change nothing. */
  partnerSendsEmails: boolean;
  /** The alert recipients and what each of them receives. */
  recipients: Array<{ email: string } & Record<RecipientKind, boolean>>;
}

export interface NotificationSettingsChange {
  breachAlerts?: boolean;
  monthlyReport?: boolean;
  locale?: LocaleCode;
  /** One recipient's kind on or off; the address must be one of the customer's alert recipients. */
  recipients?: Array<{ email: string; kind: RecipientKind; receive: boolean }>;
}

/** A customer's own e-mail settings and language (the portal's settings page). */
export async function notificationSettings(db: Queryable, customerId: string): Promise<NotificationSettings> {
  const customer = await db.customer.findUnique({
    where: { id: customerId },
    select: {
      status: true,
      shouldReceiveBreachAlerts: true,
      sendMonthlyReport: true,
      alertRecipients: true,
      localeCode: true,
      partner: { select: { sendTransactionalEmails: true } },
    },
  });
  if (!customer) throw notFound("Customer not found");
  const optOuts = await db.notificationOptOut.findMany({
    where: { customerId, kind: { in: [...RECIPIENT_KINDS] } },
    select: { kind: true, email: true },
  });
  const stopped = new Set(optOuts.map((row) => `${row.kind}:${row.email}`));
  return {
    breachAlerts: breachAlertAudience({ ...customer, partner: { sendTransactionalEmails: true } }) !== undefined,
    monthlyReport: customer.sendMonthlyReport,
    locale: portalLocale(customer.localeCode),
    partnerSendsEmails: customer.partner.sendTransactionalEmails,
    recipients: customer.alertRecipients.map((email) => ({
      email,
      breach_alert: !stopped.has(`breach_alert:${email.toLowerCase()}`),
      monthly_report: !stopped.has(`monthly_report:${email.toLowerCase()}`),
    })),
  };
}

/** Changes a customer's own e-mail settings in one transaction; returns them as they are then. */
export async function updateNotificationSettings(
  db: Db,
  customerId: string,
  change: NotificationSettingsChange,
): Promise<NotificationSettings> {
  return db.$transaction(async (tx) => {
    const customer = await tx.customer.findUnique({ where: { id: customerId }, select: { alertRecipients: true } });
    if (!customer) throw notFound("Customer not found");
    const known = new Set(customer.alertRecipients.map((email) => email.toLowerCase()));
    for (const { email } of change.recipients ?? []) {
      if (!known.has(email.toLowerCase())) throw badRequest(`${email} is not an alert recipient of this customer`);
    }
    if (change.breachAlerts !== undefined || change.monthlyReport !== undefined || change.locale !== undefined) {
      await tx.customer.update({
        where: { id: customerId },
        data: { shouldReceiveBreachAlerts: change.breachAlerts, sendMonthlyReport: change.monthlyReport, localeCode: change.locale },
      });
    }
    for (const { email, kind, receive } of change.recipients ?? []) {
      const key = { customerId, kind, email: email.toLowerCase() };
      if (receive) await tx.notificationOptOut.deleteMany({ where: key });
      else await tx.notificationOptOut.createMany({ data: [key], skipDuplicates: true });
    }
    return notificationSettings(tx, customerId);
  });
}
