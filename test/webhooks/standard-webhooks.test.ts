import { Webhook, WebhookVerificationError } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { sendTestEvent } from "../../server/webhooks/delivery-log";
import { updateEndpoint } from "../../server/webhooks/endpoints";
import { cycleSecret } from "../../server/webhooks/secrets";
import { createEndpointFixture, deliveriesOf, drainWebhooks, recordTestEvent, type TestCustomer } from "../helpers/webhook-fixtures";
import { hmacHex, type ReceivedRequest, type TestReceiver } from "../helpers/webhook-receiver";
import { webhookTestBed } from "../helpers/webhook-test-bed";

/**
 * Endpoints that opted into Standard Webhooks (docs/webhooks.md): real deliveries by the real
 * engine to a real receiver, verified the way a receiver would, with the `standardwebhooks`
 * package and the secret "whsec_" + base64(token).
 */
const testDb = webhookTestBed();

const receiver = (...args: Parameters<typeof testDb.receiver>) => testDb.receiver(...args);

interface Setup {
  owner: { partnerId: string };
  customer: TestCustomer;
  endpointId: string;
  token: string;
}

async function setup(target: TestReceiver): Promise<Setup> {
  const { org, customer, endpoint, endpointId, secret } = await createEndpointFixture(testDb.db, target.url, {
    customer: { emails: ["a@acme.example"] },
    endpoint: { eventTypes: ["customer.created", "customer.deleted"], signatureScheme: "standard-webhooks" },
  });
  expect(endpoint.signatureScheme).toBe("standard-webhooks");
  return { owner: { partnerId: org.partner.id }, customer, endpointId, token: secret };
}

const receiverFor = (token: string) => new Webhook(`whsec_${Buffer.from(token, "utf8").toString("base64")}`);

/** The three headers as the package takes them. */
function standardHeaders(request: ReceivedRequest): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of ["webhook-id", "webhook-timestamp", "webhook-signature"]) {
    const value = request.headers[name];
    if (typeof value === "string") headers[name] = value;
  }
  return headers;
}

describe("Standard Webhooks (opt-in per endpoint)", () => {
  it("signs each delivery so that the standardwebhooks package verifies it with the active token", async () => {
    const target = await receiver(() => ({ status: 204 }));
    const s = await setup(target);
    const before = Math.floor(Date.now() / 1000);
    const eventId = await recordTestEvent(testDb.db, s.customer, "customer.created", {});
    await drainWebhooks(testDb.db);
    const after = Math.floor(Date.now() / 1000);

    expect(target.requests).toHaveLength(1);
    const request = target.requests[0]!;
    const [delivery] = await deliveriesOf(testDb.db, s.endpointId);
    expect(delivery).toMatchObject({ status: "delivered", attemptCount: 1, lastError: null, idempotencyToken: eventId });
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers["webhook-id"]).toBe(eventId);
    expect(Number(request.headers["webhook-timestamp"])).toBeGreaterThanOrEqual(before);
    expect(Number(request.headers["webhook-timestamp"])).toBeLessThanOrEqual(after);
    expect(request.headers["webhook-timestamp"]).toMatch(/^\d+$/);
    expect(request.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(request.headers["x-signature"]).toBeUndefined();
    expect(request.headers["x-token"]).toBeUndefined();
    // the same body as on the X-Signature scheme
    expect(request.body).toBe(delivery!.body);
    expect(JSON.parse(request.body)).toEqual({
      idempotencyToken: eventId,
      type: "customer.created",
      data: { customer: s.customer.ref },
      timestamp: delivery!.createdAt.getTime(),
    });

    expect(receiverFor(s.token).verify(request.body, standardHeaders(request))).toEqual(JSON.parse(request.body));
    expect(() => receiverFor("00000000-0000-4000-8000-000000000000").verify(request.body, standardHeaders(request))).toThrow(
      WebhookVerificationError,
    );
  });

  it("while a fallback secret exists, carries a second signature: both tokens verify, a tampered body verifies with neither", async () => {
    const target = await receiver(() => ({ status: 200 }));
    const s = await setup(target);
    const active = (await cycleSecret(testDb.db, s.owner)).token;
    const fallback = s.token;
    await recordTestEvent(testDb.db, s.customer, "customer.created", {});
    await drainWebhooks(testDb.db);

    expect(target.requests).toHaveLength(1);
    const request = target.requests[0]!;
    const headers = standardHeaders(request);
    expect(headers["webhook-signature"]!.split(" ")).toHaveLength(2);
    expect(headers["webhook-signature"]).toMatch(/^v1,\S+ v1,\S+$/);
    expect(receiverFor(active).verify(request.body, headers)).toEqual(JSON.parse(request.body));
    expect(receiverFor(fallback).verify(request.body, headers)).toEqual(JSON.parse(request.body));

    const tampered = request.body.replace(s.customer.ref.name, "Someone Else Ltd");
    expect(tampered).not.toBe(request.body);
    for (const token of [active, fallback]) {
      expect(() => receiverFor(token).verify(tampered, headers)).toThrow(WebhookVerificationError);
      expect(() => receiverFor(token).verify(request.body, { ...headers, "webhook-id": crypto.randomUUID() })).toThrow(
        WebhookVerificationError,
      );
    }
  });

  it("counts any 2xx as success, retries other answers with the same webhook-id, and sends no fallback request", async () => {
    const target = await receiver((_request, index) => (index < 2 ? { status: 500 } : { status: 202, body: "" }));
    const s = await setup(target);
    await cycleSecret(testDb.db, s.owner);
    const eventId = await recordTestEvent(testDb.db, s.customer, "customer.created", {});
    await drainWebhooks(testDb.db);

    expect(target.requests).toHaveLength(3);
    expect(target.requests.map((request) => request.headers["webhook-id"])).toEqual([eventId, eventId, eventId]);
    expect(new Set(target.requests.map((request) => request.body)).size).toBe(1);
    for (const request of target.requests) expect(receiverFor(s.token).verify(request.body, standardHeaders(request))).toBeDefined();
    const [delivery] = await deliveriesOf(testDb.db, s.endpointId);
    expect(delivery).toMatchObject({ status: "delivered", attemptCount: 3, fallbackUsed: false });
    expect(delivery!.attempts.map((attempt) => [attempt.statusCode, attempt.error, attempt.fallbackSecret])).toEqual([
      [500, "HTTP 500", false],
      [500, "HTTP 500", false],
      [202, null, false],
    ]);
  });

  it.each([401, 403])("answers a refused signature (%s) with one request signed with the fallback token alone", async (refusal) => {
    // a receiver that reads only the first signature, and still holds the previous token
    let oldToken = "";
    const target = await receiver((request) => {
      const firstOnly = { ...standardHeaders(request), "webhook-signature": standardHeaders(request)["webhook-signature"]!.split(" ")[0]! };
      try {
        receiverFor(oldToken).verify(request.body, firstOnly);
        return { status: 204 };
      } catch {
        return { status: refusal };
      }
    });
    const s = await setup(target);
    oldToken = s.token;
    const { token: newToken } = await cycleSecret(testDb.db, s.owner);
    await recordTestEvent(testDb.db, s.customer, "customer.created", {});
    await drainWebhooks(testDb.db);

    expect(target.requests).toHaveLength(2);
    const [first, second] = target.requests.map(standardHeaders);
    expect(first!["webhook-signature"]!.split(" ")).toHaveLength(2);
    expect(receiverFor(newToken).verify(target.requests[0]!.body, first!)).toBeDefined();
    expect(second!["webhook-signature"]!.split(" ")).toHaveLength(1);
    expect(receiverFor(oldToken).verify(target.requests[1]!.body, second!)).toBeDefined();
    expect(() => receiverFor(newToken).verify(target.requests[1]!.body, second!)).toThrow(WebhookVerificationError);
    const [delivery] = await deliveriesOf(testDb.db, s.endpointId);
    expect(delivery).toMatchObject({ status: "delivered", attemptCount: 1, fallbackUsed: true });
    expect(delivery!.attempts.map((attempt) => [attempt.statusCode, attempt.fallbackSecret])).toEqual([
      [refusal, false],
      [204, true],
    ]);
  });

  it("signs test events the same way", async () => {
    const target = await receiver(() => ({ status: 200 }));
    const s = await setup(target);
    const test = await sendTestEvent(testDb.db, s.owner, "current", s.endpointId, "customer.deleted");
    await drainWebhooks(testDb.db);
    expect(target.requests).toHaveLength(1);
    const request = target.requests[0]!;
    expect(request.headers["webhook-id"]).toBe(test.idempotencyToken);
    expect(receiverFor(s.token).verify(request.body, standardHeaders(request))).toMatchObject({ type: "customer.deleted" });
  });

  it("goes back to X-Signature when the endpoint is switched back", async () => {
    const target = await receiver(() => ({ status: 200 }));
    const s = await setup(target);
    target.setRule(() => ({ status: 200, signWith: s.token }));
    await updateEndpoint(testDb.db, s.owner, "current", s.endpointId, { signatureScheme: "x-signature" });
    await recordTestEvent(testDb.db, s.customer, "customer.created", {});
    await drainWebhooks(testDb.db);
    expect(target.requests).toHaveLength(1);
    const request = target.requests[0]!;
    expect(request.headers["x-signature"]).toBe(hmacHex(s.token, request.body));
    expect(request.headers["webhook-signature"]).toBeUndefined();
    expect((await deliveriesOf(testDb.db, s.endpointId))[0]!.status).toBe("delivered");
  });
});
