import type { Metadata } from "next";
import Link from "next/link";
import { NotificationStatus } from "@/server/db/generated/enums";
import { NOTIFICATION_KINDS, type NotificationKind } from "@/server/notifications/types";
import styles from "./mail.module.css";
import { asStaff, formatDateTime, KIND_LABELS } from "./staff";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Mail preview", robots: { index: false } };

type Search = Promise<Record<string, string | string[] | undefined>>;

const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
const STATUSES = Object.values(NotificationStatus);

/** /admin/mail: every message to the distributor's customers, newest first (what was or will be sent). */
export default async function MailPage({ searchParams }: { searchParams: Search }) {
  const query = await searchParams;
  const kind = NOTIFICATION_KINDS.find((candidate) => candidate === one(query.kind));
  const status = STATUSES.find((candidate) => candidate === one(query.status));
  const requested = Number(one(query.page));
  const page = Number.isSafeInteger(requested) && requested >= 1 ? requested : 1;
  const list = await asStaff((mail) => mail.list({ page, kind, status }), "/admin/mail");
  const pages = Math.max(1, Math.ceil(list.total / list.pageSize));
  const href = (target: number) => {
    const params = new URLSearchParams(Object.entries({ kind, status, page: target > 1 ? String(target) : undefined }).filter((entry): entry is [string, string] => Boolean(entry[1])));
    return params.size > 0 ? `/admin/mail?${params}` : "/admin/mail";
  };
  return (
    <main className={styles.page}>
      <h1>Mail preview</h1>
      <p className="muted">
        The e-mails to your partners&apos; customers: welcome messages, breach alerts and monthly reports, as sent or waiting to be sent.
      </p>
      <form className={styles.filters} method="get" action="/admin/mail">
        <label>
          Kind{" "}
          <select name="kind" defaultValue={kind ?? ""}>
            <option value="">All</option>
            {NOTIFICATION_KINDS.map((value) => (
              <option key={value} value={value}>
                {KIND_LABELS[value]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Status{" "}
          <select name="status" defaultValue={status ?? ""}>
            <option value="">All</option>
            {STATUSES.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">Show</button>
      </form>
      {list.messages.length === 0 ? (
        <p>No messages{kind || status ? " match these filters" : " yet"}.</p>
      ) : (
        <div className={styles.scroll}>
          <table className={styles.table}>
            <caption className={styles.caption}>
              {list.total} {list.total === 1 ? "message" : "messages"}
            </caption>
            <thead>
              <tr>
                <th scope="col">Created</th>
                <th scope="col">Kind</th>
                <th scope="col">To</th>
                <th scope="col">Subject</th>
                <th scope="col">Customer</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {list.messages.map((message) => (
                <tr key={message.id}>
                  <td className={styles.nowrap}>{formatDateTime(message.createdAt)}</td>
                  <td>{KIND_LABELS[message.kind as NotificationKind]}</td>
                  <td>{message.recipient}</td>
                  <td>
                    <Link href={`/admin/mail/${message.id}`}>{message.subject}</Link>
                  </td>
                  <td>
                    {message.customer.companyName}
                    <span className={styles.partner}>{message.customer.partner.name}</span>
                  </td>
                  <td>
                    <span className={`${styles.status} ${styles[message.status]}`}>{message.status}</span>
                    {message.attempts > 1 && <span className={styles.partner}>{message.attempts} attempts</span>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {pages > 1 && (
        <nav className={styles.pager} aria-label="Pages">
          {page > 1 ? <Link href={href(page - 1)}>Previous</Link> : <span aria-hidden="true">Previous</span>}
          <span>
            Page {page} of {pages}
          </span>
          {page < pages ? <Link href={href(page + 1)}>Next</Link> : <span aria-hidden="true">Next</span>}
        </nav>
      )}
    </main>
  );
}
