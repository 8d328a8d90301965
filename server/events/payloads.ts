import { z } from "zod";
import { type EventPayload, type EventType } from "./outbox";

/**
 * The current protocol's payload shapes (docs/webhooks.md, "Events") as zod schemas, twice from one set of fields:
 * - as stored: read back from an outbox row for delivery (unknown keys dropped); a row whose
 *   payload does not match is reported and left undelivered instead of stopping the events
 *   behind it;
 * - as sent: the `data` of a current-protocol body (strict), which every body is parsed with
 *   when it is built (server/webhooks/bodies.ts) and which the OpenAPI document's `webhooks`
 *   section is generated from, so the document and the wire cannot differ.
 */
const uuid = (description: string) => z.string().meta({ format: "uuid", description });

const customerFields = {
  uuid: uuid("The customer's id"),
  name: z.string().meta({ description: "The customer's company name" }),
  reference: z.string().meta({ description: "The partner's reference for the customer" }),
};
const assetFields = {
  uuid: uuid("The monitored asset's id"),
  type: z.enum(["domain", "email"]),
  value: z.string().meta({ description: "The domain or e-mail address (lower case)" }),
};
const breachFields = {
  uuid: uuid("The breach instance's id (what breach/status takes as breachId)"),
  name: z.string().meta({ description: "The breach's name in the catalogue" }),
  emails: z.array(z.string()).meta({ description: "The customer's monitored e-mail addresses found in the breach" }),
  websiteDomains: z.array(z.string()).optional().meta({
    description:
      "customer.breach.found of a stealer-log breach only: the websites whose passwords malware captured for these addresses, sorted ([stealer logs](/docs/breaches#stealer-logs))",
  }),
};

const domainVerifiedFields = {
  domain: z.string().meta({ description: "The verified domain (lower case, internationalized names in punycode)" }),
  method: z
    .enum(["dns", "email", "staff", "directory"])
    .meta({ description: "How it was verified ([domain verification](/docs/domains))" }),
  verifiedAt: z.iso.datetime().meta({ description: "When it was verified" }),
};

const storedCustomer = z.object(customerFields);
const storedAsset = z.object(assetFields);
const storedBreach = z.object(breachFields);
const STORED: Record<EventType, z.ZodType> = {
  "customer.created": z.object({ customer: storedCustomer }),
  "customer.deleted": z.object({ customer: storedCustomer }),
  "customer.asset.added": z.object({ customer: storedCustomer, assets: z.array(storedAsset).min(1) }),
  "customer.asset.removed": z.object({ customer: storedCustomer, assets: z.array(storedAsset).min(1) }),
  "customer.breach.found": z.object({ customer: storedCustomer, breaches: z.array(storedBreach).min(1) }),
  "customer.breach.resolved": z.object({ customer: storedCustomer, breaches: z.array(storedBreach).min(1) }),
  "customer.breach.unresolved": z.object({ customer: storedCustomer, breaches: z.array(storedBreach).min(1) }),
  "customer.domain.verified": z.object({ customer: storedCustomer, ...domainVerifiedFields }),
};

export function parseEventPayload(type: string, data: unknown): { event: EventPayload } | { problem: string } {
  const schema = STORED[type as EventType];
  if (!schema) return { problem: `unknown event type "${type}"` };
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { problem: `${issue.path.join(".") || "data"}: ${issue.message}` };
  }
  return { event: { type, data: parsed.data } as EventPayload };
}

const sentCustomer = z.strictObject(customerFields).meta({ id: "EventCustomer" });
const sentAsset = z.strictObject(assetFields).meta({ id: "EventAsset" });
const sentBreach = z.strictObject(breachFields).meta({ id: "EventBreach" });

const customerData = z.strictObject({ customer: sentCustomer }).meta({ id: "CustomerEventData" });
const assetData = z
  .strictObject({ customer: sentCustomer, assets: z.array(sentAsset).min(1) })
  .meta({ id: "AssetEventData", description: "The assets added or removed" });
const breachData = z.strictObject({ customer: sentCustomer, breaches: z.array(sentBreach).min(1) }).meta({
  id: "BreachEventData",
  description: "The breaches found, resolved or unresolved (breach.found events of one customer routed together are merged)",
});

/** The redacted breach-event data of a prospect customer: no breach names or other details. */
export const redactedBreachDataSchema = z
  .strictObject({
    customer: sentCustomer,
    partnerId: uuid("The partner's id"),
    breachStatus: z.boolean().meta({ description: "Whether the event names any breach" }),
    count: z.number().int().meta({ description: "How many breaches the event names" }),
    breaches: z.array(
      z.strictObject({
        id: uuid("The breach instance's id"),
        uuid: uuid("The same value as id"),
        emails: z.array(z.string()),
        resolved: z.boolean(),
      }),
    ),
  })
  .meta({
    id: "RedactedBreachEventData",
    description: "A prospect customer's breach event: breach names and every other breach detail withheld",
  });
export type RedactedBreachData = z.infer<typeof redactedBreachDataSchema>;

const breachOrRedacted = z.union([breachData, redactedBreachDataSchema]);
const domainVerifiedData = z.strictObject({ customer: sentCustomer, ...domainVerifiedFields }).meta({
  id: "DomainVerifiedEventData",
  description: "A customer's domain was verified; what was withheld at it follows in customer.asset.added and customer.breach.found",
});

/** What a current-protocol receiver gets as `data`, per event type. */
export const SENT_EVENT_DATA: Record<EventType, z.ZodType> = {
  "customer.created": customerData,
  "customer.deleted": customerData,
  "customer.asset.added": assetData,
  "customer.asset.removed": assetData,
  "customer.breach.found": breachOrRedacted,
  "customer.breach.resolved": breachOrRedacted,
  "customer.breach.unresolved": breachOrRedacted,
  "customer.domain.verified": domainVerifiedData,
};
