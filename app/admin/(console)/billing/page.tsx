import type { Metadata } from "next";
import Link from "next/link";
import { billingMonthOf, BILLING_MONTH_PATTERN } from "@/server/distributors/billing";
import { DataTable } from "../../_components/data-table";
import { formatCount, formatMoney, formatMonth } from "../../_lib/format";
import { adminApi, textParam, type SearchParams } from "../../_lib/server";

export const metadata: Metadata = { title: "Billing" };

export default async function BillingPage({ searchParams }: { searchParams: SearchParams }) {
  const requested = textParam((await searchParams).month);
  const currentMonth = billingMonthOf(new Date());
  const month = requested && BILLING_MONTH_PATTERN.test(requested) ? requested : currentMonth;
  const overview = await (await adminApi()).admin.overview.billing({ month });
  return (
    <>
      <h1>Billing</h1>
      <p className="muted">
        Each partner&apos;s customers per plan that were active at any time in the month (UTC) and whose billing had started, priced with
        the partner&apos;s billing code for the plan. A customer counts once, on its last plan in the month.
      </p>
      <form className="search" action="/admin/billing">
        <label htmlFor="billing-month">Month</label>
        <input id="billing-month" name="month" type="month" defaultValue={month} max={currentMonth} required pattern="\d{4}-\d{2}" />
        <button type="submit" className="button">
          Show
        </button>
      </form>
      {requested && requested !== month ? (
        <p className="notice notice-warn" role="alert">
          “{requested}” is not a month (YYYY-MM); showing {formatMonth(month)}.
        </p>
      ) : null}

      <div className="page-heading">
        <h2>{formatMonth(month)}</h2>
        <a className="button" href={`/admin/billing/export?month=${month}`} download>
          Download CSV
        </a>
      </div>
      {month === currentMonth ? <p className="notice">This month is still running: its figures grow as customers become active.</p> : null}

      {overview.lines.length === 0 ? (
        <p>No active customers in {formatMonth(month)}.</p>
      ) : (
        <DataTable
          rows={overview.lines}
          rowKey={(line) => `${line.partnerId}:${line.planType}`}
          columns={[
            {
              header: "Partner",
              rowHeader: true,
              cell: (line) => (
                <>
                  <Link href={`/admin/partners/${line.partnerId}`}>{line.partnerName}</Link>
                  {line.accountReference ? <span className="field-hint"> {line.accountReference}</span> : null}
                </>
              ),
            },
            { header: "Plan", cell: (line) => line.planName },
            {
              header: "Billing code",
              cell: (line) => (
                <>
                  {line.billingCode ? <code>{line.billingCode}</code> : <span className="field-error">No billing code set</span>}
                  {line.billingCode && line.unitPrice === null ? <span className="field-error"> Not one of your billing codes</span> : null}
                </>
              ),
            },
            { header: "Unit price", className: "number", cell: (line) => formatMoney(line.unitPrice, line.currency) },
            { header: "Active customers", className: "number", cell: (line) => formatCount(line.activeCustomers) },
            { header: "Amount", className: "number", cell: (line) => formatMoney(line.amount, line.currency) },
          ]}
          footer={
            <tr>
              <th scope="row" colSpan={4}>
                Total
              </th>
              <td className="number">{formatCount(overview.totals.activeCustomers)}</td>
              <td className="number">
                {overview.totals.byCurrency.length === 0
                  ? formatMoney(0)
                  : overview.totals.byCurrency.map((total) => formatMoney(total.amount, total.currency)).join(" + ")}
              </td>
            </tr>
          }
        />
      )}
      {overview.totals.unpricedCustomers > 0 ? (
        <p className="notice notice-warn">
          {formatCount(overview.totals.unpricedCustomers)} active customer{overview.totals.unpricedCustomers === 1 ? " has" : "s have"} no
          price: set the partner&apos;s billing code for the plan to one of your <Link href="/admin/billing-codes">billing codes</Link>. The
          total leaves them out.
        </p>
      ) : null}
    </>
  );
}
