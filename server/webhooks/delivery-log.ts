import { randomUUID } from "node:crypto";
import type { Db, Prisma } from "../db/client";
import { badRequest, conflict, notFound, unprocessable } from "../errors";
import { LEGACY_EVENT_TYPES, type LegacyEventType } from "../events/legacy";
import { EVENT_TYPES, type EventType } from "../events/outbox";
import { wakeJobWorkers } from "../jobs/wake";
import { UUID_PATTERN } from "../uuid";
import { currentProtocolBody, legacyProtocolBody } from "./bodies";
import { getEndpoint, type Protocol } from "./endpoints";
import type { WebhookOwner } from "./owner";
import { sampleEvent, sampleLegacyData } from "./samples";

/**
 * The delivery log of an endpoint (docs/webhooks.md): deliveries with their attempts, newest first;
 * re-queueing one; and sending a signed sample event through the same engine.
 */
export const DELIVERY_NOT_FOUND = "Delivery not found";
export const INVALID_DELIVERY_ID = "Invalid delivery ID";
export type DeliveryStatus = "pending" | "delivering" | "delivered" | "failed";

export interface DeliveryRecord {
  id: string;
  eventType: string;
  idempotencyToken: string;
  status: DeliveryStatus;
  test: boolean;
  attempts: Array<{ at: Date; statusCode: number | null; durationMs: number | null; error: string | null; fallbackSecret: boolean }>;
  /** Why the delivery failed, or why its last attempt did. */
  error: string | null;
  nextAttemptAt: Date | null;
  createdAt: Date;
  deliveredAt: Date | null;
}

const WITH_ATTEMPTS = {
  attempts: {
    orderBy: [{ startedAt: "asc" }, { id: "asc" }],
    select: { startedAt: true, statusCode: true, durationMs: true, error: true, fallbackSecret: true },
  },
} satisfies Prisma.WebhookDeliveryInclude;

type DeliveryRow = Prisma.WebhookDeliveryGetPayload<{ include: typeof WITH_ATTEMPTS }>;

function toRecord(row: DeliveryRow): DeliveryRecord {
  return {
    id: row.id,
    eventType: row.eventType,
    idempotencyToken: row.idempotencyToken,
    status: row.status,
    test: row.isTest,
    attempts: row.attempts.map(({ startedAt, ...attempt }) => ({ at: startedAt, ...attempt })),
    error: row.lastError,
    nextAttemptAt: row.status === "pending" ? row.nextAttemptAt : null,
    createdAt: row.createdAt,
    deliveredAt: row.deliveredAt,
  };
}

export async function listDeliveries(
  db: Db,
  owner: WebhookOwner,
  protocol: Protocol,
  endpointId: string,
  { page, pageSize, status }: { page: number; pageSize: number; status?: DeliveryStatus },
): Promise<{ deliveries: DeliveryRecord[]; totalCount: number }> {
  await getEndpoint(db, owner, protocol, endpointId);
  const where = { endpointId, ...(status ? { status } : {}) };
  const [totalCount, rows] = await Promise.all([
    db.webhookDelivery.count({ where }),
    db.webhookDelivery.findMany({
      where,
      orderBy: { sequence: "desc" },
      skip: (page - 1) * pageSize,
      take: pageSize,
      include: WITH_ATTEMPTS,
    }),
  ]);
  return { deliveries: rows.map(toRecord), totalCount };
}

export const DELIVERY_ALREADY_QUEUED = "Delivery is already queued";

/**
 * A pending delivery waiting for its next attempt is made due now, its round of attempts kept;
 * false when it is being attempted at this moment (claimed) or no longer pending.
 */
async function retryPendingNow(db: Db, deliveryId: string, endpointId: string): Promise<boolean> {
  const { count } = await db.webhookDelivery.updateMany({
    where: { id: deliveryId, endpointId, status: "pending", claimToken: null },
    data: { nextAttemptAt: new Date(), updatedAt: new Date() },
  });
  return count === 1;
}

/**
 * Queues a finished delivery again with a fresh round of attempts (same body and idempotency
 * token); a pending one that waits for its next attempt is attempted now instead.
 */
export async function requeueDelivery(
  db: Db,
  owner: WebhookOwner,
  protocol: Protocol,
  endpointId: string,
  deliveryId: string,
): Promise<DeliveryRecord> {
  const endpoint = await getEndpoint(db, owner, protocol, endpointId);
  if (!UUID_PATTERN.test(deliveryId)) throw badRequest(INVALID_DELIVERY_ID);
  const delivery = await db.webhookDelivery.findFirst({ where: { id: deliveryId, endpointId }, select: { status: true, isTest: true } });
  if (!delivery) throw notFound(DELIVERY_NOT_FOUND);
  if (!endpoint.enabled && !delivery.isTest) throw unprocessable("Delivery cannot be retried: the webhook is disabled");
  const { count } = await db.webhookDelivery.updateMany({
    where: { id: deliveryId, endpointId, status: { in: ["delivered", "failed"] } },
    data: {
      status: "pending",
      attemptCount: 0,
      maxAttempts: delivery.isTest ? 1 : endpoint.maxAttempts,
      fallbackUsed: false,
      nextAttemptAt: new Date(),
      lastError: null,
      deliveredAt: null,
      updatedAt: new Date(),
    },
  });
  if (count === 0 && !(delivery.status === "pending" && (await retryPendingNow(db, deliveryId, endpointId)))) {
    throw conflict(DELIVERY_ALREADY_QUEUED);
  }
  await wakeJobWorkers();
  return toRecord(await db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId }, include: WITH_ATTEMPTS }));
}

/**
 * Queues a signed sample event of the chosen type (default: the endpoint's first subscribed
 * one) for the endpoint, disabled or not: one attempt, a fresh idempotency token.
 */
export async function sendTestEvent(
  db: Db,
  owner: WebhookOwner,
  protocol: Protocol,
  endpointId: string,
  eventType: string | undefined,
): Promise<DeliveryRecord> {
  const endpoint = await getEndpoint(db, owner, protocol, endpointId);
  const type = eventType ?? endpoint.eventTypes[0]!;
  const known: readonly string[] = protocol === "current" ? EVENT_TYPES : LEGACY_EVENT_TYPES;
  if (!known.includes(type)) throw badRequest(`Validation failed: eventType: Unknown event type; expected one of ${known.join(", ")}`);
  const createdAt = new Date();
  const idempotencyToken = randomUUID();
  const body =
    protocol === "current"
      ? currentProtocolBody(idempotencyToken, type as EventType, sampleEvent(type as EventType).data, createdAt)
      : legacyProtocolBody(type as LegacyEventType, sampleLegacyData(type as LegacyEventType, createdAt), createdAt);
  const row = await db.webhookDelivery.create({
    data: { endpointId, idempotencyToken, eventType: type, body, isTest: true, maxAttempts: 1, createdAt, nextAttemptAt: createdAt },
    include: WITH_ATTEMPTS,
  });
  await wakeJobWorkers();
  return toRecord(row);
}
