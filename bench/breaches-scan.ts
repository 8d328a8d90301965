/**
 * Scan throughput (issue 4 measure: a scan of 100,000 monitored addresses of 1,000 customers in
 * < 30 s with < 1 GiB RSS). Builds 1,000 active customers, each with one monitored domain and
 * 100 monitored addresses (half at its domain, half elsewhere), exposures for about a third of
 * them plus unmonitored addresses at the domains (discovery), then runs the daily scan of every
 * active customer (admin run-scans) twice: the first records everything, the second finds nothing new.
 *   npx tsx bench/breaches-scan.ts [--customers 1000] [--addresses 100] [--concurrency 4]
 */
import { parseArgs } from "node:util";
import { BUNDLED_CATALOGUE } from "../server/breaches/exposure-index/demo";
import { insertExposures, type Exposure } from "../server/breaches/exposure-index/exposures";
import { importCatalogue } from "../server/breaches/catalogue/catalogue";
import { scanAllActiveCustomers } from "../server/findings/scanner";
import { createDistributor } from "../server/distributors/distributors";
import { createPartner } from "../server/distributors/partners";
import { readFile } from "node:fs/promises";
import { createBenchDatabase, reportResult, mib, rssSampler } from "./support/bench-kit";
import { seededRandom } from "../server/breaches/exposure-index/demo";

const { values } = parseArgs({
  options: {
    customers: { type: "string", default: "1000" },
    addresses: { type: "string", default: "100" },
    concurrency: { type: "string", default: "4" },
  },
});
const customerCount = Number(values.customers);
const addressesPerCustomer = Number(values.addresses);
const concurrency = Number(values.concurrency);

async function main() {
  const bench = await createBenchDatabase("scan");
  const db = bench.database.prisma;
  try {
    await importCatalogue(db, JSON.parse(await readFile(BUNDLED_CATALOGUE, "utf8")));
    const breaches = (await db.breach.findMany({ where: { isRetired: false }, select: { id: true } })).map((row) => row.id);
    const plan = await db.plan.findFirstOrThrow({ where: { isSystemDefault: true } });
    const distributor = await createDistributor(db, { name: "Bench distributor", domainPolicy: "trusted" });
    const partner = await createPartner(db, { distributorId: distributor.id, name: "Bench partner" });
    const random = seededRandom(7);
    const exposures: Exposure[] = [];
    for (let c = 0; c < customerCount; c++) {
      const domain = `customer${c}.example`;
      const customer = await db.customer.create({
        data: {
          partnerId: partner.id,
          reference: `BENCH-${c}`,
          companyName: `Customer ${c}`,
          contactEmail: `it@${domain}`,
          currencyCode: "GBP",
          planId: plan.id,
          status: "active",
        },
        select: { id: true },
      });
      const emails = Array.from({ length: addressesPerCustomer }, (_, i) =>
        i % 2 === 0 ? `user${i}@${domain}` : `person${c}.${i}@mail${i % 7}.example`,
      );
      await db.monitoredAsset.createMany({
        data: [
          { customerId: customer.id, kind: "domain", value: domain, domain },
          ...emails.map((value) => ({
            customerId: customer.id,
            kind: "email" as const,
            value,
            domain: value.slice(value.indexOf("@") + 1),
          })),
        ],
      });
      for (const email of [...emails, ...Array.from({ length: 5 }, (_, i) => `unmonitored${i}@${domain}`)]) {
        if (random() > 0.35) continue;
        for (let k = 1 + Math.floor(random() * 3); k > 0; k--)
          exposures.push({ email, breachId: breaches[Math.floor(random() * breaches.length)]! });
      }
    }
    for (let start = 0; start < exposures.length; start += 20_000) await insertExposures(db, exposures.slice(start, start + 20_000));
    console.log(`set up ${customerCount} customers x ${addressesPerCustomer} addresses, ${exposures.length} exposures`);

    for (const label of ["first scan", "rescan"]) {
      const rssBefore = process.memoryUsage().rss;
      const memory = rssSampler();
      const started = performance.now();
      const totals = await scanAllActiveCustomers(db, { concurrency });
      const seconds = (performance.now() - started) / 1000;
      memory.stop();
      const instances = await db.customerBreach.count();
      reportResult("breaches-scan", {
        run: label,
        customers: customerCount,
        monitoredAddresses: customerCount * addressesPerCustomer,
        concurrency,
        ...totals,
        instances,
        seconds: Number(seconds.toFixed(1)),
        rssBefore: mib(rssBefore),
        peakRss: mib(memory.peak()),
      });
    }
  } finally {
    await bench.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
