import { Prisma, type Db } from "../db/client";
import { badRequest } from "../errors";

/**
 * The billing overview of a distributor for one calendar month (UTC): per partner and plan, the
 * customers billed and what they cost at the partner's billing code for that plan.
 *
 * A customer is billed in a month when it was `active` at any time in it (its billing periods,
 * server/customers/billing-periods.ts) and its billing had started by the month's end (no
 * billedFromDate, or one before the end). It is billed once, on the plan of its last active
 * period in the month. The partner's billing code for a plan is its basic/plus/pro_billing_code;
 * the unit price is the price of the distributor's billing code with that code.
 */
export const BILLING_MONTH_PATTERN = /^(\d{4})-(0[1-9]|1[0-2])$/;
export const INVALID_BILLING_MONTH = "Month must be given as YYYY-MM";

export interface BillingLine {
  partnerId: string;
  partnerName: string;
  accountReference: string | null;
  planType: string;
  planName: string;
  /** The partner's billing code for the plan; null when the partner has none set. */
  billingCode: string | null;
  /** The price of that billing code; null when the code is not set or not one of the distributor's codes. */
  unitPrice: number | null;
  /** The billing code's currency (ISO 4217); null without a unit price. */
  currency: string | null;
  activeCustomers: number;
  /** activeCustomers x unitPrice; null without a unit price. */
  amount: number | null;
}

export interface BillingOverview {
  month: string;
  /** The first instant of the month and of the next one (UTC). */
  from: Date;
  to: Date;
  lines: BillingLine[];
  /** `amount` adds up every priced line; `byCurrency` the same per currency (a mix of currencies is never one sum). */
  totals: { activeCustomers: number; amount: number; unpricedCustomers: number; byCurrency: Array<{ currency: string; amount: number }> };
}

export function billingMonthRange(month: string): { from: Date; to: Date } {
  const match = BILLING_MONTH_PATTERN.exec(month);
  if (!match) throw badRequest(`Validation failed: month: ${INVALID_BILLING_MONTH}`);
  const year = Number(match[1]);
  const monthIndex = Number(match[2]) - 1;
  return { from: new Date(Date.UTC(year, monthIndex, 1)), to: new Date(Date.UTC(year, monthIndex + 1, 1)) };
}

/** "YYYY-MM" of an instant (UTC). */
export function billingMonthOf(instant: Date): string {
  return instant.toISOString().slice(0, 7);
}

/** A line as the query returns it: the price still a Decimal, the amount not yet computed. */
type BillingRow = Omit<BillingLine, "unitPrice" | "amount"> & { unitPrice: Prisma.Decimal | null };

export async function getBillingOverview(db: Db, distributorId: string, month: string): Promise<BillingOverview> {
  const { from, to } = billingMonthRange(month);
  const rows = await db.$queryRaw<BillingRow[]>`
    WITH billed AS (
      SELECT DISTINCT ON (period.customer_id) period.partner_id, period.plan_id
      FROM customer_billing_periods period
      JOIN partners partner ON partner.id = period.partner_id
      JOIN customers customer ON customer.id = period.customer_id
      WHERE partner.distributor_id = ${distributorId}::uuid
        AND period.started_at < ${to} AND (period.ended_at IS NULL OR period.ended_at > ${from})
        AND (customer.billed_from_date IS NULL OR customer.billed_from_date < ${to})
      ORDER BY period.customer_id, period.started_at DESC)
    SELECT partner.id::text AS "partnerId", partner.name AS "partnerName", partner.account_reference AS "accountReference",
           plan.plan_type AS "planType", plan.display_name AS "planName", assigned.code AS "billingCode",
           code.price AS "unitPrice", code.currency, count(*)::int AS "activeCustomers"
    FROM billed
    JOIN partners partner ON partner.id = billed.partner_id
    JOIN plans plan ON plan.id = billed.plan_id
    CROSS JOIN LATERAL (SELECT CASE plan.plan_type WHEN 'basic' THEN partner.basic_billing_code
                                                   WHEN 'plus' THEN partner.plus_billing_code
                                                   WHEN 'pro' THEN partner.pro_billing_code END AS code) assigned
    LEFT JOIN billing_codes code ON code.distributor_id = ${distributorId}::uuid AND code.code = assigned.code
    GROUP BY partner.id, partner.name, partner.account_reference, plan.plan_type, plan.display_name, plan.sort_order,
             assigned.code, code.price, code.currency
    ORDER BY partner.name, partner.id, plan.sort_order`;

  let amount = new Prisma.Decimal(0);
  let activeCustomers = 0;
  let unpricedCustomers = 0;
  const byCurrency = new Map<string, Prisma.Decimal>();
  const lines = rows.map((row): BillingLine => {
    const lineAmount = row.unitPrice?.mul(row.activeCustomers) ?? null;
    activeCustomers += row.activeCustomers;
    if (lineAmount) {
      amount = amount.add(lineAmount);
      byCurrency.set(row.currency!, (byCurrency.get(row.currency!) ?? new Prisma.Decimal(0)).add(lineAmount));
    } else unpricedCustomers += row.activeCustomers;
    return {
      ...row,
      unitPrice: row.unitPrice?.toNumber() ?? null,
      amount: lineAmount?.toNumber() ?? null,
    };
  });
  return {
    month,
    from,
    to,
    lines,
    totals: {
      activeCustomers,
      amount: amount.toNumber(),
      unpricedCustomers,
      byCurrency: [...byCurrency].sort(([a], [b]) => a.localeCompare(b)).map(([currency, sum]) => ({ currency, amount: sum.toNumber() })),
    },
  };
}

const CSV_COLUMNS = [
  "month",
  "partner_id",
  "partner_name",
  "account_reference",
  "plan",
  "billing_code",
  "unit_price",
  "active_customers",
  "amount",
  "currency",
] as const;

/**
 * The overview as CSV (RFC 4180: comma-separated, CRLF line ends, fields quoted when needed).
 * Text that a spreadsheet would read as a formula (starting with =, +, -, @, tab or CR) is
 * prefixed with an apostrophe. Money has two decimals; a missing code or price is an empty field.
 */
export function billingOverviewCsv(overview: Pick<BillingOverview, "month" | "lines">): string {
  const money = (value: number | null) => (value === null ? "" : value.toFixed(2));
  const lines = overview.lines.map((line) => [
    overview.month,
    line.partnerId,
    csvText(line.partnerName),
    csvText(line.accountReference ?? ""),
    csvText(line.planType),
    csvText(line.billingCode ?? ""),
    money(line.unitPrice),
    String(line.activeCustomers),
    money(line.amount),
    line.currency ?? "",
  ]);
  return [CSV_COLUMNS.join(","), ...lines.map((fields) => fields.join(","))].map((line) => `${line}\r\n`).join("");
}

function csvText(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}
