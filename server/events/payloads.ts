import { z } from "zod";
import { type EventPayload, type EventType } from "./outbox";

/**
 * The payload shapes of SPEC 6.1 as zod schemas, used when an outbox row is read back for
 * delivery: a row whose payload does not match is reported and left undelivered instead of
 * stopping the events behind it.
 */
const customer = z.object({ uuid: z.string(), name: z.string(), reference: z.string() });
const asset = z.object({ uuid: z.string(), type: z.enum(["domain", "email"]), value: z.string() });
const breach = z.object({ uuid: z.string(), name: z.string(), emails: z.array(z.string()) });
const customerOnly = z.object({ customer });
const withAssets = z.object({ customer, assets: z.array(asset).min(1) });
const withBreaches = z.object({ customer, breaches: z.array(breach).min(1) });

const SCHEMAS: Record<EventType, z.ZodType> = {
  "customer.created": customerOnly,
  "customer.deleted": customerOnly,
  "customer.asset.added": withAssets,
  "customer.asset.removed": withAssets,
  "customer.breach.found": withBreaches,
  "customer.breach.resolved": withBreaches,
  "customer.breach.unresolved": withBreaches,
};

export function parseEventPayload(type: string, data: unknown): { event: EventPayload } | { problem: string } {
  const schema = SCHEMAS[type as EventType];
  if (!schema) return { problem: `unknown event type "${type}"` };
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { problem: `${issue.path.join(".") || "data"}: ${issue.message}` };
  }
  return { event: { type, data: parsed.data } as EventPayload };
}
