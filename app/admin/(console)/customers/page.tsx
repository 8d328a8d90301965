import type { Metadata } from "next";
import Link from "next/link";
import { Badge } from "../../_components/badge";
import { DataTable } from "../../_components/data-table";
import { Pager } from "../../_components/pager";
import { formatCount, formatDate } from "../../_lib/format";
import { adminApi, pageParam, textParam, type SearchParams } from "../../_lib/server";

export const metadata: Metadata = { title: "Customers" };

/** Every partner's customers in one list, searched by company, reference, contact e-mail, domain or address (docs/admin-ui.md). */
export default async function CustomersPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const search = textParam(params.q);
  const { customers, pagination } = await (await adminApi()).admin.customers.search({ search, page: pageParam(params.page) });
  return (
    <>
      <h1>Customers</h1>
      <p className="muted">
        The customers of all your partners. Open one for its assets, breaches, what was sent about it, and a support sign-in link.
      </p>
      <form className="search" role="search" action="/admin/customers">
        <label htmlFor="customer-search">Search customers</label>
        <input
          id="customer-search"
          name="q"
          type="search"
          defaultValue={search}
          placeholder="Company, reference, contact e-mail, domain or address"
        />
        <button type="submit" className="button">
          Search
        </button>
        {search ? <Link href="/admin/customers">Clear</Link> : null}
      </form>
      <p className="muted" role="status">
        {pagination.totalCount === 0
          ? search
            ? `No customer matches “${search}”.`
            : "No customers yet."
          : `${formatCount(pagination.totalCount)} customer${pagination.totalCount === 1 ? "" : "s"}${search ? ` matching “${search}”` : ""}.`}
      </p>
      {customers.length > 0 ? (
        <DataTable
          caption="Customers"
          rows={customers}
          rowKey={(customer) => customer.customerId}
          columns={[
            {
              header: "Company",
              rowHeader: true,
              className: "wrap",
              cell: (customer) => <Link href={`/admin/customers/${customer.customerId}`}>{customer.companyName}</Link>,
            },
            { header: "Partner", cell: (customer) => <Link href={`/admin/partners/${customer.partnerId}`}>{customer.partnerName}</Link> },
            { header: "Reference", className: "wrap", cell: (customer) => customer.reference },
            { header: "Status", cell: (customer) => <Badge status={customer.status} /> },
            { header: "Contact e-mail", className: "wrap", cell: (customer) => customer.contactEmail },
            { header: "Onboarded", cell: (customer) => formatDate(customer.createdAt) },
          ]}
        />
      ) : null}
      <Pager basePath="/admin/customers" query={{ q: search }} pagination={pagination} />
    </>
  );
}
