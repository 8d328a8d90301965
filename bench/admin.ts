/**
 * What the admin UI's heaviest pages cost on PostgreSQL for a large distributor: 200 partners
 * with 100,000 customers between them (a quarter of the active ones changed plan or left in the
 * measured month). Measures the services the pages call, in-process (no HTTP):
 *   - the billing overview of a month, and its CSV
 *   - the overview's analytics across all partners
 *   - the partner list, first page and a search
 * Each is run BENCH_RUNS times (default 20) after one warm-up; median and p95 are reported.
 *
 *   npx tsx bench/admin.ts            (BENCH_DATABASE_URL, default postgresql://postgres@127.0.0.1:5432/postgres)
 *
 * A database of its own is created on that server and dropped afterwards. Results are printed
 * and written to bench/results/admin-<time>.json.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { getDistributorAnalytics } from "../server/customers/analytics";
import { openMissingBillingPeriods } from "../server/customers/billing-periods";
import type { Db } from "../server/db/client";
import { billingOverviewCsv, getBillingOverview } from "../server/distributors/billing";
import { createDistributor } from "../server/distributors/distributors";
import { listPartners } from "../server/distributors/partners";
import { createBenchDatabase } from "./support/bench-kit";

process.env.LOG_LEVEL ??= "warn";

const PARTNERS = Number(process.env.BENCH_PARTNERS ?? 200);
const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const MONTH = "2026-03";

async function seed(db: Db, distributorId: string) {
  await db.$executeRaw`
    INSERT INTO billing_codes (distributor_id, code, price) VALUES
      (${distributorId}::uuid, 'B-1', 2.50), (${distributorId}::uuid, 'P-1', 4.00), (${distributorId}::uuid, 'X-1', 7.25)`;
  await db.$executeRaw`
    INSERT INTO partners (distributor_id, name, account_reference, basic_billing_code, plus_billing_code, pro_billing_code, updated_at)
    SELECT ${distributorId}::uuid, 'Partner ' || lpad(g::text, 4, '0'), 'ACC-' || g, 'B-1', 'P-1', CASE WHEN g % 2 = 0 THEN 'X-1' END, now()
    FROM generate_series(1, ${PARTNERS}::int) AS g`;
  await db.$executeRaw`
    WITH partner AS (SELECT id, row_number() OVER (ORDER BY name) - 1 AS n FROM partners WHERE distributor_id = ${distributorId}::uuid),
         plan AS (SELECT id, row_number() OVER (ORDER BY sort_order) - 1 AS n FROM plans)
    INSERT INTO customers (partner_id, reference, company_name, contact_email, currency_code, plan_id, status, price,
                           created_at, status_changed_at, updated_at)
    SELECT partner.id, 'BENCH-' || g, 'Company ' || g, 'owner' || g || '@c' || g || '.example', 'USD', plan.id,
           (CASE WHEN g % 10 = 0 THEN 'prospect' WHEN g % 25 = 0 THEN 'inactive' ELSE 'active' END)::customer_status,
           10, timestamptz '2025-06-01' + make_interval(secs => g), timestamptz '2025-06-01' + make_interval(secs => g), now()
    FROM generate_series(1, ${CUSTOMERS}::int) AS g
    JOIN partner ON partner.n = g % ${PARTNERS}::int
    JOIN plan ON plan.n = g % 3`;
  await openMissingBillingPeriods(db);
  // In the measured month a quarter of the active customers moved plan or left and came back.
  await db.$executeRaw`
    WITH moved AS (
      UPDATE customer_billing_periods SET ended_at = timestamptz '2026-03-15'
      WHERE customer_id IN (SELECT id FROM customers WHERE status = 'active' AND right(reference, 1) IN ('1', '3'))
      RETURNING customer_id, partner_id, plan_id)
    INSERT INTO customer_billing_periods (customer_id, partner_id, plan_id, started_at)
    SELECT customer_id, partner_id, plan_id, timestamptz '2026-03-20' FROM moved`;
  await db.$executeRawUnsafe("VACUUM ANALYZE");
}

async function measure(label: string, work: () => Promise<unknown>) {
  await work();
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const figures = { medianMs: round(times[Math.floor(times.length / 2)]!), p95Ms: round(times[Math.ceil(times.length * 0.95) - 1]!) };
  console.log(`${label.padEnd(36)} median ${figures.medianMs} ms, p95 ${figures.p95Ms} ms`);
  return figures;
}

const round = (ms: number) => Math.round(ms * 10) / 10;

async function main() {
  const { database, drop } = await createBenchDatabase("admin");
  try {
    const db = database.prisma;
    const { id: distributorId } = await createDistributor(db, { name: "Bench distributor" });
    const started = Date.now();
    await seed(db, distributorId);
    console.log(`seeded ${PARTNERS} partners, ${CUSTOMERS} customers in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    const overview = await getBillingOverview(db, distributorId, MONTH);
    const results = {
      partners: PARTNERS,
      customers: CUSTOMERS,
      runs: RUNS,
      billedCustomers: overview.totals.activeCustomers,
      billingLines: overview.lines.length,
      billingOverview: await measure(`billing overview ${MONTH}`, () => getBillingOverview(db, distributorId, MONTH)),
      billingCsv: await measure("billing overview + CSV", async () =>
        billingOverviewCsv(await getBillingOverview(db, distributorId, MONTH)),
      ),
      distributorAnalytics: await measure("analytics across partners", () => getDistributorAnalytics(db, distributorId)),
      partnerListFirstPage: await measure("partner list, page 1", () => listPartners(db, distributorId, { page: 1, pageSize: 20 })),
      partnerListSearch: await measure("partner list, search 'partner 01'", () =>
        listPartners(db, distributorId, { search: "partner 01", page: 1, pageSize: 20 }),
      ),
    };
    await mkdir("bench/results", { recursive: true });
    const file = `bench/results/admin-${new Date().toISOString().replace(/[:.]/g, "-")}.json`;
    await writeFile(file, `${JSON.stringify(results, null, 2)}\n`);
    console.log(`written to ${file}`);
  } finally {
    await drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
