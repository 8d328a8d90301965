import { randomUUID } from "node:crypto";
import { recountCustomerFigures } from "../../server/customers/figures";
import type { Db } from "../../server/db/client";
import { deliverDueBatch } from "../../server/webhooks/delivery-engine/batch";
import { createEndpoint, type EndpointInput, type Protocol } from "../../server/webhooks/endpoints";
import { routePendingEvents } from "../../server/webhooks/routing";
import { customerRef, recordEvent, type BreachSummary, type CustomerRef, type EventData, type EventType } from "../../server/events/outbox";
import { createTestOrg, type TestOrg } from "./fixtures";

/**
 * Customers and events for webhook tests, written the way the customer and breach services
 * write them: the customer row with Prisma, the event with recordEvent in a transaction.
 */
export interface TestCustomer {
  id: string;
  partnerId: string;
  ref: CustomerRef;
}

export interface TestCustomerOptions {
  status?: "active" | "prospect" | "inactive";
  emails?: string[];
  domains?: string[];
  name?: string;
}

export async function createTestCustomer(db: Db, partnerId: string, options: TestCustomerOptions = {}): Promise<TestCustomer> {
  const plan = await db.plan.findFirstOrThrow({ where: { isSystemDefault: true }, select: { id: true } });
  const reference = `REF-${randomUUID().slice(0, 8)}`;
  const customer = await db.customer.create({
    data: {
      partnerId,
      reference,
      companyName: options.name ?? "Acme Ltd",
      contactEmail: "owner@acme.example",
      currencyCode: "USD",
      planId: plan.id,
      status: options.status ?? "active",
      assets: {
        create: [
          ...(options.emails ?? []).map((value) => ({ kind: "email" as const, value, domain: value.split("@")[1]! })),
          ...(options.domains ?? []).map((value) => ({ kind: "domain" as const, value, domain: value })),
        ],
      },
    },
    select: { id: true, companyName: true, reference: true },
  });
  await recountCustomerFigures(db, [customer.id]);
  return { id: customer.id, partnerId, ref: customerRef(customer) };
}

export interface EndpointFixture {
  org: TestOrg;
  customer: TestCustomer;
  /** The endpoint as the endpoints service returns it. */
  endpoint: Awaited<ReturnType<typeof createEndpoint>>["endpoint"];
  endpointId: string;
  /** The endpoint's signing secret (the current protocol's X-Token). */
  secret: string;
}

/**
 * Where most webhook tests start: an organization, an active customer of its partner, and one
 * endpoint of that partner at `url` (current protocol, customer.created, unless `endpoint` and
 * `protocol` say otherwise).
 */
export async function createEndpointFixture(
  db: Db,
  url: string,
  options: { protocol?: Protocol; endpoint?: Partial<EndpointInput>; customer?: TestCustomerOptions; orgName?: string } = {},
): Promise<EndpointFixture> {
  const org = await createTestOrg(db, options.orgName);
  const customer = await createTestCustomer(db, org.partner.id, options.customer);
  const { endpoint, secret } = await createEndpoint(db, { partnerId: org.partner.id }, options.protocol ?? "current", {
    url,
    eventTypes: ["customer.created"],
    ...options.endpoint,
  });
  return { org, customer, endpoint, endpointId: endpoint.id, secret };
}

export async function recordTestEvent<T extends EventType>(db: Db, customer: TestCustomer, type: T, data: Omit<EventData[T], "customer">) {
  return db.$transaction((tx) =>
    recordEvent(tx, {
      type,
      partnerId: customer.partnerId,
      customerId: customer.id,
      data: { customer: customer.ref, ...data } as EventData[T],
    }),
  );
}

export function breach(name: string, emails: string[], uuid: string = randomUUID()): BreachSummary {
  return { uuid, name, emails };
}

/** Routes and delivers until nothing is left to do now (retries are due at once with WEBHOOK_RETRY_BASE_MS=0). */
export async function drainWebhooks(db: Db, { maxRounds = 100 } = {}): Promise<void> {
  for (let round = 0; round < maxRounds; round++) {
    const { events } = await routePendingEvents(db);
    const claimed = await deliverDueBatch(db);
    if (events === 0 && claimed === 0) return;
  }
  throw new Error(`webhooks still had work after ${maxRounds} rounds`);
}

export async function deliveriesOf(db: Db, endpointId: string) {
  return db.webhookDelivery.findMany({
    where: { endpointId },
    orderBy: { sequence: "asc" },
    include: { attempts: { orderBy: [{ startedAt: "asc" }, { id: "asc" }] } },
  });
}
