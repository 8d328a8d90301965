import type { Db } from "../db/client";
import { brandBaseUrl, brandFor, DEFAULT_BRAND, type Brand } from "../brand/brand";
import { log } from "../log";
import { renderStoredNotification } from "./render";
import { configuredTransport, type MailTransport } from "./transport";
import { isCustomerNotificationKind } from "./types";
import { oneClickUnsubscribeUrl, recipientsWanting, type UnsubscribeTarget } from "./unsubscribe";

export type DeliveryOutcome = "sent" | "skipped" | "not-pending";

/**
 * One attempt to send a message (the send job's work). A message that is no longer pending
 * (sent by an earlier attempt, or finished) is left alone, so a retried job never sends twice;
 * a recipient who opted out meanwhile is skipped (customers' e-mails; an organization's
 * operational messages have no opt-out and no reply-to address). A failed attempt is counted on the message
 * and thrown for the job to retry; after the last attempt the message is marked failed.
 */
export async function deliverNotification(
  db: Db,
  notificationId: string,
  { finalAttempt, transport = configuredTransport() }: { finalAttempt: boolean; transport?: MailTransport },
): Promise<DeliveryOutcome> {
  const message = await db.notification.findUnique({
    where: { id: notificationId },
  });
  if (!message || message.status !== "pending") return "not-pending";
  let unsubscribeUrl: string | undefined;
  // An organization's operational messages are the service's own: no brand, no reply-to.
  let brand: Brand = DEFAULT_BRAND;
  if (message.customerId && isCustomerNotificationKind(message.kind)) {
    const target: UnsubscribeTarget = { customerId: message.customerId, kind: message.kind, email: message.recipient };
    if ((await recipientsWanting(db, message.customerId, message.kind, [message.recipient])).length === 0) {
      await db.notification.updateMany({
        where: { id: message.id, status: "pending" },
        data: { status: "skipped", updatedAt: new Date() },
      });
      return "skipped";
    }
    brand = await brandFor(db, { customerId: message.customerId });
    unsubscribeUrl = oneClickUnsubscribeUrl(target, brandBaseUrl(brand));
  }
  try {
    const rendered = await renderStoredNotification(message, brand);
    const { messageId } = await transport.send({
      notificationId: message.id,
      to: message.recipient,
      senderName: brand.senderName,
      replyTo: brand.replyTo,
      subject: message.subject,
      html: rendered.html,
      text: rendered.text,
      attachments: rendered.attachments,
      unsubscribeUrl,
    });
    await db.$executeRaw`
      UPDATE notifications SET status = 'sent', attempts = attempts + 1, provider_message_id = ${messageId},
                               last_error = NULL, sent_at = now(), updated_at = now()
      WHERE id = ${message.id}::uuid`;
    log.info("notification sent", {
      notificationId: message.id,
      ...(message.customerId
        ? { customerId: message.customerId }
        : message.partnerId
          ? { partnerId: message.partnerId }
          : { distributorId: message.distributorId }),
      kind: message.kind,
      transport: transport.name,
    });
    return "sent";
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).slice(0, 2000);
    await db.$executeRaw`
      UPDATE notifications SET attempts = attempts + 1, last_error = ${reason},
                               status = ${finalAttempt ? "failed" : "pending"}::notification_status, updated_at = now()
      WHERE id = ${message.id}::uuid`;
    throw error;
  }
}
