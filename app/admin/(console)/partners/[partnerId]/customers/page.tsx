import type { Metadata } from "next";
import Link from "next/link";
import { CUSTOMER_STATUSES } from "@/server/customers/list";
import { Badge } from "../../../../_components/badge";
import { DataTable } from "../../../../_components/data-table";
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
        <DataTable
          rows={customers}
          rowKey={(customer) => customer.customerId}
          columns={[
            {
              header: "Company",
              rowHeader: true,
              cell: (customer) => <Link href={`/admin/customers/${customer.customerId}`}>{customer.companyName}</Link>,
            },
            { header: "Reference", cell: (customer) => customer.customerRef },
            { header: "Status", cell: (customer) => <Badge status={customer.customerStatus} /> },
            { header: "Plan", cell: (customer) => customer.planType },
            { header: "Breaches", className: "number", cell: (customer) => formatCount(customer.breachCount) },
            { header: "Threat score", className: "number", cell: (customer) => customer.threatScore },
            {
              header: "Domains",
              className: "number",
              title: (customer) => customer.domains.join(", "),
              cell: (customer) => formatCount(customer.domains.length),
            },
            {
              header: "E-mails",
              className: "number",
              title: (customer) => customer.emails.join(", "),
              cell: (customer) => formatCount(customer.emails.length),
            },
            { header: "Last scan", cell: (customer) => <DateTime iso={customer.lastScannedAt} /> },
          ]}
        />
      ) : null}
      <Pager basePath={basePath} query={{ status }} pagination={pagination} />
    </>
  );
}
