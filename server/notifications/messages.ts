import { z } from "zod";
import { Prisma, type Queryable } from "../db/client";
import { portalLocale } from "../i18n/negotiate";
import { jobType } from "../jobs/queue";
import { UUID_PATTERN } from "../uuid";
import { notificationSubject } from "./subjects";
import type { CustomerNotificationContent, OrganizationNotificationContent } from "./types";

/** The job that sends one message (defined in jobs.ts; queued here with the message). */
export const SEND_NOTIFICATION_JOB = "notifications.send";
/** Attempts per message: with the backoff of jobs.ts, the last is about two hours after the first. */
export const SEND_ATTEMPTS = 8;
/** Run by sendNotificationJob (jobs.ts). */
export const sendNotificationJobType = jobType(
  SEND_NOTIFICATION_JOB,
  z.object({ notificationId: z.string().regex(UUID_PATTERN, "a uuid") }),
  { maxAttempts: SEND_ATTEMPTS },
);

/**
 * Whom a message concerns: a customer (the e-mails to its recipients), or the partner or
 * distributor it is written to (operational e-mails about its webhook endpoints).
 */
export type NotificationAddressee =
  | { customerId: string; content: CustomerNotificationContent }
  | { partnerId: string; content: OrganizationNotificationContent }
  | { distributorId: string; content: OrganizationNotificationContent };

export type NewNotification = NotificationAddressee & {
  /** What caused the message; with the kind and the recipient it is unique (docs/notifications.md). */
  cause: string;
  /** The customer's locale code (an organization's messages: en-GB); read as the portal reads it (portalLocale). */
  localeCode: string;
  recipients: readonly string[];
};

/**
 * Writes one message per recipient and queues a send job for each, in the caller's
 * transaction (the one that records the cause), in one statement: onboarding, the hot write
 * path, pays one round trip for its welcome. A message that exists already for the same cause,
 * kind and recipient is not written again: nothing is sent twice for one cause. `onlyIf` is a
 * condition the rows are written under, checked in the same statement (the partner's switch).
 * Returns the ids of the new messages.
 */
export async function queueNotification(tx: Queryable, message: NewNotification, onlyIf: Prisma.Sql = Prisma.sql`TRUE`): Promise<string[]> {
  if (message.recipients.length === 0) return [];
  const locale = portalLocale(message.localeCode);
  const customerId = "customerId" in message ? message.customerId : null;
  const partnerId = "partnerId" in message ? message.partnerId : null;
  const distributorId = "distributorId" in message ? message.distributorId : null;
  // The unique key of this kind of addressee (docs/notifications.md): NULLs are distinct, so only its own key binds.
  const key = Prisma.raw(customerId ? "customer_id" : partnerId ? "partner_id" : "distributor_id");
  const rows = await tx.$queryRaw<Array<{ id: string }>>`
    WITH message AS (
      INSERT INTO notifications (customer_id, partner_id, distributor_id, kind, cause, recipient, locale_code, subject, data, updated_at)
      SELECT ${customerId}::uuid, ${partnerId}::uuid, ${distributorId}::uuid, ${message.content.kind}::notification_kind, ${message.cause}, recipient, ${locale},
             ${notificationSubject(message.content, locale)}, ${JSON.stringify(message.content.data)}::jsonb, now()
      FROM unnest(${[...new Set(message.recipients)]}::text[]) AS recipient
      WHERE ${onlyIf}
      ON CONFLICT (${key}, kind, cause, recipient) DO NOTHING
      RETURNING id
    ), queued AS (
      ${sendNotificationJobType.insertSelected(Prisma.sql`
        SELECT jsonb_build_object('notificationId', id) AS payload, 'notification:' || id AS dedupe_key FROM message`)}
    )
    SELECT id::text FROM message`;
  return rows.map((row) => row.id);
}
