import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { GET as getOpenApiDocument } from "../../app/api/openapi.json/route";
import { deliverDueBatch } from "../../server/webhooks/delivery-engine/batch";
import { routePendingEvents } from "../../server/webhooks/routing";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { serveOnLoopback } from "../helpers/http";
import { restTestBed } from "../helpers/rest";
import { breach, createTestCustomer, drainWebhooks, recordTestEvent, type TestCustomer } from "../helpers/webhook-fixtures";
import { hmacHex, startReceiver, type TestReceiver } from "../helpers/webhook-receiver";

/** POST /{id}/recover on the three webhook surfaces (docs/webhooks.md, "Recovering failed deliveries"). */
const { testDb, server } = restTestBed();
let target: TestReceiver;
let org: TestOrg;
let customer: TestCustomer;
let token = "";
let answer: "ok" | "fail" = "ok";

const V1 = "/api/v1/integrations/webhooks";
const LEGACY = "/api/integrations/webhooks";
const DISTRIBUTOR = "/api/v1/distributors/webhooks";

beforeAll(async () => {
  target = await startReceiver(() => (answer === "ok" ? { status: 200, signWith: token } : { status: 503 }));
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

/** Creation times are milliseconds: a few of them keep the window's edges apart. */
const pause = () => new Promise((resolve) => setTimeout(resolve, 5));

async function createV1(body: Record<string, unknown> = {}, headers = org.partner.headers, base = V1) {
  const res = await server.api.post(base, { url: target.url, eventTypes: ["customer.created"], maxAttempts: 1, ...body }, headers);
  expect(res.status).toBe(200);
  token = res.body.webhook.secret;
  return res.body.webhook.id as string;
}

/** Records one customer.created event and drives it to its outcome with the receiver answering as `outcome` says. */
async function eventWith(outcome: "ok" | "fail"): Promise<string> {
  answer = outcome;
  const idempotencyToken = await recordTestEvent(testDb.db, customer, "customer.created", {});
  await drainWebhooks(testDb.db);
  return idempotencyToken;
}

type LoggedDelivery = {
  idempotencyToken: string;
  status: string;
  test: boolean;
  attempts: unknown[];
  error: string | null;
  nextAttemptAt: string | null;
};

async function logOf(id: string, base = V1, headers = org.partner.headers): Promise<Map<string, LoggedDelivery>> {
  const res = await server.api.get(`${base}/${id}/deliveries?pageSize=100`, headers);
  expect(res.status).toBe(200);
  return new Map(res.body.deliveries.map((d: LoggedDelivery) => [d.idempotencyToken, d]));
}

const tokensReceived = (from: number) => target.requests.slice(from).map((request) => JSON.parse(request.body).idempotencyToken as string);

describe("POST /{id}/recover", () => {
  it("re-queues the failed deliveries created in the window, with a fresh round, oldest first, and they are delivered", async () => {
    const id = await createV1();
    const before = await eventWith("fail");
    await pause();
    const since = new Date();
    const first = await eventWith("fail");
    const delivered = await eventWith("ok");
    const second = await eventWith("fail");
    answer = "fail";
    const test = (await server.api.post(`${V1}/${id}/test`, undefined, org.partner.headers)).body.delivery.idempotencyToken as string;
    await drainWebhooks(testDb.db);
    await pause();
    const until = new Date();
    await pause();
    const after = await eventWith("fail");
    const logged = await logOf(id);
    expect([before, first, second, test, after].map((t) => logged.get(t)!.status)).toEqual([
      "failed",
      "failed",
      "failed",
      "failed",
      "failed",
    ]);
    // the endpoint's current maxAttempts applies to the new round
    expect((await server.api.patch(`${V1}/${id}`, { maxAttempts: 3 }, org.partner.headers)).status).toBe(200);

    const res = await server.api.post(
      `${V1}/${id}/recover`,
      { since: since.toISOString(), until: until.toISOString() },
      org.partner.headers,
    );
    expect(res).toMatchObject({ status: 200, body: { success: true, queued: 2 } });
    expect(res.body).toEqual({ success: true, queued: 2 });

    const requeued = await logOf(id);
    for (const token of [first, second]) {
      expect(requeued.get(token)).toMatchObject({ status: "pending", error: null, nextAttemptAt: expect.any(String) });
      expect(requeued.get(token)!.attempts).toHaveLength(1); // the earlier round stays in the log
    }
    expect([before, delivered, test, after].map((t) => requeued.get(t)!.status)).toEqual(["failed", "delivered", "failed", "failed"]);
    const rows = await testDb.db.webhookDelivery.findMany({
      where: { endpointId: id, status: "pending" },
      select: { attemptCount: true, maxAttempts: true, fallbackUsed: true, deliveredAt: true },
    });
    expect(rows).toEqual([
      { attemptCount: 0, maxAttempts: 3, fallbackUsed: false, deliveredAt: null },
      { attemptCount: 0, maxAttempts: 3, fallbackUsed: false, deliveredAt: null },
    ]);
    // queued already: nothing left to recover in that window
    expect(
      (await server.api.post(`${V1}/${id}/recover`, { since: since.toISOString(), until: until.toISOString() }, org.partner.headers)).body,
    ).toEqual({ success: true, queued: 0 });

    // oldest first: one claim at a time
    answer = "ok";
    const sent = target.requests.length;
    expect(await deliverDueBatch(testDb.db, { limit: 1 })).toBe(1);
    expect(await deliverDueBatch(testDb.db, { limit: 1 })).toBe(1);
    expect(await deliverDueBatch(testDb.db, { limit: 1 })).toBe(0);
    expect(tokensReceived(sent)).toEqual([first, second]);
    const done = await logOf(id);
    expect([first, second].map((t) => done.get(t)!.status)).toEqual(["delivered", "delivered"]);
    expect([before, test, after].map((t) => done.get(t)!.status)).toEqual(["failed", "failed", "failed"]);
  });

  it("takes until as now when it is left out", async () => {
    const id = await createV1();
    const since = new Date();
    const older = await eventWith("fail");
    const newest = await eventWith("fail");
    const res = await server.api.post(`${V1}/${id}/recover`, { since: since.toISOString() }, org.partner.headers);
    expect(res).toMatchObject({ status: 200, body: { success: true, queued: 2 } });
    answer = "ok";
    const sent = target.requests.length;
    await drainWebhooks(testDb.db);
    expect(tokensReceived(sent).sort()).toEqual([older, newest].sort());
    expect([...(await logOf(id)).values()].map((d) => d.status)).toEqual(["delivered", "delivered"]);
  });

  it("leaves pending deliveries alone and gives each recovered one a full round", async () => {
    const id = await createV1({ maxAttempts: 2 });
    const since = new Date();
    const failed = await eventWith("fail");
    answer = "fail";
    const queued = await recordTestEvent(testDb.db, customer, "customer.created", {});
    await routePendingEvents(testDb.db);
    expect((await server.api.post(`${V1}/${id}/recover`, { since: since.toISOString() }, org.partner.headers)).body.queued).toBe(1);
    const log = await logOf(id);
    expect(log.get(queued)).toMatchObject({ status: "pending", attempts: [] });
    expect(log.get(failed)!.attempts).toHaveLength(2);
    // still failing: the recovered delivery is tried maxAttempts times again, then fails
    const sent = target.requests.length;
    await drainWebhooks(testDb.db);
    expect(tokensReceived(sent).filter((t) => t === failed)).toHaveLength(2);
    expect((await logOf(id)).get(failed)).toMatchObject({ status: "failed", error: "HTTP 503" });
  });

  it("works on the distributor surface and keeps each surface to its own endpoints", async () => {
    const id = await createV1({}, org.distributor.headers, DISTRIBUTOR);
    const since = new Date();
    const failed = await eventWith("fail");
    const body = { since: since.toISOString() };
    expect(await server.api.post(`${V1}/${id}/recover`, body, org.partner.headers)).toMatchObject({
      status: 404,
      body: { success: false, error: "Webhook not found" },
    });
    expect(await server.api.post(`${LEGACY}/${id}/recover`, body, org.partner.headers)).toMatchObject({
      status: 404,
      body: { success: false, error: "Webhook not found" },
    });
    expect(await server.api.post(`${DISTRIBUTOR}/${id}/recover`, body, org.distributor.headers)).toMatchObject({
      status: 200,
      body: { success: true, queued: 1 },
    });
    answer = "ok";
    const sent = target.requests.length;
    await drainWebhooks(testDb.db);
    expect(tokensReceived(sent)).toEqual([failed]);
    expect((await logOf(id, DISTRIBUTOR, org.distributor.headers)).get(failed)!.status).toBe("delivered");
  });

  it("works on the earlier-protocol surface, with its four attempts and its signature", async () => {
    const created = await server.api.post(LEGACY, { url: target.url, events: ["breach.new"] }, org.partner.headers);
    expect(created.status).toBe(200);
    const { id, secret } = created.body.webhook as { id: string; secret: string };
    const since = new Date();
    answer = "fail";
    await recordTestEvent(testDb.db, customer, "customer.breach.found", { breaches: [breach("Adobe", ["a@acme.example"])] });
    await drainWebhooks(testDb.db);
    const [failed] = (await server.api.get(`${LEGACY}/${id}/deliveries`, org.partner.headers)).body.deliveries;
    expect(failed).toMatchObject({ status: "failed", attempts: [{}, {}, {}, {}] });

    expect(await server.api.post(`${V1}/${id}/recover`, { since: since.toISOString() }, org.partner.headers)).toMatchObject({
      status: 404,
    });
    expect(await server.api.post(`${LEGACY}/${id}/recover`, { since: since.toISOString() }, org.partner.headers)).toMatchObject({
      status: 200,
      body: { success: true, queued: 1 },
    });
    expect(await testDb.db.webhookDelivery.findUniqueOrThrow({ where: { id: failed.id } })).toMatchObject({
      attemptCount: 0,
      maxAttempts: 4,
    });
    answer = "ok";
    const sent = target.requests.length;
    await drainWebhooks(testDb.db);
    const request = target.requests.at(-1)!;
    expect(target.requests.length).toBe(sent + 1);
    expect(request.headers["x-service-signature"]).toBe(`sha256=${hmacHex(secret, request.body)}`);
    expect(JSON.parse(request.body).event).toBe("breach.new");
    expect((await server.api.get(`${LEGACY}/${id}/deliveries`, org.partner.headers)).body.deliveries[0]).toMatchObject({
      id: failed.id,
      status: "delivered",
    });
  });

  it("answers 400 for a malformed id and 404 for another organization's or an unknown endpoint", async () => {
    const id = await createV1();
    const failed = await eventWith("fail");
    const body = { since: new Date(0).toISOString() };
    expect(await server.api.post(`${V1}/not-a-uuid/recover`, body, org.partner.headers)).toMatchObject({
      status: 400,
      body: { success: false, error: "Invalid webhook ID" },
    });
    expect(await server.api.post(`${V1}/${crypto.randomUUID()}/recover`, body, org.partner.headers)).toMatchObject({
      status: 404,
      body: { success: false, error: "Webhook not found" },
    });
    const other = await createTestOrg(testDb.db);
    expect(await server.api.post(`${V1}/${id}/recover`, body, other.partner.headers)).toMatchObject({
      status: 404,
      body: { success: false, error: "Webhook not found" },
    });
    expect(await server.api.post(`${DISTRIBUTOR}/${id}/recover`, body, other.distributor.headers)).toMatchObject({
      status: 404,
      body: { success: false, error: "Webhook not found" },
    });
    // the partner's own distributor does not own the partner's endpoint either
    expect(await server.api.post(`${DISTRIBUTOR}/${id}/recover`, body, org.distributor.headers)).toMatchObject({
      status: 404,
      body: { success: false, error: "Webhook not found" },
    });
    expect((await logOf(id)).get(failed)!.status).toBe("failed");
  });

  it("asks for a disabled endpoint to be enabled first", async () => {
    const id = await createV1();
    const failed = await eventWith("fail");
    await server.api.patch(`${V1}/${id}`, { enabled: false }, org.partner.headers);
    const body = { since: new Date(0).toISOString() };
    expect(await server.api.post(`${V1}/${id}/recover`, body, org.partner.headers)).toEqual(
      expect.objectContaining({
        status: 409,
        body: { success: false, error: "Webhook is disabled: enable it before recovering deliveries" },
      }),
    );
    expect((await logOf(id)).get(failed)!.status).toBe("failed");
    await server.api.patch(`${V1}/${id}`, { enabled: true }, org.partner.headers);
    expect((await server.api.post(`${V1}/${id}/recover`, body, org.partner.headers)).body).toEqual({ success: true, queued: 1 });
  });

  it("sends, once re-enabled, the events that happened while the endpoint was disabled", async () => {
    const id = await createV1();
    await server.api.patch(`${V1}/${id}`, { enabled: false }, org.partner.headers);
    const since = new Date();
    const whileOff = [await eventWith("ok"), await eventWith("ok")];
    const requestsBefore = target.requests.length;
    expect([...(await logOf(id)).values()].map((d) => [d.status, d.error])).toEqual([
      ["failed", "Endpoint is disabled: the delivery was not sent"],
      ["failed", "Endpoint is disabled: the delivery was not sent"],
    ]);
    await server.api.patch(`${V1}/${id}`, { enabled: true }, org.partner.headers);
    expect((await server.api.post(`${V1}/${id}/recover`, { since: since.toISOString() }, org.partner.headers)).body).toEqual({
      success: true,
      queued: 2,
    });
    answer = "ok";
    await drainWebhooks(testDb.db);
    // sent side by side in one batch: both arrive, in either order
    expect(tokensReceived(requestsBefore).sort()).toEqual([...whileOff].sort());
  });

  it.each([
    ["no body", undefined, "since is required"],
    ["no since", { until: "2026-11-25T10:00:00Z" }, "since is required"],
    ["since: null", { since: null }, "since must be an ISO 8601 date-time"],
    ["a date without a time", { since: "2026-11-25" }, "since must be an ISO 8601 date-time"],
    ["a time without an offset", { since: "2026-11-25T10:00:00" }, "since must be an ISO 8601 date-time"],
    ["words", { since: "yesterday" }, "since must be an ISO 8601 date-time"],
    ["a number", { since: 1764064800000 }, "since must be an ISO 8601 date-time"],
    ["month 13", { since: "2026-13-01T00:00:00Z" }, "since must be an ISO 8601 date-time"],
    ["a malformed until", { since: "2026-11-25T10:00:00Z", until: "soon" }, "until must be an ISO 8601 date-time"],
    ["until before since", { since: "2026-11-25T10:00:00Z", until: "2026-11-25T11:59:59+02:00" }, "until must not be before since"],
  ])("answers 400 for %s and changes nothing", async (_case, body, message) => {
    const id = await createV1();
    const failed = await eventWith("fail");
    expect(await server.api.post(`${V1}/${id}/recover`, body, org.partner.headers)).toEqual(
      expect.objectContaining({ status: 400, body: { success: false, error: message } }),
    );
    expect((await logOf(id)).get(failed)!.status).toBe("failed");
  });

  it("reads date-times with an offset, with or without fractions of a second", async () => {
    const id = await createV1();
    await eventWith("fail");
    const [{ createdAt }] = (await server.api.get(`${V1}/${id}/deliveries`, org.partner.headers)).body.deliveries;
    const created = new Date(createdAt).getTime();
    // the same instant written at +02:00, whole seconds
    const atPlusTwo = (ms: number) => new Date(Math.floor(ms / 1000) * 1000 + 2 * 3_600_000).toISOString().replace(/\.\d{3}Z$/, "+02:00");
    const recover = (body: object) => server.api.post(`${V1}/${id}/recover`, body, org.partner.headers);
    expect((await recover({ since: atPlusTwo(created + 1000) })).body).toEqual({ success: true, queued: 0 });
    expect((await recover({ since: new Date(created + 1).toISOString() })).body).toEqual({ success: true, queued: 0 });
    expect((await recover({ since: atPlusTwo(created - 2000), until: atPlusTwo(created - 1000) })).body).toEqual({
      success: true,
      queued: 0,
    });
    expect(
      (await recover({ since: atPlusTwo(created - 1000), until: new Date(created + 1).toISOString().replace("Z", "+00:00") })).body,
    ).toEqual({
      success: true,
      queued: 1,
    });
  });

  it("is in the OpenAPI document on all three surfaces, with its errors", async () => {
    const openapi = await serveOnLoopback(() => Promise.resolve(getOpenApiDocument()));
    try {
      const document = await (await fetch(`${openapi.baseUrl}/api/openapi.json`)).json();
      for (const base of [V1, DISTRIBUTOR, LEGACY]) {
        const operation = document.paths[`${base}/{id}/recover`]?.post;
        expect(operation, base).toBeDefined();
        const schema = operation.requestBody.content["application/json"].schema;
        expect(schema.required).toEqual(["since"]);
        expect(schema.properties.since).toMatchObject({ type: "string", format: "date-time" });
        expect(schema.properties.until).toMatchObject({ type: "string", format: "date-time" });
        expect(operation.responses["200"].content["application/json"].schema).toMatchObject({ required: ["success", "queued"] });
        expect(operation.responses["400"].description).toContain("since is required");
        expect(operation.responses["404"].description).toBe("Webhook not found");
        expect(operation.responses["409"].description).toBe("Webhook is disabled: enable it before recovering deliveries");
      }
    } finally {
      await openapi.close();
    }
  });
});

describe("POST /{id}/recover with dates outside the years 1 to 9999 (issue 39)", () => {
  it.each(["0000-01-01T00:00:00Z", "0001-01-01T00:00:00+01:00", "9999-12-31T23:00:00-02:00"])(
    "refuses since %s with 400, not 500",
    async (since) => {
      const id = await createV1();
      const res = await server.api.post(`${V1}/${id}/recover`, { since }, org.partner.headers);
      expect({ status: res.status, body: res.body }).toEqual({
        status: 400,
        body: { success: false, error: "since must be an ISO 8601 date-time" },
      });
    },
  );
});
