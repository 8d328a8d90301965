import type { Metadata } from "next";
import Link from "next/link";
import { billingMonthOf, BILLING_MONTH_PATTERN } from "@/server/distributors/billing";
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
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">Partner</th>
                <th scope="col">Plan</th>
                <th scope="col">Billing code</th>
                <th scope="col" className="number">
                  Unit price
                </th>
                <th scope="col" className="number">
                  Active customers
                </th>
                <th scope="col" className="number">
                  Amount
                </th>
              </tr>
            </thead>
            <tbody>
              {overview.lines.map((line) => (
                <tr key={`${line.partnerId}:${line.planType}`}>
                  <th scope="row">
                    <Link href={`/admin/partners/${line.partnerId}`}>{line.partnerName}</Link>
                    {line.accountReference ? <span className="field-hint"> {line.accountReference}</span> : null}
                  </th>
                  <td>{line.planName}</td>
                  <td>
                    {line.billingCode ? <code>{line.billingCode}</code> : <span className="field-error">No billing code set</span>}
                    {line.billingCode && line.unitPrice === null ? (
                      <span className="field-error"> Not one of your billing codes</span>
                    ) : null}
                  </td>
                  <td className="number">{formatMoney(line.unitPrice, line.currency)}</td>
                  <td className="number">{formatCount(line.activeCustomers)}</td>
                  <td className="number">{formatMoney(line.amount, line.currency)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
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
            </tfoot>
          </table>
        </div>
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
