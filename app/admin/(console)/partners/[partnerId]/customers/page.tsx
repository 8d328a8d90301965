import type { Metadata } from "next";
import Link from "next/link";
import { CUSTOMER_STATUSES } from "@/server/customers/list";
import { Badge } from "../../../../_components/badge";
import { FilterLinks } from "../../../../_components/filter-links";
import { Pager } from "../../../../_components/pager";
import { formatCount } from "../../../../_lib/format";
import { adminApi, foundOr404, pageParam, textParam, type SearchParams } from "../../../../_lib/server";
import { DateTime } from "../../../../_components/date-time";

export const metadata: Metadata = { title: "Customers" };

type Status = (typeof CUSTOMER_STATUSES)[number];

export default async function PartnerCustomersPage({
  params,
  searchParams,
}: {
  params: Promise<{ partnerId: string }>;
  searchParams: SearchParams;
}) {
  const { partnerId } = await params;
  const query = await searchParams;
  const requested = textParam(query.status);
  const status = CUSTOMER_STATUSES.find((known) => known === requested) as Status | undefined;
  const api = await adminApi();
  const partner = await foundOr404(api.admin.partners.get({ partnerId }));
  const { customers, pagination } = await api.admin.partners.customers({ partnerId, status, page: pageParam(query.page) });
  const basePath = `/admin/partners/${partner.uuid}/customers`;
  return (
    <>
      <p className="breadcrumbs">
        <Link href="/admin/partners">Partners</Link> › <Link href={`/admin/partners/${partner.uuid}`}>{partner.name}</Link>
      </p>
      <h1>Customers of {partner.name}</h1>
      <p className="muted">
        The partner manages its customers over the partner API; open one for its assets, breaches, what was sent about it, and a support
        sign-in link.
      </p>
      <FilterLinks
        label="Filter by status"
        options={CUSTOMER_STATUSES}
        current={status}
        href={(option) => (option ? `${basePath}?status=${option}` : basePath)}
      />
      <p className="muted" role="status">
        {formatCount(pagination.totalCount)} customer{pagination.totalCount === 1 ? "" : "s"}
        {status ? ` with status ${status}` : ""}.
      </p>
      {customers.length > 0 ? (
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">Company</th>
                <th scope="col">Reference</th>
                <th scope="col">Status</th>
                <th scope="col">Plan</th>
                <th scope="col" className="number">
                  Breaches
                </th>
                <th scope="col" className="number">
                  Threat score
                </th>
                <th scope="col" className="number">
                  Domains
                </th>
                <th scope="col" className="number">
                  E-mails
                </th>
                <th scope="col">Last scan</th>
              </tr>
            </thead>
            <tbody>
              {customers.map((customer) => (
                <tr key={customer.customerId}>
                  <th scope="row">
                    <Link href={`/admin/customers/${customer.customerId}`}>{customer.companyName}</Link>
                  </th>
                  <td>{customer.customerRef}</td>
                  <td>
                    <Badge status={customer.customerStatus} />
                  </td>
                  <td>{customer.planType}</td>
                  <td className="number">{formatCount(customer.breachCount)}</td>
                  <td className="number">{customer.threatScore}</td>
                  <td className="number" title={customer.domains.join(", ")}>
                    {formatCount(customer.domains.length)}
                  </td>
                  <td className="number" title={customer.emails.join(", ")}>
                    {formatCount(customer.emails.length)}
                  </td>
                  <td>
                    <DateTime iso={customer.lastScannedAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <Pager basePath={basePath} query={{ status }} pagination={pagination} />
    </>
  );
}
