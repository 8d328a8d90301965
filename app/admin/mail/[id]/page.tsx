import type { Metadata } from "next";
import Link from "next/link";
import type { NotificationKind } from "@/server/notifications/types";
import styles from "../mail.module.css";
import { asStaff, formatDateTime, KIND_LABELS } from "../staff";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Message · Mail preview", robots: { index: false } };

/** One message: its delivery state, the HTML as the recipient sees it, the plain-text part, attachments. */
export default async function MessagePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const message = await asStaff((mail) => mail.get({ id }), `/admin/mail/${id}`);
  const facts: Array<[string, string]> = [
    ["Kind", KIND_LABELS[message.kind as NotificationKind]],
    ["Status", message.attempts > 0 ? `${message.status} after ${message.attempts} ${message.attempts === 1 ? "attempt" : "attempts"}` : message.status],
    ["To", message.recipient],
    ["Reply-To", message.customer.partner.replyToEmail ?? "—"],
    ["Customer", `${message.customer.companyName} (${message.customer.partner.name})`],
    ["Language", message.localeCode],
    ["Created", formatDateTime(message.createdAt)],
    ["Sent", formatDateTime(message.sentAt)],
    ["Message-ID", message.providerMessageId ?? "—"],
  ];
  if (message.lastError) facts.push(["Last error", message.lastError]);
  return (
    <main className={styles.page}>
      <p>
        <Link href="/admin/mail">← All messages</Link>
      </p>
      <h1 className={styles.subject}>{message.subject}</h1>
      <dl className={styles.facts}>
        {facts.map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {message.attachments.length > 0 && (
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
      )}
      <section aria-labelledby="html-part">
        <h2 id="html-part">As the recipient sees it</h2>
        {/* sandbox without permissions: no scripts, no navigation of this page; the message loads nothing itself */}
        <iframe className={styles.frame} title={`HTML part of “${message.subject}”`} sandbox="" srcDoc={message.html} />
      </section>
      <section aria-labelledby="text-part">
        <h2 id="text-part">Plain-text part</h2>
        <pre className={styles.text}>{message.text}</pre>
      </section>
    </main>
  );
}
