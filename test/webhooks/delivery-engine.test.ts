import { describe, expect, it, vi } from "vitest";
import { performAttempt } from "../../server/webhooks/delivery-engine/attempt";
import { claimAttempts } from "../../server/webhooks/delivery-engine/claim";
import { INTERRUPTED } from "../../server/webhooks/delivery-engine/failure-messages";
import { ResultWriter } from "../../server/webhooks/delivery-engine/outcomes";
import { sweepDeliveries } from "../../server/webhooks/delivery-engine/sweep";
import { createEndpoint, type EndpointInput } from "../../server/webhooks/endpoints";
import { routePendingEvents } from "../../server/webhooks/routing";
import { cycleSecret, deactivateSecret, listSecrets } from "../../server/webhooks/secrets";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import {
  createEndpointFixture,
  breach,
  createTestCustomer,
  deliveriesOf,
  drainWebhooks,
  recordTestEvent,
  type TestCustomer,
} from "../helpers/webhook-fixtures";
import { hmacHex, type TestReceiver } from "../helpers/webhook-receiver";
import { webhookTestBed } from "../helpers/webhook-test-bed";

const testDb = webhookTestBed();

const receiver = (...args: Parameters<typeof testDb.receiver>) => testDb.receiver(...args);

interface Setup {
  org: TestOrg;
  customer: TestCustomer;
  endpointId: string;
  token: string;
}

/** An org with a customer and one current-protocol endpoint at the receiver. */
async function setup(target: TestReceiver, input: Partial<EndpointInput> = {}): Promise<Setup> {
  const { org, customer, endpointId, secret } = await createEndpointFixture(testDb.db, target.url, {
    customer: { emails: ["a@acme.example"] },
    endpoint: { eventTypes: ["customer.created", "customer.breach.found"], ...input },
  });
  return { org, customer, endpointId, token: secret };
}

const created = (s: Setup) => recordTestEvent(testDb.db, s.customer, "customer.created", {});

describe("current protocol", () => {
  it("sends a signed POST with a fresh X-Token and the event body, and accepts a correctly signed answer", async () => {
    let token = "";
    const target = await receiver(() => ({ status: 200, signWith: token }));
    const s = await setup(target);
    token = s.token;
    const eventId = await created(s);
    await drainWebhooks(testDb.db);

    expect(target.requests).toHaveLength(1);
    const request = target.requests[0]!;
    expect(request.method).toBe("POST");
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers["x-token"]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(request.headers["x-signature"]).toBe(hmacHex(s.token, request.body));
    const [delivery] = await deliveriesOf(testDb.db, s.endpointId);
    expect(JSON.parse(request.body)).toEqual({
      idempotencyToken: eventId,
      type: "customer.created",
      data: { customer: s.customer.ref },
      timestamp: delivery!.createdAt.getTime(),
    });
    expect(Object.keys(JSON.parse(request.body))).toEqual(["idempotencyToken", "type", "data", "timestamp"]);
    expect(delivery).toMatchObject({ status: "delivered", attemptCount: 1, lastError: null });
    expect(delivery!.deliveredAt).toBeInstanceOf(Date);
    expect(delivery!.attempts).toHaveLength(1);
    expect(delivery!.attempts[0]).toMatchObject({ statusCode: 200, error: null, fallbackSecret: false });
    expect(delivery!.attempts[0]!.finishedAt).toBeInstanceOf(Date);
  });

  it("retries with the same body and idempotency token and a new X-Token on every request", async () => {
    let token = "";
    const target = await receiver((_request, index) => (index < 2 ? { status: 503 } : { status: 204, signWith: token }));
    const s = await setup(target);
    token = s.token;
    await created(s);
    await drainWebhooks(testDb.db);

    expect(target.requests).toHaveLength(3);
    expect(new Set(target.requests.map((r) => r.body)).size).toBe(1);
    expect(new Set(target.requests.map((r) => r.headers["x-token"])).size).toBe(3);
    const [delivery] = await deliveriesOf(testDb.db, s.endpointId);
    expect(delivery!.status).toBe("delivered");
    expect(delivery!.attempts.map((a) => [a.statusCode, a.error])).toEqual([
      [503, "HTTP 503"],
      [503, "HTTP 503"],
      [204, null],
    ]);
  });

  it.each([
    ["no response signature", () => ({ status: 200 }), "Response has no X-Signature header"],
    [
      "a signature with another key",
      () => ({ status: 200, signWith: "00000000-0000-4000-8000-000000000000" }),
      "Response X-Signature does not verify",
    ],
    ["a 500", () => ({ status: 500 }), "HTTP 500"],
    ["a redirect (not followed)", () => ({ status: 302, headers: { location: "http://127.0.0.1:9/elsewhere" } }), "HTTP 302"],
  ])("counts %s as a failed attempt and stops after maxAttempts (3)", async (_name, rule, error) => {
    const target = await receiver(rule);
    const s = await setup(target);
    await created(s);
    await drainWebhooks(testDb.db);
    expect(target.requests).toHaveLength(3);
    const [delivery] = await deliveriesOf(testDb.db, s.endpointId);
    expect(delivery).toMatchObject({ status: "failed", attemptCount: 3, lastError: error });
    expect(delivery!.attempts.map((a) => a.error)).toEqual([error, error, error]);
  });

  it("makes exactly one attempt with maxAttempts 1", async () => {
    const target = await receiver(() => ({ status: 500 }));
    const s = await setup(target, { maxAttempts: 1 });
    await created(s);
    await drainWebhooks(testDb.db);
    expect(target.requests).toHaveLength(1);
    expect((await deliveriesOf(testDb.db, s.endpointId))[0]).toMatchObject({ status: "failed", attemptCount: 1 });
  });

  it("fails an answer slower than 3 s as a timeout", async () => {
    let token = "";
    const target = await receiver(() => ({ status: 200, signWith: token, delayMs: 3_500 }));
    const s = await setup(target, { maxAttempts: 1 });
    token = s.token;
    await cycleSecret(testDb.db, { partnerId: s.org.partner.id }); // a fallback exists: a timeout still gets no extra request
    await created(s);
    await drainWebhooks(testDb.db);
    expect(target.requests).toHaveLength(1);
    const [delivery] = await deliveriesOf(testDb.db, s.endpointId);
    expect(delivery).toMatchObject({ status: "failed", lastError: "Timed out after 3000 ms" });
    expect(delivery!.attempts[0]!.statusCode).toBeNull();
    expect(delivery!.attempts[0]!.durationMs).toBeGreaterThanOrEqual(2_900);
  });

  it("records a refused connection", async () => {
    const target = await receiver();
    await target.close();
    const s = await setup(target, { maxAttempts: 2 });
    await created(s);
    await drainWebhooks(testDb.db);
    const [delivery] = await deliveriesOf(testDb.db, s.endpointId);
    expect(delivery).toMatchObject({ status: "failed", attemptCount: 2, lastError: "Connection refused" });
  });

  it("delivers to every subscribed endpoint with the same idempotency token", async () => {
    const a = await receiver(() => ({ status: 500 }));
    const b = await receiver(() => ({ status: 500 }));
    const s = await setup(a, { maxAttempts: 1 });
    await createEndpoint(testDb.db, { partnerId: s.org.partner.id }, "current", {
      url: b.url,
      eventTypes: ["customer.created"],
      maxAttempts: 1,
    });
    const eventId = await created(s);
    await drainWebhooks(testDb.db);
    expect(JSON.parse(a.requests[0]!.body).idempotencyToken).toBe(eventId);
    expect(JSON.parse(b.requests[0]!.body).idempotencyToken).toBe(eventId);
  });
});

describe("fallback secret", () => {
  it("sends one extra request with the fallback secret when only the response signature fails, beyond maxAttempts", async () => {
    let oldToken = "";
    const target = await receiver(() => ({ status: 200, signWith: oldToken }));
    const s = await setup(target, { maxAttempts: 1 });
    oldToken = s.token;
    const { token: newToken } = await cycleSecret(testDb.db, { partnerId: s.org.partner.id });
    await created(s);
    await drainWebhooks(testDb.db);

    expect(target.requests).toHaveLength(2);
    expect(target.requests[0]!.headers["x-signature"]).toBe(hmacHex(newToken, target.requests[0]!.body));
    expect(target.requests[1]!.headers["x-signature"]).toBe(hmacHex(oldToken, target.requests[1]!.body));
    const [delivery] = await deliveriesOf(testDb.db, s.endpointId);
    expect(delivery).toMatchObject({ status: "delivered", attemptCount: 1, fallbackUsed: true });
    expect(delivery!.attempts.map((a) => [a.fallbackSecret, a.error])).toEqual([
      [false, "Response X-Signature does not verify"],
      [true, null],
    ]);
  });

  it.each([
    ["a 401", 401],
    ["a 403", 403],
  ])("sends the extra request with the fallback secret when the receiver refuses the signature with %s", async (_name, refusal) => {
    let oldToken = "";
    const target = await receiver((request) =>
      request.headers["x-signature"] === hmacHex(oldToken, request.body) ? { status: 200, signWith: oldToken } : { status: refusal },
    );
    const s = await setup(target, { maxAttempts: 1 });
    oldToken = s.token;
    const { token: newToken } = await cycleSecret(testDb.db, { partnerId: s.org.partner.id });
    await created(s);
    await drainWebhooks(testDb.db);

    expect(target.requests.map((request) => request.headers["x-signature"])).toEqual([
      hmacHex(newToken, target.requests[0]!.body),
      hmacHex(oldToken, target.requests[1]!.body),
    ]);
    const [delivery] = await deliveriesOf(testDb.db, s.endpointId);
    expect(delivery).toMatchObject({ status: "delivered", attemptCount: 1, fallbackUsed: true });
    expect(delivery!.attempts.map((a) => [a.fallbackSecret, a.statusCode, a.error])).toEqual([
      [false, refusal, `HTTP ${refusal}`],
      [true, 200, null],
    ]);
  });

  it("sends the extra request after a 2xx without an answer signature", async () => {
    let oldToken = "";
    const target = await receiver((request) =>
      request.headers["x-signature"] === hmacHex(oldToken, request.body) ? { status: 200, signWith: oldToken } : { status: 200 },
    );
    const s = await setup(target, { maxAttempts: 1 });
    oldToken = s.token;
    await cycleSecret(testDb.db, { partnerId: s.org.partner.id });
    await created(s);
    await drainWebhooks(testDb.db);
    const [delivery] = await deliveriesOf(testDb.db, s.endpointId);
    expect(delivery).toMatchObject({ status: "delivered", fallbackUsed: true });
    expect(delivery!.attempts.map((a) => [a.fallbackSecret, a.error])).toEqual([
      [false, "Response has no X-Signature header"],
      [true, null],
    ]);
  });

  it("sends the extra request once per delivery", async () => {
    const target = await receiver(() => ({ status: 200, signWith: "11111111-1111-4111-8111-111111111111" }));
    const s = await setup(target, { maxAttempts: 2 });
    await cycleSecret(testDb.db, { partnerId: s.org.partner.id });
    await created(s);
    await drainWebhooks(testDb.db);
    expect(target.requests).toHaveLength(3);
    const [delivery] = await deliveriesOf(testDb.db, s.endpointId);
    expect(delivery).toMatchObject({ status: "failed", attemptCount: 2 });
    expect(delivery!.attempts.map((a) => a.fallbackSecret)).toEqual([false, true, false]);
  });

  it("a worker that dies during the fallback request: the sweep closes that request's row, the first one already recorded", async () => {
    const target = await receiver((_, index) =>
      index === 0 ? { status: 200, signWith: "33333333-3333-4333-8333-333333333333" } : { status: 200, delayMs: 2_500 },
    );
    const s = await setup(target, { maxAttempts: 3 });
    await cycleSecret(testDb.db, { partnerId: s.org.partner.id });
    await created(s);
    await routePendingEvents(testDb.db);
    const [attempt] = (await claimAttempts(testDb.db, { limit: 10, leaseMs: 500 })).started;
    const late = performAttempt(testDb.db, new ResultWriter(testDb.db), attempt!); // its fallback request hangs: the worker "dies"
    await target.waitForRequests(2);
    await vi.waitFor(async () => expect(await sweepDeliveries(testDb.db)).toBe(1), { timeout: 5_000, interval: 100 });
    const rows = async () => (await deliveriesOf(testDb.db, s.endpointId))[0]!.attempts;
    expect((await rows()).map((a) => [a.id === attempt!.attemptId, a.fallbackSecret, a.error, a.finishedAt !== null])).toEqual([
      [true, false, "Response X-Signature does not verify", true],
      [false, true, INTERRUPTED, true],
    ]);
    // the answer that comes after all completes the fallback request's row, and adds none
    await late;
    expect((await rows()).map((a) => [a.fallbackSecret, a.statusCode, a.error])).toEqual([
      [false, 200, "Response X-Signature does not verify"],
      [true, 200, "Response has no X-Signature header"],
    ]);
  });

  it("sends no extra request after a 5xx, a 404 or without a fallback secret", async () => {
    const failing = await receiver(() => ({ status: 502 }));
    const s = await setup(failing, { maxAttempts: 1 });
    await cycleSecret(testDb.db, { partnerId: s.org.partner.id });
    await created(s);
    const missing = await receiver(() => ({ status: 404 }));
    const m = await setup(missing, { maxAttempts: 1 });
    await cycleSecret(testDb.db, { partnerId: m.org.partner.id });
    await created(m);
    const wrong = await receiver(() => ({ status: 200, signWith: "22222222-2222-4222-8222-222222222222" }));
    const t = await setup(wrong, { maxAttempts: 1 });
    await created(t);
    const refusing = await receiver(() => ({ status: 401 }));
    const r = await setup(refusing, { maxAttempts: 1 });
    await created(r);
    await drainWebhooks(testDb.db);
    expect(failing.requests).toHaveLength(1);
    expect(missing.requests).toHaveLength(1);
    expect(wrong.requests).toHaveLength(1);
    expect(refusing.requests).toHaveLength(1);
  });
});

describe("without an active secret", () => {
  it("fails the delivery before any request", async () => {
    const target = await receiver();
    const s = await setup(target);
    const [active] = await listSecrets(testDb.db, { partnerId: s.org.partner.id });
    await deactivateSecret(testDb.db, { partnerId: s.org.partner.id }, active!.id);
    await created(s);
    await drainWebhooks(testDb.db);
    expect(target.requests).toHaveLength(0);
    const [delivery] = await deliveriesOf(testDb.db, s.endpointId);
    expect(delivery).toMatchObject({ status: "failed", attemptCount: 0, lastError: "No active signing secret: the delivery was not sent" });
    expect(delivery!.attempts).toEqual([]);
  });
});

describe("earlier protocol", () => {
  async function legacySetup(target: TestReceiver, events = ["breach.new", "email.added"]) {
    const org = await createTestOrg(testDb.db);
    const customer = await createTestCustomer(testDb.db, org.partner.id, { emails: ["a@acme.example", "b@acme.example"] });
    const { endpoint, secret } = await createEndpoint(testDb.db, { partnerId: org.partner.id }, "legacy", {
      url: target.url,
      eventTypes: events,
    });
    return { org, customer, endpointId: endpoint.id, secret };
  }

  it("sends X-Service-Event and X-Service-Signature over {event, data, created_at}", async () => {
    const target = await receiver(() => ({ status: 200 }));
    const s = await legacySetup(target);
    const found = breach("LinkedIn-2024", ["a@acme.example"]);
    await recordTestEvent(testDb.db, s.customer, "customer.breach.found", { breaches: [found] });
    await drainWebhooks(testDb.db);

    expect(target.requests).toHaveLength(1);
    const request = target.requests[0]!;
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers["x-service-event"]).toBe("breach.new");
    expect(request.headers["x-service-signature"]).toBe(`sha256=${hmacHex(s.secret, request.body)}`);
    expect(request.headers["x-signature"]).toBeUndefined();
    const body = JSON.parse(request.body);
    expect(Object.keys(body)).toEqual(["event", "data", "created_at"]);
    const [delivery] = await deliveriesOf(testDb.db, s.endpointId);
    expect(body).toEqual({
      event: "breach.new",
      data: {
        customer_uuid: s.customer.id,
        breaches_found: 1,
        new_breach_names: ["LinkedIn-2024"],
        emails_scanned: 2,
        timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      },
      created_at: delivery!.createdAt.toISOString(),
    });
    expect(delivery!.status).toBe("delivered");
  });

  it("names the two headers with WEBHOOK_LEGACY_HEADER_PREFIX when a deployment sets it", async () => {
    vi.stubEnv("WEBHOOK_LEGACY_HEADER_PREFIX", "X-SafeWeb");
    const target = await receiver(() => ({ status: 200 }));
    const s = await legacySetup(target);
    await recordTestEvent(testDb.db, s.customer, "customer.breach.found", { breaches: [breach("Adobe", ["a@acme.example"])] });
    await drainWebhooks(testDb.db);
    const request = target.requests[0]!;
    expect(request.headers["x-safeweb-event"]).toBe("breach.new");
    expect(request.headers["x-safeweb-signature"]).toBe(`sha256=${hmacHex(s.secret, request.body)}`);
    expect(request.headers["x-service-event"]).toBeUndefined();
    expect(request.headers["x-service-signature"]).toBeUndefined();
  });

  it("retries a failure 3 times (4 attempts), then fails", async () => {
    const target = await receiver(() => ({ status: 500 }));
    const s = await legacySetup(target);
    await recordTestEvent(testDb.db, s.customer, "customer.asset.added", {
      assets: [{ uuid: crypto.randomUUID(), type: "email", value: "c@acme.example" }],
    });
    await drainWebhooks(testDb.db);
    expect(target.requests).toHaveLength(4);
    expect(target.requests.every((r) => r.headers["x-service-event"] === "email.added")).toBe(true);
    expect((await deliveriesOf(testDb.db, s.endpointId))[0]).toMatchObject({ status: "failed", attemptCount: 4, lastError: "HTTP 500" });
  });

  it("times out after 2 s", async () => {
    const target = await receiver((_request, index) => (index === 0 ? { status: 200, delayMs: 2_500 } : { status: 200 }));
    const s = await legacySetup(target);
    await recordTestEvent(testDb.db, s.customer, "customer.breach.found", { breaches: [breach("Adobe", ["a@acme.example"])] });
    await drainWebhooks(testDb.db);
    const [delivery] = await deliveriesOf(testDb.db, s.endpointId);
    expect(delivery!.status).toBe("delivered");
    expect(delivery!.attempts.map((a) => a.error)).toEqual(["Timed out after 2000 ms", null]);
  });
});

describe("an endpoint that keeps failing", () => {
  it("is disabled after 20 failed deliveries in a row, with the reason recorded", async () => {
    const target = await receiver(() => ({ status: 500 }));
    const s = await setup(target, { maxAttempts: 1 });
    for (let i = 0; i < 20; i++) await created(s);
    await drainWebhooks(testDb.db);
    expect(target.requests).toHaveLength(20);
    const endpoint = await testDb.db.webhookEndpoint.findUniqueOrThrow({ where: { id: s.endpointId } });
    expect(endpoint).toMatchObject({
      enabled: false,
      consecutiveFailures: 20,
      disabledReason: "Disabled after 20 failed deliveries in a row; last error: HTTP 500",
    });
    expect(endpoint.disabledAt).toBeInstanceOf(Date);

    await created(s);
    await drainWebhooks(testDb.db);
    expect(target.requests).toHaveLength(20);
    // the event is kept, failed without a request, for a recover once the endpoint is enabled again
    const deliveries = await deliveriesOf(testDb.db, s.endpointId);
    expect(deliveries).toHaveLength(21);
    expect(deliveries[20]).toMatchObject({
      status: "failed",
      attemptCount: 0,
      lastError: "Endpoint is disabled: the delivery was not sent",
    });
  });

  it("starts counting again after a delivered one", async () => {
    let token = "";
    const target = await receiver((_request, index) => (index === 5 ? { status: 200, signWith: token } : { status: 500 }));
    const s = await setup(target, { maxAttempts: 1 });
    token = s.token;
    for (let i = 0; i < 8; i++) {
      await created(s);
      await drainWebhooks(testDb.db);
    }
    const endpoint = await testDb.db.webhookEndpoint.findUniqueOrThrow({ where: { id: s.endpointId } });
    expect(endpoint).toMatchObject({ enabled: true, consecutiveFailures: 2 });
  });
});
