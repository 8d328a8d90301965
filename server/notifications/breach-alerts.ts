import { randomUUID } from "node:crypto";
import { capturedWebsites, websitesOfBreach, type CapturedWebsites } from "../breaches/exposure-index/captured-websites";
import type { Db, Queryable } from "../db/client";
import { queueNotification } from "./messages";
import { claimNotices, EMAIL_ALERT_CHANNEL, takeHeldNotices, type NoticeCandidate } from "./quiet";
import type { AlertBreach, BreachAlertData } from "./types";
import { recipientsWanting } from "./unsubscribe";

/**
 * Who is told about new breaches, and how much (docs/notifications.md, "Who gets what"): nobody
 * when the partner sends no transactional e-mails; an active customer in full unless it turned
 * alerts off (shouldReceiveBreachAlerts false); a prospect only when alerts were enabled at
 * onboarding (true), and then only the redacted facts; inactive and dormant customers never.
 */
export function breachAlertAudience(customer: {
  status: string;
  shouldReceiveBreachAlerts: boolean | null;
  partner: { sendTransactionalEmails: boolean };
}): "full" | "redacted" | undefined {
  if (!customer.partner.sendTransactionalEmails) return undefined;
  if (customer.status === "active") return customer.shouldReceiveBreachAlerts === false ? undefined : "full";
  if (customer.status === "prospect") return customer.shouldReceiveBreachAlerts === true ? "redacted" : undefined;
  return undefined;
}

/** Mailboxes a scan newly recorded in one catalogue breach (a new instance's, or those an instance gained). */
export interface AlertFinding {
  breachId: string;
  emails: readonly string[];
}

/**
 * The breach alert for what a scan newly recorded, to the customer's alert recipients who did
 * not opt out. Called in the scan's transaction. Every (mailbox, breach) passes the quiet ledger
 * (claimNotices): one told before, muted, or an inactive user's is left out, so a rescan,
 * re-import, re-sync or reactivation never alerts twice; with the customer's alertDigest the
 * claims wait for the summary (queueAlertDigest). The cause is the scan's customer.breach.found
 * event when it has one (`eventId`), else a new id. `websites`: what the scan looked up of the
 * stealer logs it recorded (capturedWebsites), so the alert need not look again.
 */
export async function queueBreachAlert(
  tx: Queryable,
  alert: { customerId: string; eventId?: string; findings: readonly AlertFinding[]; websites?: CapturedWebsites },
): Promise<void> {
  if (alert.findings.length === 0) return;
  const customer = await alertCustomer(tx, alert.customerId);
  const audience = breachAlertAudience(customer);
  if (!audience) return;
  const recipients = await recipientsWanting(tx, alert.customerId, "breach_alert", customer.alertRecipients);
  if (recipients.length === 0) return;
  const candidates = alert.findings.flatMap((finding) =>
    finding.emails.map((email) => ({ customerId: alert.customerId, email, breachId: finding.breachId })),
  );
  const told = await claimNotices(tx, EMAIL_ALERT_CHANNEL, candidates, { digest: customer.alertDigest });
  if (told.length === 0) return;
  await queueNotification(tx, {
    customerId: alert.customerId,
    cause: alert.eventId ?? `findings:${randomUUID()}`,
    localeCode: customer.localeCode,
    recipients,
    content: { kind: "breach_alert", data: await alertData(tx, customer, audience, told, alert.websites) },
  });
}

/**
 * One customer's daily or weekly summary (docs/notifications.md, "Digests"): what the ledger held
 * for it, as one breach alert whose cause is `digest:<digest>:<slot>`. What was muted meanwhile is
 * left out; with alerts off or no recipient now, the held notices are dropped untold. Returns the
 * new messages' ids.
 */
export async function queueAlertDigest(
  db: Db,
  { customerId, digest, slot }: { customerId: string; digest: "daily" | "weekly"; slot: string },
): Promise<string[]> {
  return db.$transaction(async (tx) => {
    const taken = await takeHeldNotices(tx, EMAIL_ALERT_CHANNEL, customerId, digest);
    if (taken.length === 0) return [];
    const customer = await alertCustomer(tx, customerId);
    const audience = breachAlertAudience(customer);
    if (!audience) return [];
    const recipients = await recipientsWanting(tx, customerId, "breach_alert", customer.alertRecipients);
    return queueNotification(tx, {
      customerId,
      cause: `digest:${digest}:${slot}`,
      localeCode: customer.localeCode,
      recipients,
      content: { kind: "breach_alert", data: { ...(await alertData(tx, customer, audience, taken)), digest } },
    });
  });
}

async function alertCustomer(tx: Queryable, customerId: string) {
  return tx.customer.findUniqueOrThrow({
    where: { id: customerId },
    select: {
      status: true,
      shouldReceiveBreachAlerts: true,
      alertDigest: true,
      alertRecipients: true,
      localeCode: true,
      companyName: true,
      partner: { select: { sendTransactionalEmails: true } },
    },
  });
}

/** What an alert tells about these (mailbox, breach) notices: in full, or only the redacted facts. */
async function alertData(
  tx: Queryable,
  customer: { companyName: string },
  audience: "full" | "redacted",
  notices: readonly NoticeCandidate[],
  websites?: CapturedWebsites,
): Promise<BreachAlertData> {
  const emailsByBreach = new Map<string, string[]>();
  for (const { breachId, email } of notices) emailsByBreach.set(breachId, [...(emailsByBreach.get(breachId) ?? []), email]);
  if (audience === "redacted") {
    return {
      companyName: customer.companyName,
      redacted: true,
      count: emailsByBreach.size,
      emails: [...new Set(notices.map((notice) => notice.email))].sort(),
    };
  }
  return { companyName: customer.companyName, redacted: false, breaches: await alertBreaches(tx, emailsByBreach, websites) };
}

/** The breaches with the catalogue facts their texts are made from, newest breach first. */
async function alertBreaches(
  tx: Queryable,
  emailsByBreach: ReadonlyMap<string, string[]>,
  known?: CapturedWebsites,
): Promise<AlertBreach[]> {
  const catalogue = await tx.breach.findMany({
    where: { id: { in: [...emailsByBreach.keys()] } },
    select: { id: true, name: true, title: true, breachDate: true, pwnCount: true, dataClasses: true, isStealerLog: true },
  });
  // Stealer logs are recorded only for addresses at a verified domain (server/findings/disclosure.ts), so all told may be named.
  const websites =
    known ??
    (await capturedWebsites(
      tx,
      catalogue.filter((facts) => facts.isStealerLog).map((facts) => ({ breachId: facts.id, emails: emailsByBreach.get(facts.id)! })),
    ));
  return catalogue
    .map((facts) => ({
      name: facts.name,
      title: facts.title,
      breachDate: facts.breachDate.toISOString().slice(0, 10),
      pwnCount: Number(facts.pwnCount),
      dataClasses: facts.dataClasses,
      emails: [...emailsByBreach.get(facts.id)!].sort(),
      ...(facts.isStealerLog && { websiteDomains: websitesOfBreach(websites.get(facts.id), emailsByBreach.get(facts.id)) }),
    }))
    .sort((a, b) => b.breachDate.localeCompare(a.breachDate) || a.name.localeCompare(b.name));
}
