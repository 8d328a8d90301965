import type { Metadata } from "next";
import { Badge } from "../../_components/badge";
import { BillingCodeActions, BillingCodeForm } from "../../_components/billing-code-form";
import { Pager } from "../../_components/pager";
import { formatMoney } from "../../_lib/format";
import { adminApi, pageParam, type SearchParams } from "../../_lib/server";

export const metadata: Metadata = { title: "Billing codes" };

export default async function BillingCodesPage({ searchParams }: { searchParams: SearchParams }) {
  const page = pageParam((await searchParams).page);
  const { data, pagination } = await (await adminApi()).admin.billingCodes.list({ page });
  return (
    <>
      <h1>Billing codes</h1>
      <p className="muted">
        A partner&apos;s basic, plus and pro billing codes are chosen from these; the billing overview prices each active customer with
        them. A code a partner uses cannot be deleted: retire it, and it stays with those partners but is not offered again. The distributor
        API lists them at <code>GET /api/v1/distributors/billing-codes</code>.
      </p>
      <BillingCodeForm />
      {data.length === 0 ? (
        <p>No billing codes yet.</p>
      ) : (
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col" className="number">
                  ID
                </th>
                <th scope="col">Code</th>
                <th scope="col" className="number">
                  Price
                </th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {data.map((code) => (
                <tr key={code.id} data-billing-code={code.code}>
                  <td className="number">{code.id}</td>
                  <th scope="row">
                    <code>{code.code}</code>
                  </th>
                  <td className="number nowrap">{formatMoney(code.price, code.currency)}</td>
                  <td>{code.retired ? <Badge status="retired" /> : <Badge status="active">offered</Badge>}</td>
                  <td>
                    <BillingCodeActions code={code} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager
        basePath="/admin/billing-codes"
        pagination={{ page, pageSize: pagination.per_page, totalCount: pagination.total_count, hasNextPage: pagination.has_next_page }}
      />
    </>
  );
}
