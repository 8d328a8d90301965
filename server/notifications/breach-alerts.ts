import type { BreachSummary } from "../events/outbox";
import type { Queryable } from "../db/client";
import { queueNotification } from "./messages";
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

/**
 * The breach alert for the new breach instances a scan recorded (the customer.breach.found
 * event `eventId` announces them), to the customer's alert recipients who did not opt out.
 * Called in the scan's transaction; the event id is the message's cause.
 */
export async function queueBreachAlert(
  tx: Queryable,
  alert: { customerId: string; eventId: string; breaches: readonly BreachSummary[] },
): Promise<void> {
  if (alert.breaches.length === 0) return;
  const customer = await tx.customer.findUniqueOrThrow({
    where: { id: alert.customerId },
    select: {
      status: true,
      shouldReceiveBreachAlerts: true,
      alertRecipients: true,
      localeCode: true,
      companyName: true,
      partner: { select: { sendTransactionalEmails: true } },
    },
  });
  const audience = breachAlertAudience(customer);
  if (!audience) return;
  const recipients = await recipientsWanting(tx, alert.customerId, "breach_alert", customer.alertRecipients);
  if (recipients.length === 0) return;
  const data: BreachAlertData =
    audience === "redacted"
      ? {
          companyName: customer.companyName,
          redacted: true,
          count: alert.breaches.length,
          emails: [...new Set(alert.breaches.flatMap((breach) => breach.emails))].sort(),
        }
      : { companyName: customer.companyName, redacted: false, breaches: await alertBreaches(tx, alert.breaches) };
  await queueNotification(tx, {
    customerId: alert.customerId,
    cause: alert.eventId,
    localeCode: customer.localeCode,
    recipients,
    content: { kind: "breach_alert", data },
  });
}

/** The new instances with the catalogue facts their texts are made from, newest breach first. */
async function alertBreaches(tx: Queryable, breaches: readonly BreachSummary[]): Promise<AlertBreach[]> {
  const catalogue = await tx.breach.findMany({
    where: { name: { in: breaches.map((breach) => breach.name) } },
    select: { name: true, title: true, breachDate: true, pwnCount: true, dataClasses: true },
  });
  const byName = new Map(catalogue.map((breach) => [breach.name, breach]));
  return breaches
    .map((breach) => {
      const facts = byName.get(breach.name)!;
      return {
        name: breach.name,
        title: facts.title,
        breachDate: facts.breachDate.toISOString().slice(0, 10),
        pwnCount: Number(facts.pwnCount),
        dataClasses: facts.dataClasses,
        emails: breach.emails,
      };
    })
    .sort((a, b) => b.breachDate.localeCompare(a.breachDate) || a.name.localeCompare(b.name));
}
