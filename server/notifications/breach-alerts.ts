import { randomUUID } from "node:crypto";
import { capturedWebsites, websitesOfBreach, type CapturedWebsites } from "../breaches/exposure-index/captured-websites";
import type { Db, Queryable } from "../db/client";
import { queueNotification } from "./messages";
import { claimNotices, EMAIL_ALERT_CHANNEL, takeHeldNotices, type NoticeCandidate } from "./quiet";
import type { AlertBreach, BreachAlertData } from "./types";
import { recipientsWanting, recipientsWantingEach } from "./unsubscribe";

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

/** What a scan newly recorded for one customer, for its breach alert (queueBreachAlert). */
export interface NewFindingsAlert {
  customerId: string;
  eventId?: string;
  findings: readonly AlertFinding[];
  websites?: CapturedWebsites;
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
export async function queueBreachAlert(tx: Queryable, alert: NewFindingsAlert): Promise<void> {
  await queueBreachAlerts(tx, [alert]);
}

/**
 * queueBreachAlert for many customers (incremental matching's pages): the customers, opt-outs,
 * ledger claims (one per digest setting) and catalogue facts each read in one statement, then one
 * message per customer told anything.
 */
export async function queueBreachAlerts(tx: Queryable, alerts: readonly NewFindingsAlert[]): Promise<void> {
  const due = alerts.filter((alert) => alert.findings.length > 0);
  if (due.length === 0) return;
  const customers = await alertCustomers(
    tx,
    due.map((alert) => alert.customerId),
  );
  const audiences = due.flatMap((alert) => {
    const customer = customers.get(alert.customerId);
    if (!customer) throw new Error(`customer ${alert.customerId} not found`);
    const audience = breachAlertAudience(customer);
    return audience ? [{ alert, customer, audience }] : [];
  });
  const recipients = await recipientsWantingEach(
    tx,
    "breach_alert",
    audiences.map(({ alert, customer }) => ({ customerId: alert.customerId, recipients: customer.alertRecipients })),
  );
  const addressed = audiences.filter(({ alert }) => (recipients.get(alert.customerId)?.length ?? 0) > 0);
  const told = new Map<string, NoticeCandidate[]>();
  for (const digest of new Set(addressed.map(({ customer }) => customer.alertDigest))) {
    const candidates = addressed
      .filter(({ customer }) => customer.alertDigest === digest)
      .flatMap(({ alert }) =>
        alert.findings.flatMap((finding) =>
          finding.emails.map((email) => ({ customerId: alert.customerId, email, breachId: finding.breachId })),
        ),
      );
    for (const notice of await claimNotices(tx, EMAIL_ALERT_CHANNEL, candidates, { digest }))
      told.set(notice.customerId, [...(told.get(notice.customerId) ?? []), notice]);
  }
  const telling = addressed.filter(({ alert }) => told.has(alert.customerId));
  const catalogue = await catalogueFacts(
    tx,
    telling
      .filter(({ audience }) => audience === "full")
      .flatMap(({ alert }) => told.get(alert.customerId)!.map((notice) => notice.breachId)),
  );
  for (const { alert, customer, audience } of telling) {
    await queueNotification(tx, {
      customerId: alert.customerId,
      cause: alert.eventId ?? `findings:${randomUUID()}`,
      localeCode: customer.localeCode,
      recipients: recipients.get(alert.customerId)!,
      content: {
        kind: "breach_alert",
        data: await alertData(tx, customer, audience, told.get(alert.customerId)!, alert.websites, catalogue),
      },
    });
  }
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

const ALERT_CUSTOMER = {
  id: true,
  status: true,
  shouldReceiveBreachAlerts: true,
  alertDigest: true,
  alertRecipients: true,
  localeCode: true,
  companyName: true,
  partner: { select: { sendTransactionalEmails: true } },
} as const;

async function alertCustomer(tx: Queryable, customerId: string) {
  return tx.customer.findUniqueOrThrow({ where: { id: customerId }, select: ALERT_CUSTOMER });
}

async function alertCustomers(tx: Queryable, customerIds: readonly string[]) {
  const rows = await tx.customer.findMany({ where: { id: { in: [...customerIds] } }, select: ALERT_CUSTOMER });
  return new Map(rows.map((row) => [row.id, row]));
}

const CATALOGUE_FACTS = {
  id: true,
  name: true,
  title: true,
  breachDate: true,
  pwnCount: true,
  dataClasses: true,
  isStealerLog: true,
} as const;

type CatalogueFacts = Awaited<ReturnType<typeof catalogueFacts>>;

/** The catalogue facts an alert's texts are made from, by breach id. */
async function catalogueFacts(tx: Queryable, breachIds: readonly string[]) {
  const ids = [...new Set(breachIds)];
  const rows = ids.length === 0 ? [] : await tx.breach.findMany({ where: { id: { in: ids } }, select: CATALOGUE_FACTS });
  return new Map(rows.map((row) => [row.id, row]));
}

/** What an alert tells about these (mailbox, breach) notices: in full, or only the redacted facts. */
async function alertData(
  tx: Queryable,
  customer: { companyName: string },
  audience: "full" | "redacted",
  notices: readonly NoticeCandidate[],
  websites?: CapturedWebsites,
  catalogue?: CatalogueFacts,
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
  return { companyName: customer.companyName, redacted: false, breaches: await alertBreaches(tx, emailsByBreach, websites, catalogue) };
}

/** The breaches with the catalogue facts their texts are made from, newest breach first. */
async function alertBreaches(
  tx: Queryable,
  emailsByBreach: ReadonlyMap<string, string[]>,
  known?: CapturedWebsites,
  read?: CatalogueFacts,
): Promise<AlertBreach[]> {
  const facts = read ?? (await catalogueFacts(tx, [...emailsByBreach.keys()]));
  const catalogue = [...emailsByBreach.keys()].flatMap((id) => facts.get(id) ?? []);
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
