import { requestCustomerScan } from "./scan-requests";
import type { Db, Queryable } from "../db/client";
import { isUniqueViolation } from "../db/errors";
import type { AssetKind } from "../db/generated/enums";
import { resolvePlan } from "../distributors/plans";
import { badRequest, conflict } from "../errors";
import { customerRef, recordEvent } from "../events/outbox";
import { wakeJobWorkers } from "../jobs/wake";
import { log } from "../log";
import { queueWelcomeEmail } from "../notifications/welcome";
import { assetDomain } from "./asset-values";
import { normalizeValues, toAssetRefs, type AssetRow } from "./assets";
import { recordListedDisclosures, reserveListedDisclosures } from "./listed-disclosure";

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
  /** Required unless the customer is a prospect (0 when omitted). */
  price?: number;
  billedFromDate?: Date;
  /** Required unless the customer is a prospect (none when omitted). */
  currencyCode?: string;
  planId?: string;
  planType?: string;
  enrolType?: (typeof ENROL_TYPES)[number];
  sendMonthlyReport?: boolean;
  localeCode?: string;
  shouldReceiveBreachAlerts?: boolean;
  status?: (typeof ONBOARD_STATUSES)[number];
}

/**
 * Creates a partner's customer (`active`, or `prospect` for a one-time check) in one
 * transaction with its monitored assets, its portal user (from the contact e-mail, which is not
 * a monitored asset), the events customer.created and customer.asset.added (the initial assets),
 * the request for its initial scan, its welcome e-mail, and the lookup budget's decision on its
 * addresses (listed-disclosure.ts).
 */
export async function onboardCustomer(db: Db, partnerId: string, input: OnboardInput): Promise<{ customerId: string }> {
  const assets = [
    ...normalizeValues("domain", input.assetsDomains ?? [], "assetsDomains").map((value) => ({ kind: "domain" as const, value })),
    ...normalizeValues("email", input.assetsEmails ?? [], "assetsEmails").map((value) => ({ kind: "email" as const, value })),
  ];
  if (assets.length === 0) throw badRequest(NO_ASSETS);
  const status = input.status ?? "active";
  // A prospect is a one-time check, not billed: it needs no price or currency (docs/customers.md).
  if (status !== "prospect" && input.price === undefined) throw badRequest("Validation failed: price: Price is required");
  if (status !== "prospect" && input.currencyCode === undefined) {
    throw badRequest("Validation failed: currencyCode: Currency code is required");
  }
  const alertRecipients = input.alertRecipients && normalizeValues("email", input.alertRecipients, "alertRecipients");
  const plan = await resolvePlan(db, input);
  const contactEmail = input.contactEmail.trim();
  const customer: NewCustomerRow = {
    partnerId,
    reference: input.customerReference.trim(),
    companyName: input.companyName.trim(),
    contactEmail,
    price: (input.price ?? 0).toFixed(2),
    currencyCode: input.currencyCode?.toUpperCase() ?? null,
    billedFromDate: input.billedFromDate ?? null,
    planId: plan.id,
    localeCode: input.localeCode ?? DEFAULT_LOCALE,
    status,
    enrolType: input.enrolType ?? "opt-out",
    sendMonthlyReport: input.sendMonthlyReport ?? false,
    shouldReceiveBreachAlerts: input.shouldReceiveBreachAlerts ?? null,
    alertRecipients: alertRecipients ?? [contactEmail.toLowerCase()],
    portalUserEmail: contactEmail.toLowerCase(),
  };

  // A new customer has no verified domain: its addresses take the partner's lookup budget (listed-disclosure.ts).
  const disclosures = await reserveListedDisclosures(
    db,
    partnerId,
    assets.filter((asset) => asset.kind === "email").map((asset) => asset.value),
    { beforeTransaction: true },
  );
  let created: CreatedCustomer;
  try {
    created = await db.$transaction(async (tx) => {
      const row = await insertCustomer(tx, customer, assets);
      const ref = customerRef(row);
      await recordEvent(tx, { type: "customer.created", partnerId, customerId: row.id, data: { customer: ref } });
      await recordEvent(tx, {
        type: "customer.asset.added",
        partnerId,
        customerId: row.id,
        data: { customer: ref, assets: toAssetRefs(row.assets) },
      });
      await requestCustomerScan(tx, row.id, "onboard");
      await queueWelcomeEmail(tx, { ...customer, id: row.id, assets });
      const emails = row.assets.filter((asset) => asset.kind === "email");
      await recordListedDisclosures(tx, { partnerId, customerId: row.id, addresses: emails, decision: disclosures });
      return row;
    });
  } catch (error) {
    // The assets are deduplicated and the portal user is the customer's first: only the
    // (partner, reference) key can be taken by another customer.
    if (isUniqueViolation(error, "customers_partner_id_reference_key"))
      throw conflict(`A customer with reference "${customer.reference}" already exists`);
    throw error;
  }
  log.info("customer onboarded", { partnerId, customerId: created.id, status: customer.status });
  await wakeJobWorkers();
  return { customerId: created.id };
}

interface NewCustomerRow {
  partnerId: string;
  reference: string;
  companyName: string;
  contactEmail: string;
  /** Decimal text with two places. */
  price: string;
  currencyCode: string | null;
  billedFromDate: Date | null;
  planId: string;
  localeCode: string;
  status: (typeof ONBOARD_STATUSES)[number];
  enrolType: string;
  sendMonthlyReport: boolean;
  shouldReceiveBreachAlerts: boolean | null;
  alertRecipients: string[];
  portalUserEmail: string;
}

interface CreatedCustomer {
  id: string;
  companyName: string;
  reference: string;
  assets: AssetRow[];
}

/**
 * Inserts the customer, its assets, its portal user and (when active) its first billing period
 * (server/customers/billing-periods.ts) in one statement: onboarding is the hot write path
 * (partners onboard in bulk), and one round trip instead of three keeps its transaction short and
 * its CPU cost low (goal and figures: docs/measures.md). Returns the rows the events describe.
 */
async function insertCustomer(
  tx: Queryable,
  customer: NewCustomerRow,
  assets: ReadonlyArray<{ kind: AssetKind; value: string }>,
): Promise<CreatedCustomer> {
  const c = customer;
  const [row] = await tx.$queryRaw<CreatedCustomer[]>`
    WITH customer AS (
      INSERT INTO customers (partner_id, reference, company_name, contact_email, price, currency_code, billed_from_date,
                             plan_id, locale_code, status, enrol_type, send_monthly_report, should_receive_breach_alerts,
                             alert_recipients, monitored_domain_count, monitored_email_count, updated_at)
      VALUES (${c.partnerId}::uuid, ${c.reference}, ${c.companyName}, ${c.contactEmail}, ${c.price}::numeric, ${c.currencyCode}::text,
              ${c.billedFromDate}::timestamptz, ${c.planId}::uuid, ${c.localeCode}, ${c.status}::customer_status, ${c.enrolType},
              ${c.sendMonthlyReport}, ${c.shouldReceiveBreachAlerts}::boolean, ${c.alertRecipients}::text[],
              ${assets.filter((a) => a.kind === "domain").length}::int, ${assets.filter((a) => a.kind === "email").length}::int, now())
      RETURNING id, company_name, reference, partner_id, plan_id, status),
    billing_period AS (
      INSERT INTO customer_billing_periods (customer_id, partner_id, plan_id, started_at)
      SELECT id, partner_id, plan_id, now() FROM customer WHERE status = 'active'),
    assets AS (
      INSERT INTO monitored_assets (customer_id, kind, value, domain)
      SELECT customer.id, asset.kind, asset.value, asset.domain
      FROM customer, unnest(${assets.map((a) => a.kind)}::asset_kind[], ${assets.map((a) => a.value)}::text[],
                            ${assets.map((a) => assetDomain(a.kind, a.value))}::text[]) AS asset(kind, value, domain)
      RETURNING id, kind, value),
    portal_user AS (
      INSERT INTO portal_users (customer_id, email) SELECT id, ${c.portalUserEmail} FROM customer)
    SELECT customer.id::text AS id, customer.company_name AS "companyName", customer.reference,
           (SELECT coalesce(json_agg(json_build_object('id', id, 'kind', kind, 'value', value)), '[]') FROM assets) AS assets
    FROM customer`;
  return row!;
}
