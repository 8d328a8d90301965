import { Prisma, type Db } from "../db/client";
import { readRows } from "../db/direct-read";
import type { CustomerStatus, NoticeDigest } from "../db/generated/enums";
import { resolvePlan } from "../distributors/plans";
import { isUniqueViolation } from "../db/errors";
import { badRequest, conflict, notFound } from "../errors";
import { normalizeValues } from "./assets";
import { syncBillingPeriod } from "./billing-periods";
import { CUSTOMER_NOT_FOUND, foundOrNotFound, ownedCustomerWhere } from "./ownership";

export const INFO_UPDATE_EMPTY =
  "At least one of companyName, contactEmail, customerReference, price, currencyCode, planType, planId, localeCode, " +
  "alertRecipients, sendMonthlyReport, shouldReceiveBreachAlerts or alertDigest must be provided";

export interface CustomerInfo {
  companyName: string;
  contactEmail: string;
  price: number;
  planType: string;
  localeCode: string;
  status: CustomerStatus;
  /** True once the customer's first scan has finished. */
  scannedStatus: boolean;
  customerReference: string;
  /** Null for a prospect onboarded without one. */
  currencyCode: string | null;
  planId: string;
  alertRecipients: string[];
  sendMonthlyReport: boolean;
  /** Null when never set: alerts then follow the status (server/notifications/breach-alerts.ts). */
  shouldReceiveBreachAlerts: boolean | null;
  /** Breach alerts at once (off) or as a daily or weekly summary (docs/notifications.md, "Digests"). */
  alertDigest: NoticeDigest;
}

export async function getCustomerInfo(db: Db, partnerId: string, customerId: string): Promise<CustomerInfo> {
  const customer = foundOrNotFound(
    await db.customer.findFirst({
      where: ownedCustomerWhere(partnerId, customerId),
      select: {
        companyName: true,
        contactEmail: true,
        price: true,
        localeCode: true,
        status: true,
        firstScannedAt: true,
        reference: true,
        currencyCode: true,
        planId: true,
        alertRecipients: true,
        sendMonthlyReport: true,
        shouldReceiveBreachAlerts: true,
        alertDigest: true,
        plan: { select: { planType: true } },
      },
    }),
  );
  return {
    companyName: customer.companyName,
    contactEmail: customer.contactEmail,
    price: customer.price.toNumber(),
    planType: customer.plan.planType,
    localeCode: customer.localeCode,
    status: customer.status,
    scannedStatus: customer.firstScannedAt !== null,
    customerReference: customer.reference,
    currencyCode: customer.currencyCode,
    planId: customer.planId,
    alertRecipients: customer.alertRecipients,
    sendMonthlyReport: customer.sendMonthlyReport,
    shouldReceiveBreachAlerts: customer.shouldReceiveBreachAlerts,
    alertDigest: customer.alertDigest,
  };
}

export interface CustomerInfoUpdate {
  companyName?: string;
  /** Also the e-mail address of the customer's portal user. */
  contactEmail?: string;
  price?: number;
  /** ISO 4217, upper-case (a prospect onboarded without one gets it here). */
  currencyCode?: string;
  planType?: string;
  /** A plan's id; wins over planType. */
  planId?: string;
  /** The partner's own reference, unique per partner. */
  customerReference?: string;
  /** One of the six locales (validated by the caller). */
  localeCode?: string;
  alertRecipients?: string[];
  sendMonthlyReport?: boolean;
  shouldReceiveBreachAlerts?: boolean;
  alertDigest?: NoticeDigest;
}

/**
 * Changes the customer's non-monitoring details: company, contact, reference, price and currency,
 * plan, locale and alert settings.
 */
export async function updateCustomerInfo(db: Db, partnerId: string, customerId: string, update: CustomerInfoUpdate): Promise<void> {
  const { companyName, contactEmail, price, currencyCode, planType, planId, customerReference, localeCode } = update;
  if (Object.values(update).every((value) => value === undefined)) throw badRequest(INFO_UPDATE_EMPTY);
  const alertRecipients = update.alertRecipients && normalizeValues("email", update.alertRecipients, "alertRecipients");
  const where = ownedCustomerWhere(partnerId, customerId);
  const plan = planId !== undefined || planType !== undefined ? await resolvePlan(db, { planId, planType }) : undefined;
  const reference = customerReference?.trim();
  await db.$transaction(async (tx) => {
    let count: number;
    try {
      ({ count } = await tx.customer.updateMany({
        where,
        data: {
          companyName: companyName?.trim(),
          contactEmail: contactEmail?.trim(),
          reference,
          price: price === undefined ? undefined : new Prisma.Decimal(price.toFixed(2)),
          currencyCode: currencyCode?.toUpperCase(),
          planId: plan?.id,
          localeCode,
          alertRecipients,
          sendMonthlyReport: update.sendMonthlyReport,
          shouldReceiveBreachAlerts: update.shouldReceiveBreachAlerts,
          alertDigest: update.alertDigest,
        },
      }));
    } catch (error) {
      if (isUniqueViolation(error, "customers_partner_id_reference_key")) {
        throw conflict(`A customer with reference "${reference}" already exists`);
      }
      throw error;
    }
    if (count === 0) throw notFound(CUSTOMER_NOT_FOUND);
    if (plan) await syncBillingPeriod(tx, customerId);
    if (contactEmail !== undefined) {
      await tx.portalUser.updateMany({ where: { customerId }, data: { email: contactEmail.trim().toLowerCase() } });
    }
  });
}

/**
 * The customer's threat score (0 to 97), kept up to date by the scans. A partner's polling path:
 * one prepared read straight to the driver (server/db/direct-read.ts).
 */
export async function getThreatScore(db: Db, partnerId: string, customerId: string): Promise<number> {
  const where = ownedCustomerWhere(partnerId, customerId);
  const rows = await readRows<{ threatScore: number }>(
    db,
    `SELECT threat_score AS "threatScore" FROM customers WHERE id = $1::uuid AND partner_id = $2::uuid`,
    [where.id, where.partnerId],
    { preparedAs: "customer-threat-score" },
  );
  return foundOrNotFound(rows[0] ?? null).threatScore;
}
