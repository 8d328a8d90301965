import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { routePendingEvents } from "../../server/webhooks/routing";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { restTestBed } from "../helpers/rest";
import { createTestCustomer, drainWebhooks, recordTestEvent, type TestCustomer } from "../helpers/webhook-fixtures";
import { hmacHex, startReceiver, type TestReceiver } from "../helpers/webhook-receiver";

const { testDb, server } = restTestBed();
let target: TestReceiver;
let org: TestOrg;
let customer: TestCustomer;
let token = "";
let answer: "ok" | "fail" = "ok";

const V1 = "/api/v1/integrations/webhooks";
const LEGACY = "/api/integrations/webhooks";
const DISTRIBUTOR = "/api/v1/distributors/webhooks";
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

beforeAll(async () => {
  target = await startReceiver(() => (answer === "ok" ? { status: 200, signWith: token } : { status: 500 }));
});
afterAll(async () => {
  await target?.close();
});
beforeEach(async () => {
  vi.stubEnv("WEBHOOK_ALLOW_PRIVATE_URLS", "true");
  vi.stubEnv("WEBHOOK_RETRY_BASE_MS", "0");
  answer = "ok";
  org = await createTestOrg(testDb.db);
  customer = await createTestCustomer(testDb.db, org.partner.id, { emails: ["a@acme.example"] });
  return () => vi.unstubAllEnvs();
});

async function createV1(body: Record<string, unknown> = {}, headers = org.partner.headers, base = V1) {
  const res = await server.api.post(base, { url: target.url, eventTypes: ["customer.created"], maxAttempts: 1, ...body }, headers);
  expect(res.status).toBe(200);
  token = res.body.webhook.secret;
  return res.body.webhook.id as string;
}

describe("delivery log", () => {
  it("lists deliveries newest first with their attempts", async () => {
    const id = await createV1();
    const first = await recordTestEvent(testDb.db, customer, "customer.created", {});
    await drainWebhooks(testDb.db);
    answer = "fail";
    const second = await recordTestEvent(testDb.db, customer, "customer.created", {});
    await drainWebhooks(testDb.db);

    const res = await server.api.get(`${V1}/${id}/deliveries`, org.partner.headers);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      deliveries: [
        {
          id: expect.any(String),
          eventType: "customer.created",
          idempotencyToken: second,
          status: "failed",
          test: false,
          attempts: [
            { at: expect.stringMatching(ISO), statusCode: 500, durationMs: expect.any(Number), error: "HTTP 500", fallbackSecret: false },
          ],
          error: "HTTP 500",
          nextAttemptAt: null,
          createdAt: expect.stringMatching(ISO),
          deliveredAt: null,
        },
        {
          id: expect.any(String),
          eventType: "customer.created",
          idempotencyToken: first,
          status: "delivered",
          test: false,
          attempts: [
            { at: expect.stringMatching(ISO), statusCode: 200, durationMs: expect.any(Number), error: null, fallbackSecret: false },
          ],
          error: null,
          nextAttemptAt: null,
          createdAt: expect.stringMatching(ISO),
          deliveredAt: expect.stringMatching(ISO),
        },
      ],
      pagination: { totalCount: 2, page: 1, pageSize: 20, hasNextPage: false },
    });

    const page = await server.api.get(`${V1}/${id}/deliveries?page=2&pageSize=1`, org.partner.headers);
    expect(page.body.deliveries.map((d: { idempotencyToken: string }) => d.idempotencyToken)).toEqual([first]);
    expect(page.body.pagination).toEqual({ totalCount: 2, page: 2, pageSize: 1, hasNextPage: false });
    expect((await server.api.get(`${V1}/${id}/deliveries?pageSize=1`, org.partner.headers)).body.pagination.hasNextPage).toBe(true);
    const failed = await server.api.get(`${V1}/${id}/deliveries?status=failed`, org.partner.headers);
    expect(failed.body.deliveries.map((d: { idempotencyToken: string }) => d.idempotencyToken)).toEqual([second]);
  });

  it.each([
    ["page=0", "Validation failed: page: page must be at least 1"],
    ["pageSize=101", "Validation failed: pageSize: pageSize must be from 1 to 100"],
    ["page=abc", "Validation failed: page: Invalid input: expected number, received string"],
    ["status=lost", expect.stringMatching(/^Validation failed: status: /)],
  ])("refuses %s", async (query, message) => {
    const id = await createV1();
    const res = await server.api.get(`${V1}/${id}/deliveries?${query}`, org.partner.headers);
    expect(res).toMatchObject({ status: 400, body: { success: false, error: message } });
  });

  it("keeps each organization's log to itself", async () => {
    const id = await createV1();
    const other = await createTestOrg(testDb.db);
    expect(await server.api.get(`${V1}/${id}/deliveries`, other.partner.headers)).toMatchObject({
      status: 404,
      body: { error: "Webhook not found" },
    });
    expect(await server.api.get(`${LEGACY}/${id}/deliveries`, org.partner.headers)).toMatchObject({
      status: 404,
      body: { error: "Webhook not found" },
    });
  });

  it("re-queues a failed delivery with a fresh round of attempts", async () => {
    const id = await createV1();
    answer = "fail";
    await recordTestEvent(testDb.db, customer, "customer.created", {});
    await drainWebhooks(testDb.db);
    const [failed] = (await server.api.get(`${V1}/${id}/deliveries`, org.partner.headers)).body.deliveries;
    expect(failed.status).toBe("failed");

    answer = "ok";
    const retried = await server.api.post(`${V1}/${id}/deliveries/${failed.id}/retry`, undefined, org.partner.headers);
    expect(retried.status).toBe(200);
    expect(retried.body.delivery).toMatchObject({
      id: failed.id,
      status: "pending",
      error: null,
      nextAttemptAt: expect.stringMatching(ISO),
    });
    expect(retried.body.delivery.attempts).toHaveLength(1);
    // pending again, waiting for its attempt: a retry has it attempted now; being attempted, it is already queued
    expect(await server.api.post(`${V1}/${id}/deliveries/${failed.id}/retry`, undefined, org.partner.headers)).toMatchObject({
      status: 200,
      body: { delivery: { id: failed.id, status: "pending" } },
    });
    await testDb.db.webhookDelivery.update({ where: { id: failed.id }, data: { status: "delivering" } });
    expect(await server.api.post(`${V1}/${id}/deliveries/${failed.id}/retry`, undefined, org.partner.headers)).toMatchObject({
      status: 409,
      body: { success: false, error: "Delivery is already queued" },
    });
    await testDb.db.webhookDelivery.update({ where: { id: failed.id }, data: { status: "pending" } });
    const before = target.requests.length;
    await drainWebhooks(testDb.db);
    expect(target.requests.length).toBe(before + 1);
    expect(JSON.parse(target.requests.at(-1)!.body).idempotencyToken).toBe(failed.idempotencyToken);
    const [delivered] = (await server.api.get(`${V1}/${id}/deliveries`, org.partner.headers)).body.deliveries;
    expect(delivered).toMatchObject({ id: failed.id, status: "delivered" });
    expect(delivered.attempts.map((a: { statusCode: number }) => a.statusCode)).toEqual([500, 200]);
  });

  it("answers 400, 404 and 422 where a retry cannot be done", async () => {
    const id = await createV1();
    expect(await server.api.post(`${V1}/${id}/deliveries/nope/retry`, undefined, org.partner.headers)).toMatchObject({
      status: 400,
      body: { error: "Invalid delivery ID" },
    });
    expect(await server.api.post(`${V1}/${id}/deliveries/${crypto.randomUUID()}/retry`, undefined, org.partner.headers)).toMatchObject({
      status: 404,
      body: { error: "Delivery not found" },
    });
    answer = "fail";
    await recordTestEvent(testDb.db, customer, "customer.created", {});
    await drainWebhooks(testDb.db);
    const [failed] = (await server.api.get(`${V1}/${id}/deliveries`, org.partner.headers)).body.deliveries;
    await server.api.patch(`${V1}/${id}`, { enabled: false }, org.partner.headers);
    expect(await server.api.post(`${V1}/${id}/deliveries/${failed.id}/retry`, undefined, org.partner.headers)).toMatchObject({
      status: 422,
      body: { error: "Delivery cannot be retried: the webhook is disabled" },
    });
  });

  it("fails queued deliveries of an endpoint disabled meanwhile, without a request", async () => {
    const id = await createV1();
    await recordTestEvent(testDb.db, customer, "customer.created", {});
    await routePendingEvents(testDb.db);
    await server.api.patch(`${V1}/${id}`, { enabled: false }, org.partner.headers);
    const before = target.requests.length;
    await drainWebhooks(testDb.db);
    expect(target.requests.length).toBe(before);
    const [delivery] = (await server.api.get(`${V1}/${id}/deliveries`, org.partner.headers)).body.deliveries;
    expect(delivery).toMatchObject({ status: "failed", error: "Endpoint is disabled: the delivery was not sent", attempts: [] });
  });

  it("deletes the log with the endpoint", async () => {
    const id = await createV1();
    await recordTestEvent(testDb.db, customer, "customer.created", {});
    await drainWebhooks(testDb.db);
    expect(await testDb.db.webhookDelivery.count({ where: { endpointId: id } })).toBe(1);
    await server.api.delete(`${V1}/${id}`, org.partner.headers);
    expect(await testDb.db.webhookDelivery.count({ where: { endpointId: id } })).toBe(0);
    expect(await testDb.db.webhookAttempt.count({ where: { delivery: { endpointId: id } } })).toBe(0);
  });
});

describe("test events", () => {
  it("sends a signed sample of the chosen type, also to a disabled endpoint", async () => {
    const id = await createV1({ eventTypes: ["customer.created"], enabled: false });
    const res = await server.api.post(`${V1}/${id}/test`, { eventType: "customer.breach.found" }, org.partner.headers);
    expect(res.status).toBe(200);
    expect(res.body.delivery).toMatchObject({ eventType: "customer.breach.found", status: "pending", test: true, attempts: [] });
    const before = target.requests.length;
    await drainWebhooks(testDb.db);
    expect(target.requests.length).toBe(before + 1);
    const request = target.requests.at(-1)!;
    expect(request.headers["x-signature"]).toBe(hmacHex(token, request.body));
    const body = JSON.parse(request.body);
    expect(body).toMatchObject({ idempotencyToken: res.body.delivery.idempotencyToken, type: "customer.breach.found" });
    expect(body.data.breaches[0]).toEqual({ uuid: expect.any(String), name: "ExampleBreach", emails: ["jane.doe@example.com"] });
    const log = (await server.api.get(`${V1}/${id}/deliveries`, org.partner.headers)).body.deliveries;
    expect(log[0]).toMatchObject({ test: true, status: "delivered" });
    // a test does not count towards the endpoint's failures
    expect((await testDb.db.webhookEndpoint.findUniqueOrThrow({ where: { id } })).consecutiveFailures).toBe(0);
  });

  it("defaults to the first subscribed type and refuses unknown types", async () => {
    const id = await createV1({ eventTypes: ["customer.asset.removed", "customer.created"] });
    expect((await server.api.post(`${V1}/${id}/test`, undefined, org.partner.headers)).body.delivery.eventType).toBe(
      "customer.asset.removed",
    );
    const bad = await server.api.post(`${V1}/${id}/test`, { eventType: "breach.new" }, org.partner.headers);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/^Validation failed: eventType: Unknown event type; expected one of customer\.created/);
  });

  it("sends earlier-protocol samples with the earlier headers", async () => {
    const created = await server.api.post(LEGACY, { url: target.url, events: ["breach.new"] }, org.partner.headers);
    const { id, secret } = created.body.webhook;
    const res = await server.api.post(`${LEGACY}/${id}/test`, { eventType: "email.added" }, org.partner.headers);
    expect(res.body.delivery).toMatchObject({ eventType: "email.added", test: true });
    await drainWebhooks(testDb.db);
    // the receiver is shared: a sample an earlier test queued may arrive in the same round
    const request = target.requests.findLast(
      (candidate) => candidate.headers["x-service-signature"] === `sha256=${hmacHex(secret, candidate.body)}`,
    )!;
    expect(request).toBeDefined();
    expect(request.headers["x-service-event"]).toBe("email.added");
    expect(request.headers["x-service-signature"]).toBe(`sha256=${hmacHex(secret, request.body)}`);
    expect(JSON.parse(request.body).data).toMatchObject({ customer_uuid: expect.any(String), emails: ["jane.doe@example.com"] });
    expect((await server.api.get(`${LEGACY}/${id}/deliveries`, org.partner.headers)).body.deliveries[0].status).toBe("delivered");
  });

  it("works on the distributor surface", async () => {
    const id = await createV1({}, org.distributor.headers, DISTRIBUTOR);
    expect((await server.api.post(`${DISTRIBUTOR}/${id}/test`, undefined, org.distributor.headers)).status).toBe(200);
    await drainWebhooks(testDb.db);
    const log = (await server.api.get(`${DISTRIBUTOR}/${id}/deliveries`, org.distributor.headers)).body.deliveries;
    expect(log.map((d: { status: string }) => d.status)).toEqual(["delivered"]);
    expect((await server.api.get(`${V1}/${id}/deliveries`, org.partner.headers)).status).toBe(404);
  });
});

describe("addresses checked again when a request connects", () => {
  it.each([
    [
      "a name that resolves to 127.0.0.1",
      () => `https://localhost:${target.port}/hook`,
      /^Refused: localhost resolves to a non-public address \((127\.0\.0\.1|::1) is a loopback address\)$/,
    ],
    ["a loopback address", () => `https://127.0.0.1:${target.port}/hook`, /^Refused: 127\.0\.0\.1 is a loopback address$/],
    ["an http URL", () => target.url, /^Refused: URL must use https:\/\//],
  ])("refuses %s once private URLs are no longer allowed", async (_name, url, error) => {
    const id = await createV1({ url: url() });
    vi.stubEnv("WEBHOOK_ALLOW_PRIVATE_URLS", "false");
    await recordTestEvent(testDb.db, customer, "customer.created", {});
    const before = target.requests.length;
    await drainWebhooks(testDb.db);
    expect(target.requests.length).toBe(before);
    const [delivery] = (await server.api.get(`${V1}/${id}/deliveries`, org.partner.headers)).body.deliveries;
    expect(delivery.status).toBe("failed");
    expect(delivery.error).toMatch(error);
  });
});
