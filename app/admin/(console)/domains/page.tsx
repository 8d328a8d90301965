import type { Metadata } from "next";
import Link from "next/link";
import { Badge } from "../../_components/badge";
import { DataTable } from "../../_components/data-table";
import { DateTime } from "../../_components/date-time";
import { AttestDomainForm, DomainPolicyNote } from "../../_components/domain-forms";
import { adminApi, type SearchParams } from "../../_lib/server";
import type { WithheldListing } from "@/server/domains/staff";

export const metadata: Metadata = { title: "Domains" };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The distributor's domain policy, and per partner the domains its customers added in the last
 * 30 days with their verification state; a domain that customers of two or more partners monitor
 * is flagged; and the addresses partners listed at unverified domains past their lookup budget.
 * Staff attest an unverified domain here (docs/admin-ui.md, "Domains").
 */
export default async function DomainsPage({ searchParams }: { searchParams: SearchParams }) {
  const partnerParam = (await searchParams).partner;
  const partnerId = typeof partnerParam === "string" && UUID.test(partnerParam) ? partnerParam : undefined;
  const { policy, domains, withheldListings } = await (await adminApi()).admin.domains.overview({ partnerId });
  const partners = [...new Map(domains.map((row) => [row.partnerId, row.partnerName])).entries()].sort((a, b) => a[1].localeCompare(b[1]));
  return (
    <>
      <h1>Domains</h1>
      <p className="muted">
        Under the verified policy a customer sees which of its domain&apos;s mailboxes are exposed only after proving the domain is its own
        (a DNS record, a link e-mailed to the domain, or your attestation). Sensitive breaches need a verified domain under both policies.
      </p>
      <DomainPolicyNote policy={policy} />
      {partnerId && (
        <p>
          <Link href="/admin/domains">All partners</Link>
        </p>
      )}
      <WithheldListings rows={withheldListings} />
      <h2>Domains added in the last 30 days</h2>
      {domains.length === 0 ? (
        <p>No domains were added in the last 30 days.</p>
      ) : (
        partners.map(([id, name]) => (
          <section key={id} aria-label={`Partner ${name}`}>
            <h3>
              <Link href={`/admin/domains?partner=${id}`}>{name}</Link>
            </h3>
            <DataTable
              rows={domains.filter((row) => row.partnerId === id)}
              rowKey={(row) => `${row.customerId}:${row.domain}`}
              columns={[
                { header: "Domain", rowHeader: true, cell: (row) => <code>{row.domain}</code> },
                {
                  header: "Customer",
                  cell: (row) => (
                    <>
                      {row.companyName} <span className="muted">({row.customerStatus})</span>
                    </>
                  ),
                },
                { header: "Added", cell: (row) => <DateTime iso={row.addedAt} /> },
                {
                  header: "State",
                  cell: (row) => (
                    <>
                      <Badge status={row.status === "verified" ? "active" : "pending"}>{row.status}</Badge>
                      {row.status === "verified" && (
                        <span className="muted">
                          {" "}
                          by {row.method}
                          {row.method === "staff" ? `: ${row.verifiedBy}` : ""} <DateTime iso={row.verifiedAt} />
                          {row.note ? ` (“${row.note}”)` : ""}
                        </span>
                      )}
                    </>
                  ),
                },
                {
                  header: "Monitored by",
                  cell: (row) =>
                    row.partnersMonitoring >= 2 ? (
                      <strong role="note">⚠ customers of {row.partnersMonitoring} partners</strong>
                    ) : (
                      "this partner only"
                    ),
                },
                {
                  header: "Attestation",
                  cell: (row) => row.status === "unverified" && <AttestDomainForm customerId={row.customerId} domain={row.domain} />,
                },
              ]}
            />
          </section>
        ))
      )}
    </>
  );
}

/** Per partner and domain, the listed addresses withheld past the partner's lookup budget (docs/domains.md). */
function WithheldListings({ rows }: { rows: Array<Omit<WithheldListing, "lastWithheldAt"> & { lastWithheldAt: string }> }) {
  return (
    <section aria-label="Addresses withheld past the lookup budget">
      <h2>Addresses withheld past the lookup budget</h2>
      <p className="muted">
        A partner learns what is found of the addresses it lists at a domain not verified for the customer only as fast as it could look
        them up (the breach lookup&apos;s per-minute limit); the rest are monitored but withheld until the domain is verified. Many at one
        domain suggest guesses at a domain that is not the customer&apos;s.
      </p>
      {rows.length === 0 ? (
        <p>No listed addresses are withheld.</p>
      ) : (
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">Partner</th>
                <th scope="col">Domain</th>
                <th scope="col">Withheld addresses</th>
                <th scope="col">Customers</th>
                <th scope="col">Last withheld</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={`${row.partnerId}:${row.domain}`}>
                  <th scope="row">
                    <Link href={`/admin/domains?partner=${row.partnerId}`}>{row.partnerName}</Link>
                  </th>
                  <td>
                    <code>{row.domain}</code>
                  </td>
                  <td>{row.addresses}</td>
                  <td>{row.customers}</td>
                  <td>
                    <DateTime iso={row.lastWithheldAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
