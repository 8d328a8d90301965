import type { Metadata } from "next";
import Link from "next/link";
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
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Account reference</th>
                <th scope="col">Contact e-mail</th>
                <th scope="col" className="number">
                  Customers
                </th>
                <th scope="col" className="number">
                  Active
                </th>
                <th scope="col" className="number">
                  API keys
                </th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {partners.map(({ partner, customers, activeApiKeys, createdAt }) => (
                <tr key={partner.uuid}>
                  <th scope="row">
                    <Link href={`/admin/partners/${partner.uuid}`}>{partner.name}</Link>
                  </th>
                  <td>{partner.account_reference ?? "—"}</td>
                  <td>{partner.contact_email ?? "—"}</td>
                  <td className="number">
                    <Link href={`/admin/partners/${partner.uuid}/customers`} aria-label={`${customers.total} customers of ${partner.name}`}>
                      {formatCount(customers.total)}
                    </Link>
                  </td>
                  <td className="number">{formatCount(customers.active)}</td>
                  <td className="number">{formatCount(activeApiKeys)}</td>
                  <td>{formatDate(createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <Pager basePath="/admin/partners" query={{ q: search }} pagination={pagination} />
    </>
  );
}
