import type { BulkTransaction } from "../../db/bulk-write";

/**
 * One notification per (channel, customer, mailbox, breach, event type), ever: a rescan,
 * re-import, directory re-sync or reactivation that reports the same exposure again sends that
 * channel nothing new. The record is written in the routing transaction that writes the
 * delivery, so a crash loses both or neither and two routers cannot both claim one.
 */
export interface NotificationCandidate {
  channelId: string;
  customerId: string;
  email: string;
  /** The catalogue breach (stable across a breach instance deleted and found again). */
  breachId: string;
  eventType: string;
  /** Held for the channel's digest (takeHeldChannelNotices) instead of sent now. */
  held?: boolean;
}

export const candidateKey = (c: NotificationCandidate) => [c.channelId, c.customerId, c.email, c.breachId, c.eventType].join("\u0000");

/**
 * The one place that decides which findings a channel is told about: returns the keys
 * (candidateKey) of the candidates it may send, and records them as sent. A mailbox of a
 * directory user who left, or one a mute in force covers (docs/notifications.md, "Quiet by
 * design"), is neither sent nor recorded: once the mute ends, it is told.
 */
export async function filterChannelNotifications(tx: BulkTransaction, candidates: readonly NotificationCandidate[]): Promise<Set<string>> {
  const unique = [...new Map(candidates.map((candidate) => [candidateKey(candidate), candidate])).values()];
  if (unique.length === 0) return new Set();
  const recorded = await tx.query<NotificationCandidate>(
    `INSERT INTO channel_notifications (channel_id, customer_id, email, breach_id, event_type, held)
     SELECT c.* FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::uuid[], $5::text[], $6::boolean[])
       AS c(channel_id, customer_id, email, breach_id, event_type, held)
     WHERE NOT EXISTS (SELECT 1 FROM monitored_assets a
                       WHERE a.customer_id = c.customer_id AND a.kind = 'email' AND a.value = c.email AND NOT a.active)
       AND NOT EXISTS (SELECT 1 FROM notification_mutes m
                       WHERE m.customer_id = c.customer_id AND (m.email IS NULL OR m.email = c.email)
                         AND (m.breach_id IS NULL OR m.breach_id = c.breach_id) AND (m.until IS NULL OR m.until > now()))
     ON CONFLICT DO NOTHING
     RETURNING channel_id::text AS "channelId", customer_id::text AS "customerId", email, breach_id::text AS "breachId", event_type AS "eventType"`,
    [
      unique.map((c) => c.channelId),
      unique.map((c) => c.customerId),
      unique.map((c) => c.email),
      unique.map((c) => c.breachId),
      unique.map((c) => c.eventType),
      unique.map((c) => c.held ?? false),
    ],
  );
  return new Set(recorded.map(candidateKey));
}
