import type { Metadata } from "next";
import { BillingCodeForm } from "../../_components/billing-code-form";
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
        A partner&apos;s basic, plus and pro billing codes name one of these; the billing overview prices each active customer with it. The
        distributor API lists them at <code>GET /api/v1/distributors/billing-codes</code>.
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
              </tr>
            </thead>
            <tbody>
              {data.map((code) => (
                <tr key={code.id}>
                  <td className="number">{code.id}</td>
                  <th scope="row">
                    <code>{code.code}</code>
                  </th>
                  <td className="number">{formatMoney(code.price)}</td>
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
