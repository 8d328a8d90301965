/**
 * The raw JSON bodies of both protocols, built once when the delivery is created and sent
 * unchanged on every attempt (so the idempotency token and timestamp never change).
 */

/** SPEC 6.1: {idempotencyToken, type, data, timestamp (ms, when the delivery record was created)}. */
export function currentProtocolBody(idempotencyToken: string, type: string, data: unknown, createdAt: Date): string {
  return JSON.stringify({ idempotencyToken, type, data, timestamp: createdAt.getTime() });
}

/** SPEC 6.2: {event, data, created_at (ISO 8601, when the delivery record was created)}. */
export function legacyProtocolBody(event: string, data: unknown, createdAt: Date): string {
  return JSON.stringify({ event, data, created_at: createdAt.toISOString() });
}
