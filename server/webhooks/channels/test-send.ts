import { randomUUID } from "node:crypto";
import { config } from "../../config";
import type { Db } from "../../db/client";
import { badRequest } from "../../errors";
import { EVENT_TYPES, type EventType } from "../../events/outbox";
import { isBreachEvent } from "../../events/redaction";
import { wakeJobWorkers } from "../../jobs/wake";
import { listDeliveries, type DeliveryRecord } from "../delivery-log";
import { sampleEvent } from "../samples";
import { formatForChannel } from "./adapters";
import { getChannel } from "./channels";
import { channelMessage } from "./message";
import { findingSeverity, highest } from "./severity";

/** The sample breach's catalogue facts: passwords exposed, so a test shows a high-severity finding. */
const SAMPLE_BREACH = { dataClasses: ["Email addresses", "Passwords"], isSensitive: false, isStealerLog: false };

/**
 * Queues a sample message of `eventType` (default: the channel's first) for the channel, as a
 * test delivery: formatted and sent like a real one, one attempt, also to a disabled channel,
 * and never recorded as told (a real finding later is still sent).
 */
export async function sendChannelTest(db: Db, partnerId: string, id: string, eventType: string | undefined): Promise<DeliveryRecord> {
  const channel = await getChannel(db, partnerId, id);
  const type = eventType ?? channel.eventTypes[0]!;
  if (!(EVENT_TYPES as readonly string[]).includes(type)) {
    throw badRequest(`Validation failed: eventType: Unknown event type; expected one of ${EVENT_TYPES.join(", ")}`);
  }
  const event = sampleEvent(type as EventType);
  const createdAt = new Date();
  const idempotencyToken = randomUUID();
  const findings =
    "breaches" in event.data
      ? event.data.breaches.map((breach) => ({
          breachInstanceId: breach.uuid,
          breachName: breach.name,
          dataClasses: SAMPLE_BREACH.dataClasses,
          severity: findingSeverity(type, SAMPLE_BREACH),
          emails: breach.emails,
        }))
      : [];
  const message = channelMessage(event, {
    eventId: idempotencyToken,
    severity: isBreachEvent(type as EventType) ? highest(findings.map((finding) => finding.severity)) : "info",
    occurredAt: createdAt,
    findings,
    appUrl: config.appUrl(),
    test: true,
  });
  await db.webhookDelivery.create({
    data: {
      endpointId: id,
      idempotencyToken,
      eventType: type,
      body: formatForChannel(channel.type, message),
      isTest: true,
      maxAttempts: 1,
      createdAt,
      nextAttemptAt: createdAt,
    },
  });
  await wakeJobWorkers();
  const { deliveries } = await listDeliveries(db, { partnerId }, "channel", id, { page: 1, pageSize: 1 });
  return deliveries[0]!;
}
