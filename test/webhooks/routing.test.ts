import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { recordEvent } from "../../server/events/outbox";
import { createEndpoint } from "../../server/webhooks/endpoints";
import { routePendingEvents } from "../../server/webhooks/routing";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { breach, createTestCustomer, deliveriesOf, recordTestEvent, type TestCustomer } from "../helpers/webhook-fixtures";

let testDb: TestDatabase;
const URL_A = "http://127.0.0.1:9/a";

beforeAll(async () => {
  testDb = await createTestDatabase();
});
afterAll(async () => {
  await testDb?.close();
});
beforeEach(() => {
  vi.stubEnv("WEBHOOK_ALLOW_PRIVATE_URLS", "true");
  return () => vi.unstubAllEnvs();
});

async function endpoint(
  owner: { partnerId: string } | { distributorId: string },
  eventTypes: string[],
  options: { protocol?: "current" | "legacy"; enabled?: boolean } = {},
) {
  const { endpoint } = await createEndpoint(testDb.db, owner, options.protocol ?? "current", {
    url: URL_A,
    eventTypes,
    enabled: options.enabled,
  });
  return endpoint.id;
}

async function bodiesOf(endpointId: string) {
  return (await deliveriesOf(testDb.db, endpointId)).map((delivery) => JSON.parse(delivery.body));
}

async function route() {
  // other test files never share this database, so everything pending is this test's
  while ((await routePendingEvents(testDb.db)).events > 0);
}

describe("routing", () => {
  let org: TestOrg;
  let customer: TestCustomer;
  beforeEach(async () => {
    org = await createTestOrg(testDb.db);
    customer = await createTestCustomer(testDb.db, org.partner.id, { emails: ["a@acme.example"], domains: ["acme.example"] });
  });

  it("queues one delivery per subscribed endpoint of the partner and of its distributor; a disabled one's is failed at once, to recover later", async () => {
    const partnerEndpoint = await endpoint({ partnerId: org.partner.id }, ["customer.created"]);
    const distributorEndpoint = await endpoint({ distributorId: org.distributor.id }, ["customer.created", "customer.deleted"]);
    const unsubscribed = await endpoint({ partnerId: org.partner.id }, ["customer.deleted"]);
    const disabled = await endpoint({ partnerId: org.partner.id }, ["customer.created"], { enabled: false });
    const other = await createTestOrg(testDb.db);
    const otherPartner = await endpoint({ partnerId: other.partner.id }, ["customer.created"]);
    const otherDistributor = await endpoint({ distributorId: other.distributor.id }, ["customer.created"]);

    const eventId = await recordTestEvent(testDb.db, customer, "customer.created", {});
    await route();

    for (const id of [partnerEndpoint, distributorEndpoint]) {
      const [delivery, ...rest] = await deliveriesOf(testDb.db, id);
      expect(rest).toEqual([]);
      expect(delivery).toMatchObject({
        eventId,
        idempotencyToken: eventId,
        eventType: "customer.created",
        status: "pending",
        maxAttempts: 3,
      });
    }
    for (const id of [unsubscribed, otherPartner, otherDistributor]) expect(await deliveriesOf(testDb.db, id)).toEqual([]);
    const [kept, ...more] = await deliveriesOf(testDb.db, disabled);
    expect(more).toEqual([]);
    expect(kept).toMatchObject({
      eventId,
      status: "failed",
      attemptCount: 0,
      lastError: "Endpoint is disabled: the delivery was not sent",
    });
    expect(kept!.attempts).toEqual([]);
    expect((await testDb.db.outboxEvent.findUniqueOrThrow({ where: { id: eventId } })).routedAt).toBeInstanceOf(Date);
  });

  it("keeps the order events were recorded in, also when they share a created_at (same millisecond)", async () => {
    const endpointId = await endpoint({ partnerId: org.partner.id }, ["customer.asset.added"]);
    const values = Array.from({ length: 10 }, (_, index) => `user${index}@acme.example`);
    await testDb.db.$transaction(async (tx) => {
      for (const value of values) {
        await recordEvent(tx, {
          type: "customer.asset.added",
          partnerId: customer.partnerId,
          customerId: customer.id,
          data: { customer: customer.ref, assets: [{ uuid: randomUUID(), type: "email", value }] },
        });
      }
      await tx.$executeRaw`UPDATE outbox_events SET created_at = date_trunc('second', created_at) WHERE routed_at IS NULL`;
    });
    await route();
    const routed = (await bodiesOf(endpointId)).map((body) => body.data.assets[0].value);
    expect(routed).toEqual(values);
  });

  it("routes each event once however often routing runs", async () => {
    const id = await endpoint({ partnerId: org.partner.id }, ["customer.created"]);
    await recordTestEvent(testDb.db, customer, "customer.created", {});
    await Promise.all([routePendingEvents(testDb.db), routePendingEvents(testDb.db), routePendingEvents(testDb.db)]);
    await route();
    expect(await deliveriesOf(testDb.db, id)).toHaveLength(1);
  });

  it("carries full breach detail for an active customer", async () => {
    const id = await endpoint({ partnerId: org.partner.id }, ["customer.breach.found"]);
    const found = breach("LinkedIn-2024", ["a@acme.example"]);
    await recordTestEvent(testDb.db, customer, "customer.breach.found", { breaches: [found] });
    await route();
    expect((await bodiesOf(id))[0].data).toEqual({ customer: customer.ref, breaches: [found] });
  });

  it("carries only the redacted shape for a prospect customer's breach events", async () => {
    const prospect = await createTestCustomer(testDb.db, org.partner.id, { status: "prospect", emails: ["p@acme.example"] });
    const current = await endpoint({ partnerId: org.partner.id }, [
      "customer.breach.found",
      "customer.breach.resolved",
      "customer.created",
    ]);
    const legacy = await endpoint({ partnerId: org.partner.id }, ["breach.new", "breach.resolved"], { protocol: "legacy" });
    const found = breach("Adobe", ["p@acme.example"]);
    await recordTestEvent(testDb.db, prospect, "customer.breach.found", { breaches: [found] });
    await recordTestEvent(testDb.db, prospect, "customer.breach.resolved", { breaches: [found] });
    await recordTestEvent(testDb.db, prospect, "customer.created", {});
    await route();

    const bodies = await bodiesOf(current);
    expect(bodies.map((body) => body.type)).toEqual(["customer.breach.found", "customer.breach.resolved", "customer.created"]);
    expect(bodies[0].data).toEqual({
      customer: prospect.ref,
      partnerId: org.partner.id,
      breachStatus: true,
      count: 1,
      breaches: [{ id: found.uuid, uuid: found.uuid, emails: ["p@acme.example"], resolved: false }],
    });
    expect(bodies[1].data.breaches[0].resolved).toBe(true);
    expect(bodies[2].data).toEqual({ customer: prospect.ref });
    const text = JSON.stringify(bodies.slice(0, 2));
    expect(text).not.toContain("Adobe");

    const legacyBodies = await bodiesOf(legacy);
    expect(legacyBodies.map((body) => [body.event, body.data.new_breach_names ?? body.data.breach_name])).toEqual([
      ["breach.new", []],
      ["breach.resolved", null],
    ]);
    expect(JSON.stringify(legacyBodies)).not.toContain("Adobe");
  });

  it("merges breach.found events of one customer queued together, with the union of e-mails per breach", async () => {
    const id = await endpoint({ partnerId: org.partner.id }, ["customer.breach.found"]);
    const other = await createTestCustomer(testDb.db, org.partner.id, { emails: ["z@other.example"] });
    const linkedIn = breach("LinkedIn", ["a@acme.example"]);
    const adobe = breach("Adobe", ["b@acme.example"]);
    const first = await recordTestEvent(testDb.db, customer, "customer.breach.found", { breaches: [linkedIn] });
    await recordTestEvent(testDb.db, customer, "customer.breach.found", {
      breaches: [{ ...linkedIn, emails: ["c@acme.example", "a@acme.example"] }, adobe],
    });
    const otherEvent = await recordTestEvent(testDb.db, other, "customer.breach.found", { breaches: [adobe] });
    await route();

    const bodies = await bodiesOf(id);
    expect(bodies).toHaveLength(2);
    const merged = bodies.find((body) => body.idempotencyToken === first)!;
    expect(merged.data.breaches).toEqual([{ uuid: linkedIn.uuid, name: "LinkedIn", emails: ["a@acme.example", "c@acme.example"] }, adobe]);
    expect(bodies.find((body) => body.idempotencyToken === otherEvent)!.data.customer).toEqual(other.ref);
  });

  it("does not stop at an event whose payload does not match its type", async () => {
    const id = await endpoint({ partnerId: org.partner.id }, ["customer.created", "customer.breach.found"]);
    const broken = await testDb.db.outboxEvent.create({
      data: {
        type: "customer.breach.found",
        partnerId: org.partner.id,
        customerId: customer.id,
        payload: { customer: { ...customer.ref } },
      },
    });
    const good = await recordTestEvent(testDb.db, customer, "customer.created", {});
    await route();
    expect((await deliveriesOf(testDb.db, id)).map((delivery) => delivery.eventId)).toEqual([good]);
    expect((await testDb.db.outboxEvent.findUniqueOrThrow({ where: { id: broken.id } })).routedAt).toBeInstanceOf(Date);
  });
});

describe("earlier-protocol events", () => {
  let org: TestOrg;
  let customer: TestCustomer;
  let legacy: string;
  beforeEach(async () => {
    org = await createTestOrg(testDb.db);
    customer = await createTestCustomer(testDb.db, org.partner.id, {
      emails: ["a@acme.example", "b@acme.example", "c@acme.example"],
      domains: ["acme.example"],
    });
    legacy = await endpoint(
      { partnerId: org.partner.id },
      ["breach.new", "breach.resolved", "breach.unresolved", "email.added", "email.removed"],
      { protocol: "legacy" },
    );
  });

  it("maps breach.found to breach.new", async () => {
    const eventId = await recordTestEvent(testDb.db, customer, "customer.breach.found", {
      breaches: [breach("LinkedIn", ["a@acme.example"]), breach("Adobe", ["b@acme.example"])],
    });
    await route();
    const occurredAt = (await testDb.db.outboxEvent.findUniqueOrThrow({ where: { id: eventId } })).createdAt.toISOString();
    const [delivery] = await deliveriesOf(testDb.db, legacy);
    expect(delivery!.maxAttempts).toBe(4);
    expect(JSON.parse(delivery!.body)).toEqual({
      event: "breach.new",
      data: {
        customer_uuid: customer.id,
        breaches_found: 2,
        new_breach_names: ["LinkedIn", "Adobe"],
        emails_scanned: 3,
        timestamp: occurredAt,
      },
      created_at: delivery!.createdAt.toISOString(),
    });
  });

  it("sends one breach.resolved / breach.unresolved per breach", async () => {
    const one = breach("LinkedIn", ["a@acme.example"]);
    const two = breach("Adobe", ["b@acme.example", "c@acme.example"]);
    await recordTestEvent(testDb.db, customer, "customer.breach.resolved", { breaches: [one, two] });
    await recordTestEvent(testDb.db, customer, "customer.breach.unresolved", { breaches: [two] });
    await route();
    const bodies = await bodiesOf(legacy);
    expect(bodies.map((body) => [body.event, body.data.breach_name, body.data.emails])).toEqual([
      ["breach.resolved", "LinkedIn", ["a@acme.example"]],
      ["breach.resolved", "Adobe", ["b@acme.example", "c@acme.example"]],
      ["breach.unresolved", "Adobe", ["b@acme.example", "c@acme.example"]],
    ]);
    expect(bodies.every((body) => body.data.customer_uuid === customer.id && typeof body.data.timestamp === "string")).toBe(true);
  });

  it("maps asset events to email.added / email.removed with the e-mail assets only, and nothing for domains alone", async () => {
    const email = { uuid: crypto.randomUUID(), type: "email" as const, value: "d@acme.example" };
    const domain = { uuid: crypto.randomUUID(), type: "domain" as const, value: "acme.example" };
    await recordTestEvent(testDb.db, customer, "customer.asset.added", { assets: [email, domain] });
    await recordTestEvent(testDb.db, customer, "customer.asset.removed", { assets: [domain] });
    await recordTestEvent(testDb.db, customer, "customer.asset.removed", { assets: [email] });
    await recordTestEvent(testDb.db, customer, "customer.created", {});
    await recordTestEvent(testDb.db, customer, "customer.deleted", {});
    await route();
    const bodies = await bodiesOf(legacy);
    expect(bodies.map((body) => [body.event, body.data.emails])).toEqual([
      ["email.added", ["d@acme.example"]],
      ["email.removed", ["d@acme.example"]],
    ]);
  });

  it("sends only the subscribed legacy events", async () => {
    const narrow = await endpoint({ partnerId: org.partner.id }, ["email.removed"], { protocol: "legacy" });
    await recordTestEvent(testDb.db, customer, "customer.breach.found", { breaches: [breach("LinkedIn", ["a@acme.example"])] });
    await route();
    expect(await deliveriesOf(testDb.db, narrow)).toEqual([]);
  });
});
