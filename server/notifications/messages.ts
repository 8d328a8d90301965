import type { Prisma } from "../db/client";
import { enqueueJobs, type Queryable } from "../jobs/queue";
import { notificationSubject } from "./subjects";
import { messageLocale } from "./texts";
import type { NotificationContent } from "./types";

/** The job that sends one message (defined in jobs.ts; queued here with the message). */
export const SEND_NOTIFICATION_JOB = "notifications.send";
/** Attempts per message: with the backoff of jobs.ts, the last is about two hours after the first. */
export const SEND_ATTEMPTS = 8;

export interface NewNotification {
  customerId: string;
  /** What caused the message; with the kind and the recipient it is unique (docs/notifications.md). */
  cause: string;
  /** The customer's locale code; the message is written in messageLocale() of it. */
  localeCode: string;
  recipients: readonly string[];
  content: NotificationContent;
}

/**
 * Writes one message per recipient and queues a send job for each, in the caller's
 * transaction (the one that records the cause). A message that exists already for the same
 * cause, kind and recipient is not written again: nothing is sent twice for one cause.
 * Returns the ids of the new messages.
 */
export async function queueNotification(tx: Queryable, message: NewNotification): Promise<string[]> {
  if (message.recipients.length === 0) return [];
  const locale = messageLocale(message.localeCode);
  const subject = notificationSubject(message.content, locale);
  const created = await tx.notification.createManyAndReturn({
    data: [...new Set(message.recipients)].map((recipient) => ({
      customerId: message.customerId,
      kind: message.content.kind,
      cause: message.cause,
      recipient,
      localeCode: locale,
      subject,
      data: message.content.data as unknown as Prisma.InputJsonValue,
    })),
    skipDuplicates: true,
    select: { id: true },
  });
  await enqueueJobs(
    tx,
    created.map(({ id }) => ({
      kind: SEND_NOTIFICATION_JOB,
      payload: { notificationId: id },
      dedupeKey: `notification:${id}`,
      maxAttempts: SEND_ATTEMPTS,
    })),
  );
  return created.map(({ id }) => id);
}
