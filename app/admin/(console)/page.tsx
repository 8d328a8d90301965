import type { Metadata } from "next";
import Link from "next/link";
import { DataTable } from "../_components/data-table";
import { formatCount } from "../_lib/format";
import { adminApi } from "../_lib/server";

export const metadata: Metadata = { title: "Overview" };

const FIGURES = [
  ["partners", "Partners"],
  ["totalCustomers", "Customers"],
  ["activeCustomers", "Active customers"],
  ["newCustomerLast30Days", "New in the last 30 days"],
  ["totalMonitoredDomains", "Monitored domains"],
  ["totalMonitoredEmails", "Monitored e-mail addresses"],
  ["totalBreachesDetected", "Breaches detected"],
] as const;

export default async function OverviewPage() {
  const { totals, partners } = await (await adminApi()).admin.overview.analytics();
  return (
    <>
      <h1>Overview</h1>
      <p className="muted">Across all your partners. Monitored assets count those of active customers; breaches include resolved ones.</p>
      <ul className="figures" aria-label="Totals">
        {FIGURES.map(([key, label]) => (
          <li key={key} className="figure">
            <span className="figure-value">{formatCount(totals[key])}</span>
            <span className="figure-label">{label}</span>
          </li>
        ))}
      </ul>

      <section aria-labelledby="by-partner">
        <h2 id="by-partner">By partner</h2>
        {partners.length === 0 ? (
          <p>
            No partners yet. <Link href="/admin/partners/new">Create your first partner</Link>.
          </p>
        ) : (
          <DataTable
            rows={partners}
            rowKey={(partner) => partner.partnerId}
            columns={[
              {
                header: "Partner",
                rowHeader: true,
                cell: (partner) => <Link href={`/admin/partners/${partner.partnerId}`}>{partner.name}</Link>,
              },
              {
                header: "Customers",
                className: "number",
                cell: (partner) => (
                  <Link href={`/admin/partners/${partner.partnerId}/customers`}>{formatCount(partner.totalCustomers)}</Link>
                ),
              },
              { header: "Active", className: "number", cell: (partner) => formatCount(partner.activeCustomers) },
              { header: "New (30 days)", className: "number", cell: (partner) => formatCount(partner.newCustomerLast30Days) },
              { header: "Domains", className: "number", cell: (partner) => formatCount(partner.totalMonitoredDomains) },
              { header: "E-mails", className: "number", cell: (partner) => formatCount(partner.totalMonitoredEmails) },
              { header: "Breaches", className: "number", cell: (partner) => formatCount(partner.totalBreachesDetected) },
            ]}
          />
        )}
      </section>
    </>
  );
}
