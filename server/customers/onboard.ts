import { requestCustomerScan } from "../breaches/scan-requests";
import { Prisma, type Db } from "../db/client";
import { resolvePlan } from "../distributors/plans";
import { badRequest, conflict } from "../errors";
import { customerRef, recordEvent } from "../events/outbox";
import { wakeJobWorkers } from "../jobs/wake";
import { log } from "../log";
import { insertAssets, normalizeValues, toAssetRefs } from "./assets";

export const ENROL_TYPES = ["opt-in", "opt-out"] as const;
export const ONBOARD_STATUSES = ["active", "prospect"] as const;
export const DEFAULT_LOCALE = "en-GB";
export const NO_ASSETS = "Validation failed: assetsDomains: At least one of assetsDomains or assetsEmails is required";

export interface OnboardInput {
  companyName: string;
  contactEmail: string;
  customerReference: string;
  assetsDomains?: string[];
  assetsEmails?: string[];
  /** Who receives breach alerts; the contact e-mail when omitted. */
  alertRecipients?: string[];
  price: number;
  billedFromDate?: Date;
  currencyCode: string;
  planId?: string;
  planType?: string;
  enrolType?: (typeof ENROL_TYPES)[number];
  sendMonthlyReport?: boolean;
  localeCode?: string;
  shouldReceiveBreachAlerts?: boolean;
  status?: (typeof ONBOARD_STATUSES)[number];
}

/**
 * Creates a partner's customer (SPEC 3.1: `active`, or `prospect` for a one-time check) in one
 * transaction with its monitored assets, its portal user (from the contact e-mail, which is not
 * a monitored asset), the events customer.created and, when it has assets, customer.asset.added,
 * and the request for its initial scan.
 */
export async function onboardCustomer(db: Db, partnerId: string, input: OnboardInput): Promise<{ customerId: string }> {
  const domains = normalizeValues("domain", input.assetsDomains ?? [], "assetsDomains");
  const emails = normalizeValues("email", input.assetsEmails ?? [], "assetsEmails");
  if (domains.length + emails.length === 0) throw badRequest(NO_ASSETS);
  const alertRecipients = input.alertRecipients && normalizeValues("email", input.alertRecipients, "alertRecipients");
  const plan = await resolvePlan(db, input);
  const reference = input.customerReference.trim();
  const contactEmail = input.contactEmail.trim();

  let customerId: string;
  try {
    customerId = await db.$transaction(async (tx) => {
      const customer = await tx.customer.create({
        data: {
          partnerId,
          reference,
          companyName: input.companyName.trim(),
          contactEmail,
          price: new Prisma.Decimal(input.price.toFixed(2)),
          currencyCode: input.currencyCode.toUpperCase(),
          billedFromDate: input.billedFromDate ?? null,
          planId: plan.id,
          localeCode: input.localeCode ?? DEFAULT_LOCALE,
          status: input.status ?? "active",
          enrolType: input.enrolType ?? "opt-out",
          sendMonthlyReport: input.sendMonthlyReport ?? false,
          shouldReceiveBreachAlerts: input.shouldReceiveBreachAlerts ?? null,
          alertRecipients: alertRecipients ?? [contactEmail.toLowerCase()],
        },
        select: { id: true, companyName: true, reference: true },
      });
      const assets = await insertAssets(tx, customer.id, [
        ...domains.map((value) => ({ kind: "domain" as const, value })),
        ...emails.map((value) => ({ kind: "email" as const, value })),
      ]);
      await tx.portalUser.create({ data: { customerId: customer.id, email: contactEmail.toLowerCase() } });
      const ref = customerRef(customer);
      await recordEvent(tx, { type: "customer.created", partnerId, customerId: customer.id, data: { customer: ref } });
      await recordEvent(tx, {
        type: "customer.asset.added",
        partnerId,
        customerId: customer.id,
        data: { customer: ref, assets: toAssetRefs(assets) },
      });
      await requestCustomerScan(tx, customer.id, "onboard");
      return customer.id;
    });
  } catch (error) {
    // The only unique key a new customer can collide on is (partner, reference): the assets
    // are deduplicated and the portal user is the customer's first.
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      throw conflict(`A customer with reference "${reference}" already exists`);
    }
    throw error;
  }
  log.info("customer onboarded", { partnerId, customerId, status: input.status ?? "active" });
  await wakeJobWorkers();
  return { customerId };
}
