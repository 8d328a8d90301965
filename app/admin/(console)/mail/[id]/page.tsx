import type { Metadata } from "next";
import Link from "next/link";
import { Badge } from "../../../_components/badge";
import { DateTime } from "../../../_components/date-time";
import { adminApi, foundOr404 } from "../../../_lib/server";
import { concerns, KIND_LABELS } from "../kinds";

export const metadata: Metadata = { title: "Mail preview" };

/** One message: its delivery state, the HTML as the recipient sees it, the plain-text part, attachments. */
export default async function MessagePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const message = await foundOr404((await adminApi()).admin.mail.get({ id }));
  return (
    <>
      <p className="breadcrumbs">
        <Link href="/admin/mail">Mail previews</Link>
      </p>
      <h1 className="wrap">{message.subject}</h1>
      <dl className="facts">
        <dt>Kind</dt>
        <dd>{KIND_LABELS[message.kind]}</dd>
        <dt>Status</dt>
        <dd>
          <Badge status={message.status === "sent" ? "delivered" : message.status}>{message.status}</Badge>{" "}
          {message.attempts > 0 ? `after ${message.attempts} attempt${message.attempts === 1 ? "" : "s"}` : null}
        </dd>
        {message.lastError ? (
          <>
            <dt>Last error</dt>
            <dd className="wrap">{message.lastError}</dd>
          </>
        ) : null}
        <dt>To</dt>
        <dd>{message.recipient}</dd>
        <dt>Reply-To</dt>
        <dd>
          {message.customer
            ? (message.customer.partner.replyToEmail ?? "— (the partner has no reply-to address)")
            : "— (operational messages have none)"}
        </dd>
        <dt>About</dt>
        <dd>
          {concerns(message).name} <span className="muted">· {concerns(message).detail}</span>
        </dd>
        <dt>Language</dt>
        <dd>{message.localeCode}</dd>
        <dt>Created</dt>
        <dd>
          <DateTime iso={message.createdAt} />
        </dd>
        <dt>Sent</dt>
        <dd>
          <DateTime iso={message.sentAt} />
        </dd>
        <dt>Message-ID</dt>
        <dd className="wrap">{message.providerMessageId ?? "—"}</dd>
      </dl>
      {message.attachments.length > 0 ? (
        <section aria-labelledby="attachments">
          <h2 id="attachments">Attachments</h2>
          <ul>
            {message.attachments.map((attachment) => (
              <li key={attachment.filename}>
                <a href={`/admin/mail/${message.id}/attachments/${encodeURIComponent(attachment.filename)}`}>{attachment.filename}</a>{" "}
                <span className="muted">({Math.ceil(attachment.size / 1024)} KB)</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <section aria-labelledby="html-part">
        <h2 id="html-part">As the recipient sees it</h2>
        {/* No permissions: no scripts, no forms, no navigation of this page; the message loads nothing itself. */}
        <iframe className="mail-frame" title={`HTML part of “${message.subject}”`} sandbox="" srcDoc={message.html} />
      </section>
      <section aria-labelledby="text-part">
        <h2 id="text-part">Plain-text part</h2>
        <pre className="mail-text">{message.text}</pre>
      </section>
    </>
  );
}
