import { randomUUID } from "node:crypto";
import { z } from "zod";
import { config } from "../../config";
import type { Db } from "../../db/client";
import { defineJob } from "../../jobs/definition";
import { jobType } from "../../jobs/queue";
import { scheduleJob, slotPayload } from "../../jobs/schedules";
import { wakeJobWorkers } from "../../jobs/wake";
import { digestsOfSlot } from "../../notifications/alert-digests";
import { UUID_PATTERN } from "../../uuid";
import { ENDPOINT_DISABLED } from "../delivery-engine/failure-messages";
import { formatForChannel } from "./adapters";
import type { ChannelFinding, ChannelMessage } from "./message";
import { DIGEST_EVENT_TYPE } from "./routing";
import { findingSeverity, highest } from "./severity";
import type { ChannelType } from "./targets";

/**
 * Digests of chat channels (docs/integrations.md, "Digests"): a channel with `digest` daily or
 * weekly is not sent each new exposure as it is routed; routing records it in the channel's
 * once-ledger as held (routing.ts), and at 07:00 UTC (weekly: Mondays) one message per customer
 * lists what was held: the same Block Kit message or Adaptive Card as a finding's, titled as a
 * digest. The held rows are taken and the deliveries written in one transaction, so a digest is
 * written once, and a mailbox is never told twice: the ledger row stays. A mailbox muted, or an
 * inactive directory user's, by then is left out (and stays untold).
 */
export const channelDigestJobType = jobType(
  "webhooks.channel-digest",
  z.object({
    channelId: z.string().regex(UUID_PATTERN, "a uuid"),
    digest: z.enum(["daily", "weekly"]),
    slot: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "a day (YYYY-MM-DD)"),
  }),
);

/**
 * Queues one digest job per channel holding notices whose digest the slot sends. A channel set
 * back to off meanwhile has its held notices sent with the next daily slot. Returns the number queued.
 */
export async function enqueueChannelDigests(db: Db, slot: string): Promise<number> {
  const digests = digestsOfSlot(slot);
  const channels = await db.$queryRaw<Array<{ id: string; digest: "off" | "daily" | "weekly" }>>`
    SELECT ic.id::text, ic.digest::text AS digest FROM integration_channels ic
    WHERE (ic.digest::text = ANY(${digests}::text[]) OR ic.digest = 'off')
      AND EXISTS (SELECT 1 FROM channel_notifications n WHERE n.channel_id = ic.id AND n.held)`;
  return channelDigestJobType.enqueueMany(
    db,
    channels.map(({ id, digest }) => {
      const sent = digest === "off" ? "daily" : digest;
      return { payload: { channelId: id, digest: sent, slot }, dedupeKey: `channel-digest:${id}:${sent}:${slot}` };
    }),
  );
}

interface TakenRow {
  customerId: string;
  email: string;
  breachId: string;
  audible: boolean;
}

/** Writes the channel's digest for the slot: one delivery per customer it held notices for. Returns how many. */
export async function writeChannelDigest(
  db: Db,
  { channelId, digest, slot }: { channelId: string; digest: "daily" | "weekly"; slot: string },
): Promise<number> {
  return db.$transaction(async (tx) => {
    const [channel] = await tx.$queryRaw<Array<{ type: ChannelType; enabled: boolean; maxAttempts: number }>>`
      SELECT ic.type::text AS type, e.enabled, e.max_attempts AS "maxAttempts"
      FROM integration_channels ic JOIN webhook_endpoints e ON e.id = ic.id
      WHERE ic.id = ${channelId}::uuid FOR UPDATE OF ic`;
    if (!channel) return 0;
    const taken = await tx.$queryRaw<TakenRow[]>`
      UPDATE channel_notifications n SET held = false
      WHERE n.channel_id = ${channelId}::uuid AND n.held
      RETURNING n.customer_id::text AS "customerId", n.email, n.breach_id::text AS "breachId",
        (NOT EXISTS (SELECT 1 FROM monitored_assets a
                     WHERE a.customer_id = n.customer_id AND a.kind = 'email' AND a.value = n.email AND NOT a.active)
         AND NOT EXISTS (SELECT 1 FROM notification_mutes m
                         WHERE m.customer_id = n.customer_id AND (m.email IS NULL OR m.email = n.email)
                           AND (m.breach_id IS NULL OR m.breach_id = n.breach_id) AND (m.until IS NULL OR m.until > now()))) AS audible`;
    const told = taken.filter((row) => row.audible);
    if (told.length === 0) return 0;
    const byCustomer = new Map<string, TakenRow[]>();
    for (const row of told) byCustomer.set(row.customerId, [...(byCustomer.get(row.customerId) ?? []), row]);
    const customers = await tx.customer.findMany({
      where: { id: { in: [...byCustomer.keys()] } },
      select: { id: true, companyName: true, reference: true, status: true },
      orderBy: { companyName: "asc" },
    });
    const instances = await tx.customerBreach.findMany({
      where: { OR: told.map((row) => ({ customerId: row.customerId, breachId: row.breachId })) },
      select: {
        id: true,
        customerId: true,
        breachId: true,
        breach: { select: { name: true, dataClasses: true, isSensitive: true, isStealerLog: true } },
      },
    });
    const now = new Date();
    let written = 0;
    for (const customer of customers) {
      const prospect = customer.status === "prospect";
      const findings: ChannelFinding[] = [];
      for (const instance of instances.filter((candidate) => candidate.customerId === customer.id)) {
        const emails = byCustomer
          .get(customer.id)!
          .filter((row) => row.breachId === instance.breachId)
          .map((row) => row.email)
          .sort();
        if (emails.length === 0) continue;
        findings.push({
          breachInstanceId: instance.id,
          breachName: prospect ? null : instance.breach.name,
          dataClasses: prospect ? [] : instance.breach.dataClasses,
          severity: findingSeverity(DIGEST_EVENT_TYPE, instance.breach),
          emails,
        });
      }
      if (findings.length === 0) continue;
      const token = randomUUID();
      const message: ChannelMessage = {
        eventId: token,
        eventType: DIGEST_EVENT_TYPE,
        severity: highest(findings.map((finding) => finding.severity)),
        occurredAt: now,
        customer: { id: customer.id, name: customer.companyName, reference: customer.reference },
        title: `${digest === "daily" ? "Daily" : "Weekly"} digest (${slot}): new exposures at ${customer.companyName}`,
        details: [],
        findings,
        link: `${config.appUrl()}/admin/customers/${customer.id}`,
        test: false,
      };
      await tx.webhookDelivery.create({
        data: {
          endpointId: channelId,
          idempotencyToken: token,
          eventType: DIGEST_EVENT_TYPE,
          body: formatForChannel(channel.type, message),
          maxAttempts: channel.maxAttempts,
          createdAt: now,
          nextAttemptAt: now,
          ...(channel.enabled ? {} : { status: "failed" as const, lastError: ENDPOINT_DISABLED }),
        },
      });
      written += 1;
    }
    return written;
  });
}

/** One channel's digest for a slot. */
export const channelDigestJob = defineJob(channelDigestJobType, {
  async run(db, payload) {
    if ((await writeChannelDigest(db, payload)) > 0) await wakeJobWorkers();
  },
});

/** The fan-out of a day's channel digests (weekly ones on Mondays). */
export const channelDigestsJob = defineJob({
  kind: "webhooks.channel-digests",
  payload: slotPayload,
  async run(db, payload) {
    if ((await enqueueChannelDigests(db, payload.slot)) > 0) await wakeJobWorkers();
  },
});

/** Every day at 07:00 UTC, with the e-mail alert digests. */
export const channelDigestSchedule = scheduleJob(channelDigestsJob, { name: "channel-digest", every: "day", hourUtc: 7 });
