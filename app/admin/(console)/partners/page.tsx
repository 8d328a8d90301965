import type { Metadata } from "next";
import Link from "next/link";
import { DataTable } from "../../_components/data-table";
import { Pager } from "../../_components/pager";
import { formatCount, formatDate } from "../../_lib/format";
import { adminApi, pageParam, textParam, type SearchParams } from "../../_lib/server";

export const metadata: Metadata = { title: "Partners" };

export default async function PartnersPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const search = textParam(params.q);
  const { partners, pagination } = await (await adminApi()).admin.partners.list({ search, page: pageParam(params.page) });
  return (
    <>
      <div className="page-heading">
        <h1>Partners</h1>
        <Link className="button button-primary" href="/admin/partners/new">
          New partner
        </Link>
      </div>
      <form className="search" role="search" action="/admin/partners">
        <label htmlFor="partner-search">Search partners</label>
        <input id="partner-search" name="q" type="search" defaultValue={search} placeholder="Name, account reference or contact e-mail" />
        <button type="submit" className="button">
          Search
        </button>
        {search ? <Link href="/admin/partners">Clear</Link> : null}
      </form>
      <p className="muted" role="status">
        {pagination.totalCount === 0
          ? search
            ? `No partner matches “${search}”.`
            : "No partners yet."
          : `${formatCount(pagination.totalCount)} partner${pagination.totalCount === 1 ? "" : "s"}${search ? ` matching “${search}”` : ""}.`}
      </p>
      {partners.length > 0 ? (
        <DataTable
          rows={partners}
          rowKey={(row) => row.partner.uuid}
          columns={[
            {
              header: "Name",
              rowHeader: true,
              cell: ({ partner }) => <Link href={`/admin/partners/${partner.uuid}`}>{partner.name}</Link>,
            },
            { header: "Account reference", cell: ({ partner }) => partner.account_reference ?? "—" },
            { header: "Contact e-mail", cell: ({ partner }) => partner.contact_email ?? "—" },
            {
              header: "Customers",
              className: "number",
              cell: ({ partner, customers }) => (
                <Link href={`/admin/partners/${partner.uuid}/customers`} aria-label={`${customers.total} customers of ${partner.name}`}>
                  {formatCount(customers.total)}
                </Link>
              ),
            },
            { header: "Active", className: "number", cell: ({ customers }) => formatCount(customers.active) },
            { header: "API keys", className: "number", cell: ({ activeApiKeys }) => formatCount(activeApiKeys) },
            { header: "Created", cell: ({ createdAt }) => formatDate(createdAt) },
          ]}
        />
      ) : null}
      <Pager basePath="/admin/partners" query={{ q: search }} pagination={pagination} />
    </>
  );
}
