import type { Metadata } from "next";
import Link from "next/link";
import { NotificationStatus } from "@/server/db/generated/enums";
import { NOTIFICATION_KINDS } from "@/server/notifications/types";
import { Badge } from "../../_components/badge";
import { DataTable } from "../../_components/data-table";
import { DateTime } from "../../_components/date-time";
import { FilterLinks } from "../../_components/filter-links";
import { Pager } from "../../_components/pager";
import { formatCount } from "../../_lib/format";
import { adminApi, pageParam, textParam, type SearchParams } from "../../_lib/server";
import { concerns, KIND_LABELS } from "./kinds";

export const metadata: Metadata = { title: "Mail previews" };

const STATUSES = Object.values(NotificationStatus);

/** Every e-mail to the distributor's customers, newest first: what was sent, or will be. */
export default async function MailPage({ searchParams }: { searchParams: SearchParams }) {
  const query = await searchParams;
  const kind = NOTIFICATION_KINDS.find((known) => known === textParam(query.kind));
  const status = STATUSES.find((known) => known === textParam(query.status));
  const { messages, pagination } = await (await adminApi()).admin.mail.list({ page: pageParam(query.page), kind, status });
  const href = (filters: { kind?: string; status?: string }) => {
    const params = new URLSearchParams(Object.entries(filters).filter((entry): entry is [string, string] => Boolean(entry[1])));
    return params.size > 0 ? `/admin/mail?${params}` : "/admin/mail";
  };
  return (
    <>
      <h1>Mail previews</h1>
      <p className="muted">
        The e-mails to your partners&apos; customers (welcome messages, breach alerts, monthly reports), and the warnings about failing or
        disabled webhook endpoints to your partners and to you, as they were sent or will be. Without an SMTP server configured, nothing
        leaves the machine: each message is also written as an .eml file.
      </p>
      <FilterLinks
        label="Filter by kind"
        options={NOTIFICATION_KINDS}
        current={kind}
        href={(option) => href({ kind: option, status })}
        allLabel="All kinds"
        labelOf={(option) => KIND_LABELS[option]}
      />
      <FilterLinks
        label="Filter by status"
        options={STATUSES}
        current={status}
        href={(option) => href({ kind, status: option })}
        allLabel="All statuses"
      />
      <p className="muted" role="status">
        {pagination.totalCount === 0
          ? `No messages${kind || status ? " match these filters" : " yet"}.`
          : `${formatCount(pagination.totalCount)} message${pagination.totalCount === 1 ? "" : "s"}.`}
      </p>
      {messages.length > 0 ? (
        <DataTable
          rows={messages}
          rowKey={(message) => message.id}
          columns={[
            { header: "Created", cell: (message) => <DateTime iso={message.createdAt} /> },
            { header: "Kind", cell: (message) => KIND_LABELS[message.kind] },
            { header: "To", cell: (message) => message.recipient },
            { header: "Subject", rowHeader: true, cell: (message) => <Link href={`/admin/mail/${message.id}`}>{message.subject}</Link> },
            {
              header: "About",
              cell: (message) => (
                <>
                  {concerns(message).name}
                  <span className="muted"> · {concerns(message).detail}</span>
                </>
              ),
            },
            {
              header: "Status",
              cell: (message) => (
                <>
                  <Badge status={message.status === "sent" ? "delivered" : message.status}>{message.status}</Badge>
                  {message.attempts > 1 ? <span className="muted"> {message.attempts} attempts</span> : null}
                </>
              ),
            },
          ]}
        />
      ) : null}
      <Pager basePath="/admin/mail" query={{ kind, status }} pagination={pagination} />
    </>
  );
}
