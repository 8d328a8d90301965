import type { Db } from "../db/client";
import { notFound } from "../errors";
import { customerRef, recordEvent } from "../events/outbox";
import type { LocaleCode } from "../i18n/locales";
import { portalLocale } from "../i18n/negotiate";
import { wakeJobWorkers } from "../jobs/wake";
import { breachFields, byBreachDateDesc, customerBreachEntry, redactedBreachEntry } from "../breaches/catalogue/records";
import { refreshThreatScore } from "../customers/threat-score";
import { requestPartnerPsaSync } from "./psa-requests";

export const CUSTOMER_NOT_FOUND = "Customer not found or does not belong to partner";
export const BREACH_INSTANCE_NOT_FOUND = "Breach not found or does not belong to partner";

/**
 * A customer's breach list (GET customer/{customerId}/breaches). Prospects get the redacted
 * envelope (instance id, addresses, resolved flag; nothing about the breach itself); every other
 * status gets the full entries (docs/breaches.md, "List a customer's breaches"), their texts in
 * `requestedLocale`, else in the customer's own locale.
 */
export async function listCustomerBreaches(db: Db, partnerId: string, customerId: string, requestedLocale?: LocaleCode) {
  const customer = await db.customer.findFirst({ where: { id: customerId, partnerId }, select: { status: true, localeCode: true } });
  if (!customer) throw notFound(CUSTOMER_NOT_FOUND);
  const locale = requestedLocale ?? portalLocale(customer.localeCode);
  const instances = await db.customerBreach.findMany({
    where: { customerId },
    select: { id: true, emails: true, resolved: true, breach: { select: { ...breachFields, isStealerLog: true } } },
  });
  instances.sort((a, b) => byBreachDateDesc(a.breach, b.breach));
  const envelope = { success: true as const, breachStatus: instances.length > 0, count: instances.length };
  if (customer.status === "prospect") return { ...envelope, breaches: instances.map(redactedBreachEntry) };
  const websites = await stealerLogWebsites(
    db,
    instances.filter((instance) => instance.breach.isStealerLog).map((instance) => instance.id),
  );
  return {
    ...envelope,
    breaches: instances.map((instance) => ({
      ...customerBreachEntry(instance, instance.breach, locale),
      ...(instance.breach.isStealerLog && { websiteDomains: websites.get(instance.id) ?? [] }),
    })),
  };
}

/** The websites captured for the addresses of these stealer-log instances, sorted, by instance id. */
async function stealerLogWebsites(db: Db, instanceIds: readonly string[]): Promise<Map<string, string[]>> {
  if (instanceIds.length === 0) return new Map();
  const rows = await db.$queryRaw<Array<{ id: string; websites: string[] }>>`
    SELECT cb.id::text, array_agg(DISTINCT s.website_domain ORDER BY s.website_domain) AS websites
    FROM customer_breaches cb
    CROSS JOIN LATERAL unnest(cb.emails) AS e(email)
    JOIN stealer_log_exposures s ON s.domain = substr(e.email, strpos(e.email, '@') + 1) AND s.email = e.email AND s.breach_id = cb.breach_id
    WHERE cb.id = ANY(${[...instanceIds]}::uuid[])
    GROUP BY cb.id`;
  return new Map(rows.map((row) => [row.id, row.websites]));
}

/**
 * Sets the resolved flag of a breach instance of one of the partner's customers (breach/status).
 * `customerId`, when given, must be the instance's customer. Only a change of the flag emits
 * customer.breach.resolved / unresolved and recomputes the threat score; a conditional update
 * makes that happen once even when two requests race.
 */
export async function setBreachResolved(
  db: Db,
  partnerId: string,
  input: { breachInstanceId: string; customerId?: string; resolved: boolean },
): Promise<{ resolved: boolean }> {
  const changed = await db.$transaction(async (tx) => {
    const instance = await tx.customerBreach.findFirst({
      where: { id: input.breachInstanceId, customer: { partnerId, ...(input.customerId ? { id: input.customerId } : {}) } },
      select: { id: true, customerId: true },
    });
    if (!instance) throw notFound(BREACH_INSTANCE_NOT_FOUND);
    const updated = await tx.customerBreach.updateMany({
      where: { id: instance.id, resolved: !input.resolved },
      data: { resolved: input.resolved, resolvedAt: input.resolved ? new Date() : null },
    });
    if (updated.count === 0) return false;
    const row = await tx.customerBreach.findUniqueOrThrow({
      where: { id: instance.id },
      select: { emails: true, breach: { select: { name: true } }, customer: { select: { id: true, companyName: true, reference: true } } },
    });
    await recordEvent(tx, {
      type: input.resolved ? "customer.breach.resolved" : "customer.breach.unresolved",
      partnerId,
      customerId: instance.customerId,
      data: { customer: customerRef(row.customer), breaches: [{ uuid: instance.id, name: row.breach.name, emails: row.emails }] },
    });
    await refreshThreatScore(tx, instance.customerId);
    await requestPartnerPsaSync(tx, partnerId);
    return true;
  });
  if (changed) await wakeJobWorkers();
  return { resolved: input.resolved };
}
