import type { NotificationKind } from "../db/generated/enums";

export type { NotificationKind };
/** The e-mails to a partner's customers (localized, with an unsubscribe link). */
export const CUSTOMER_NOTIFICATION_KINDS = ["welcome", "breach_alert", "monthly_report"] as const satisfies readonly NotificationKind[];
/** Operational e-mails to an organization (a partner or a distributor) about its webhook endpoints and its PSA connection. */
export const ORGANIZATION_NOTIFICATION_KINDS = [
  "webhook_failing",
  "webhook_disabled",
  "psa_failing",
] as const satisfies readonly NotificationKind[];
export const NOTIFICATION_KINDS = [
  ...CUSTOMER_NOTIFICATION_KINDS,
  ...ORGANIZATION_NOTIFICATION_KINDS,
] as const satisfies readonly NotificationKind[];
export type CustomerNotificationKind = (typeof CUSTOMER_NOTIFICATION_KINDS)[number];
export type OrganizationNotificationKind = (typeof ORGANIZATION_NOTIFICATION_KINDS)[number];

export function isCustomerNotificationKind(kind: NotificationKind): kind is CustomerNotificationKind {
  return (CUSTOMER_NOTIFICATION_KINDS as readonly NotificationKind[]).includes(kind);
}

/**
 * The facts each kind of message is rendered from, stored with the message when its cause is
 * recorded (notifications.data): a retry, and the staff preview, show what the first attempt
 * would have sent. Names of the partner come from its row when the message is rendered.
 */
export interface WelcomeData {
  companyName: string;
  domains: string[];
  emails: string[];
}

/** A new breach instance of an active customer, with the catalogue facts its texts are made from. */
export interface AlertBreach {
  name: string;
  title: string;
  /** YYYY-MM-DD */
  breachDate: string;
  pwnCount: number;
  dataClasses: string[];
  emails: string[];
  /**
   * A stealer-log breach: the websites whose passwords malware captured for these addresses,
   * sorted (the alert gives the stealer-log steps instead of the data classes'). Absent otherwise.
   */
  websiteDomains?: string[];
}

/**
 * Active customers get every breach; prospects only the redacted facts: count and exposed addresses.
 * `digest` marks a daily or weekly summary of what the quiet ledger held (docs/notifications.md).
 */
export type BreachAlertData = (
  | { companyName: string; redacted: false; breaches: AlertBreach[] }
  | { companyName: string; redacted: true; count: number; emails: string[] }
) & { digest?: "daily" | "weekly" };

export interface ReportBreach {
  title: string;
  /** YYYY-MM-DD */
  breachDate: string;
  emails: string[];
}

export interface MonthlyReportData {
  companyName: string;
  /** The reported month, "2026-10". */
  period: string;
  threatScore: number;
  /** The previous monthly report's month and score, for the change; null for the first report. */
  previous: { period: string; threatScore: number } | null;
  newBreaches: { count: number; listed: ReportBreach[] };
  openBreaches: number;
  fixedBreaches: number;
  domains: string[];
  /** The active mailboxes monitored (a directory user who left is not), those of the directory included. */
  emailCount: number;
  /*
   * The lists below came with the "still open" and "resolved" sections; a report stored before
   * them (a retry, the staff preview) has none and shows the counts alone.
   */
  /** The breaches open at the time of the report, newest first, at most LISTED_REPORT_BREACHES. */
  openListed?: ReportBreach[];
  /** The breaches resolved in the period, last resolved first, at most LISTED_REPORT_BREACHES. */
  fixedListed?: Array<ReportBreach & { /** YYYY-MM-DD */ resolvedAt: string }>;
  /** Of emailCount, the mailboxes of the customer's connected directory. */
  directoryEmailCount?: number;
}

/**
 * A webhook endpoint as its owner's message describes it (docs/webhooks.md, "Health and
 * warnings"): read when the state change is handled, so the message says what was true then.
 */
export interface WebhookHealthEndpoint {
  id: string;
  url: string;
  protocol: "current" | "legacy" | "channel";
  /** The endpoint's REST path ("/api/v1/integrations/webhooks/<id>"), for the steps the message gives. */
  apiPath: string;
  /** The admin UI's page of the endpoint ("/admin/webhooks/<id>"), for a distributor's own endpoint (its staff sign in there). */
  adminPath: string | null;
}

export interface WebhookFailingData {
  /** The partner's or distributor's name. */
  organizationName: string;
  endpoint: WebhookHealthEndpoint;
  /** ISO time: when the current run of failed deliveries began. */
  failingSince: string;
  consecutiveFailures: number;
  /** The last failed delivery's error. */
  lastError: string | null;
  lastSuccessAt: string | null;
  /** ISO time to recover from: the creation of the oldest delivery that failed in this run. */
  recoverSince: string;
  /** Failed deliveries in a row that disable the endpoint. */
  disableAfter: number;
}

export interface WebhookDisabledData {
  organizationName: string;
  endpoint: WebhookHealthEndpoint;
  /** Why the service disabled it: failed deliveries in a row, or the receiver answered 410 Gone. */
  disabledKind: "failing" | "gone";
  disabledReason: string | null;
  /** ISO time of the disable. */
  disabledAt: string;
  lastSuccessAt: string | null;
  /** ISO time to recover from: the creation of the oldest delivery that failed in this run (else the disable). */
  recoverSince: string;
}

/** A partner's PSA refused the connection's credentials (docs/integrations.md, "PSA: exactly once"). */
export interface PsaFailingData {
  /** The partner's name. */
  organizationName: string;
  provider: "connectwise" | "autotask" | "halopsa";
  /** The site, zone or instance URL. */
  baseUrl: string;
  /** ISO time: when the PSA first refused the credentials in this episode. */
  failingSince: string;
  /** What the PSA answered. */
  lastError: string;
}

export interface NotificationDataByKind {
  welcome: WelcomeData;
  breach_alert: BreachAlertData;
  monthly_report: MonthlyReportData;
  webhook_failing: WebhookFailingData;
  webhook_disabled: WebhookDisabledData;
  psa_failing: PsaFailingData;
}

/** A message of one kind with its facts (what queueing writes and rendering reads). */
type ContentOf<K extends NotificationKind> = { [Kind in K]: { kind: Kind; data: NotificationDataByKind[Kind] } }[K];
export type CustomerNotificationContent = ContentOf<CustomerNotificationKind>;
export type OrganizationNotificationContent = ContentOf<OrganizationNotificationKind>;
export type WebhookHealthContent = ContentOf<"webhook_failing" | "webhook_disabled">;
export type NotificationContent = ContentOf<NotificationKind>;
