import type { Metadata } from "next";
import { Badge } from "../../_components/badge";
import { BillingCodeActions, BillingCodeForm } from "../../_components/billing-code-form";
import { DataTable } from "../../_components/data-table";
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
        <DataTable
          rows={data}
          rowKey={(code) => String(code.id)}
          rowData={(code) => ({ "data-billing-code": code.code })}
          columns={[
            { header: "ID", className: "number", cell: (code) => code.id },
            { header: "Code", rowHeader: true, cell: (code) => <code>{code.code}</code> },
            { header: "Price", className: "number nowrap", cell: (code) => formatMoney(code.price, code.currency) },
            {
              header: "Status",
              cell: (code) => (code.retired ? <Badge status="retired" /> : <Badge status="active">offered</Badge>),
            },
            { header: "Actions", hideHeader: true, cell: (code) => <BillingCodeActions code={code} /> },
          ]}
        />
      )}
      <Pager
        basePath="/admin/billing-codes"
        pagination={{ page, pageSize: pagination.per_page, totalCount: pagination.total_count, hasNextPage: pagination.has_next_page }}
      />
    </>
  );
}
