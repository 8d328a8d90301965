import type { NotificationKind } from "../db/generated/enums";

export type { NotificationKind };
export const NOTIFICATION_KINDS = ["welcome", "breach_alert", "monthly_report"] as const satisfies readonly NotificationKind[];

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
}

/** Active customers get every breach; prospects only the redacted facts (SPEC 2.4): count and exposed addresses. */
export type BreachAlertData =
  | { companyName: string; redacted: false; breaches: AlertBreach[] }
  | { companyName: string; redacted: true; count: number; emails: string[] };

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
  emailCount: number;
}

export interface NotificationDataByKind {
  welcome: WelcomeData;
  breach_alert: BreachAlertData;
  monthly_report: MonthlyReportData;
}

/** A message of one kind with its facts (what queueing writes and rendering reads). */
export type NotificationContent = { [K in NotificationKind]: { kind: K; data: NotificationDataByKind[K] } }[NotificationKind];
