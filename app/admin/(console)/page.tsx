import type { Metadata } from "next";
import Link from "next/link";
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
          <div className="table-scroll">
            <table>
              <thead>
                <tr>
                  <th scope="col">Partner</th>
                  <th scope="col" className="number">
                    Customers
                  </th>
                  <th scope="col" className="number">
                    Active
                  </th>
                  <th scope="col" className="number">
                    New (30 days)
                  </th>
                  <th scope="col" className="number">
                    Domains
                  </th>
                  <th scope="col" className="number">
                    E-mails
                  </th>
                  <th scope="col" className="number">
                    Breaches
                  </th>
                </tr>
              </thead>
              <tbody>
                {partners.map((partner) => (
                  <tr key={partner.partnerId}>
                    <th scope="row">
                      <Link href={`/admin/partners/${partner.partnerId}`}>{partner.name}</Link>
                    </th>
                    <td className="number">
                      <Link href={`/admin/partners/${partner.partnerId}/customers`}>{formatCount(partner.totalCustomers)}</Link>
                    </td>
                    <td className="number">{formatCount(partner.activeCustomers)}</td>
                    <td className="number">{formatCount(partner.newCustomerLast30Days)}</td>
                    <td className="number">{formatCount(partner.totalMonitoredDomains)}</td>
                    <td className="number">{formatCount(partner.totalMonitoredEmails)}</td>
                    <td className="number">{formatCount(partner.totalBreachesDetected)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}
