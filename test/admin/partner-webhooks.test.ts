import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { UiSession } from "../../server/api/ui/session";
import { createPartner } from "../../server/distributors/partners";
import { createEndpoint } from "../../server/webhooks/endpoints";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { clientError, createStaffSession, startUiServer, uiCallerAs } from "../helpers/ui";
import { createTestCustomer, deliveriesOf, drainWebhooks, recordTestEvent, type TestCustomer } from "../helpers/webhook-fixtures";
import { startReceiver, type TestReceiver } from "../helpers/webhook-receiver";

/**
 * The admin UI's webhook procedures for a distributor's staff: their own endpoints and their
 * partners' (both protocols), with health, delivery log, retry and recover on the partner's
 * behalf; never another distributor's partner's endpoint (docs/admin-ui.md).
 */
let testDb: TestDatabase;
let ui: Awaited<ReturnType<typeof startUiServer>>;
let receiver: TestReceiver;
let answer = 503;
let orgX: TestOrg;
let orgY: TestOrg;
let staffX: UiSession;
let customerX: TestCustomer;
const ids = { xOwn: "", xCurrent: "", xLegacy: "", xOther: "", yPartner: "", yOwn: "" };

beforeAll(async () => {
  vi.stubEnv("WEBHOOK_ALLOW_PRIVATE_URLS", "true");
  vi.stubEnv("WEBHOOK_RETRY_BASE_MS", "0");
  testDb = await createTestDatabase();
  ui = await startUiServer(testDb.db);
  // The earlier protocol counts any 2xx as delivered; the current one would also need a signed answer.
  receiver = await startReceiver(() => ({ status: answer }));
  orgX = await createTestOrg(testDb.db, "X");
  orgY = await createTestOrg(testDb.db, "Y");
  staffX = await createStaffSession(testDb.db, orgX.distributor.id);
  const otherPartner = await createPartner(testDb.db, { distributorId: orgX.distributor.id, name: "A second partner" });
  const endpoint = async (owner: { partnerId: string } | { distributorId: string }, protocol: "current" | "legacy" = "current") =>
    (
      await createEndpoint(testDb.db, owner, protocol, {
        url: receiver.url,
        eventTypes: protocol === "legacy" ? ["breach.new", "email.added"] : ["customer.created"],
        maxAttempts: 1,
      })
    ).endpoint.id;
  ids.xOwn = await endpoint({ distributorId: orgX.distributor.id });
  ids.xCurrent = await endpoint({ partnerId: orgX.partner.id });
  ids.xLegacy = await endpoint({ partnerId: orgX.partner.id }, "legacy");
  ids.xOther = await endpoint({ partnerId: otherPartner.id });
  ids.yPartner = await endpoint({ partnerId: orgY.partner.id }, "legacy");
  ids.yOwn = await endpoint({ distributorId: orgY.distributor.id });
  customerX = await createTestCustomer(testDb.db, orgX.partner.id, { emails: ["a@acme.example"] });
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await receiver?.close();
  await ui?.close();
  await testDb?.close();
});

const asX = () => uiCallerAs(testDb.db, staffX).admin.webhooks;

/** An e-mail added to X's customer: an event for X's partner's earlier-protocol endpoint (and none for Y's). */
async function emailAdded(status: number) {
  answer = status;
  await recordTestEvent(testDb.db, customerX, "customer.asset.added", {
    assets: [{ uuid: crypto.randomUUID(), type: "email", value: `${crypto.randomUUID()}@acme.example` }],
  });
  await drainWebhooks(testDb.db);
}

describe("staff see their partners' endpoints with their health", () => {
  it("lists the distributor's own endpoints, and its partners' of both protocols by partner, never Y's", async () => {
    expect((await asX().list()).map((endpoint) => [endpoint.id, endpoint.owner.kind, endpoint.health.state])).toEqual([
      [ids.xOwn, "distributor", "healthy"],
    ]);
    const { endpoints, pagination } = await asX().partnerEndpoints({});
    expect(pagination).toEqual({ totalCount: 3, page: 1, pageSize: 50, hasNextPage: false });
    expect(
      endpoints.map((endpoint) => [endpoint.owner.kind === "partner" ? endpoint.owner.partnerName : "", endpoint.protocol, endpoint.id]),
    ).toEqual([
      ["A second partner", "current", ids.xOther],
      ["X partner", "legacy", ids.xLegacy],
      ["X partner", "current", ids.xCurrent],
    ]);
  });

  it("shows each endpoint's health as the delivery engine leaves it: failing since, failures in a row, last success, disabled and why", async () => {
    await emailAdded(200);
    await emailAdded(503);
    const row = await testDb.db.webhookEndpoint.findUniqueOrThrow({ where: { id: ids.xLegacy } });
    const shown = await asX().endpoint({ id: ids.xLegacy });
    expect(shown).toMatchObject({
      id: ids.xLegacy,
      protocol: "legacy",
      url: receiver.url,
      owner: { kind: "partner", partnerId: orgX.partner.id, partnerName: "X partner" },
      health: {
        state: row.failingSince ? "failing" : "healthy",
        enabled: true,
        consecutiveFailures: row.consecutiveFailures,
        lastSuccessAt: row.lastSuccessAt?.toISOString() ?? null,
        failingSince: row.failingSince?.toISOString() ?? null,
        disabledKind: null,
      },
    });
    expect(row.consecutiveFailures).toBe(1);
    const failed = (await deliveriesOf(testDb.db, ids.xLegacy)).find((delivery) => delivery.status === "failed")!;
    expect(shown.oldestFailedAt).toBe(failed.createdAt.toISOString());

    const disabledAt = new Date();
    await testDb.db.webhookEndpoint.update({
      where: { id: ids.xOther },
      data: {
        enabled: false,
        disabledKind: "gone",
        disabledReason: "Disabled because the receiver answered 410 Gone: HTTP 410",
        disabledAt,
      },
    });
    expect((await asX().endpoint({ id: ids.xOther })).health).toMatchObject({
      state: "disabled",
      disabledKind: "gone",
      disabledReason: "Disabled because the receiver answered 410 Gone: HTTP 410",
      disabledAt: disabledAt.toISOString(),
    });
    // A failing run as the engine records it (no event of this test reaches this endpoint).
    const failingSince = new Date();
    await testDb.db.webhookEndpoint.update({ where: { id: ids.xCurrent }, data: { failingSince, consecutiveFailures: 3 } });
    expect((await asX().endpoint({ id: ids.xCurrent })).health).toMatchObject({
      state: "failing",
      consecutiveFailures: 3,
      failingSince: failingSince.toISOString(),
    });

    const inState = async (state: "healthy" | "failing" | "disabled") =>
      (await asX().partnerEndpoints({ state })).endpoints.map((endpoint) => endpoint.id);
    expect(await inState("disabled")).toEqual([ids.xOther]);
    expect(await inState("failing")).toContain(ids.xCurrent);
    expect([...(await inState("failing")), ...(await inState("healthy"))].sort()).toEqual([ids.xCurrent, ids.xLegacy].sort());
  });
});

describe("on a partner's behalf", () => {
  it("reads the delivery log, re-queues one delivery and recovers the failed ones of a window", async () => {
    await emailAdded(503);
    await emailAdded(503);
    const log = await asX().deliveries({ id: ids.xLegacy, status: "failed" });
    expect(log.pagination.totalCount).toBe(3);
    // The earlier protocol's four attempts, every one answered 503.
    expect(log.deliveries[0]!.attempts.map((attempt) => attempt.statusCode)).toEqual([503, 503, 503, 503]);

    answer = 200;
    const retried = await asX().requeueDelivery({ id: ids.xLegacy, deliveryId: log.deliveries[0]!.id });
    expect(retried).toMatchObject({ id: log.deliveries[0]!.id, status: "pending" });
    await drainWebhooks(testDb.db);
    expect((await asX().deliveries({ id: ids.xLegacy, status: "failed" })).pagination.totalCount).toBe(2);

    const oldest = log.deliveries.at(-1)!;
    const { queued } = await asX().recover({
      id: ids.xLegacy,
      since: oldest.createdAt,
      until: new Date(Date.now() + 60_000).toISOString(),
    });
    expect(queued).toBe(2);
    await drainWebhooks(testDb.db);
    expect((await asX().deliveries({ id: ids.xLegacy, status: "failed" })).pagination.totalCount).toBe(0);
    expect((await asX().endpoint({ id: ids.xLegacy })).health).toMatchObject({
      state: "healthy",
      consecutiveFailures: 0,
      failingSince: null,
    });
  });

  it("refuses a recover without a valid window, or for a disabled endpoint, with the API's messages", async () => {
    const client = ui.clientAs(staffX).admin.webhooks;
    const missing = await clientError(client.recover.mutate({ id: ids.xLegacy } as never));
    const fieldErrors = (error: typeof missing) => (error.data as { fieldErrors?: Record<string, string> }).fieldErrors;
    expect({ status: missing.data?.httpStatus, fields: fieldErrors(missing) }).toEqual({
      status: 400,
      fields: { since: "since is required" },
    });
    const malformed = await clientError(client.recover.mutate({ id: ids.xLegacy, since: "yesterday" }));
    expect(fieldErrors(malformed)).toEqual({ since: "since must be an ISO 8601 date-time" });
    const disabled = await clientError(client.recover.mutate({ id: ids.xOther, since: "2026-01-01T00:00:00Z" }));
    expect({ message: disabled.message, status: disabled.data?.httpStatus }).toEqual({
      message: "Webhook is disabled: enable it before recovering deliveries",
      status: 409,
    });
  });
});

describe("scoping: X's staff never reach Y's endpoints, its own or its partners'", () => {
  it("every endpoint procedure answers Webhook not found, and nothing changes", async () => {
    const yDelivery = await testDb.db.webhookDelivery.create({
      data: {
        endpointId: ids.yPartner,
        idempotencyToken: crypto.randomUUID(),
        eventType: "breach.new",
        body: "{}",
        status: "failed",
        maxAttempts: 4,
        createdAt: new Date(),
      },
    });
    for (const id of [ids.yPartner, ids.yOwn]) {
      const calls = [
        () => asX().endpoint({ id }),
        () => asX().deliveries({ id }),
        () => asX().requeueDelivery({ id, deliveryId: yDelivery.id }),
        () => asX().recover({ id, since: "2026-01-01T00:00:00Z" }),
        () => asX().get({ id }),
        () => asX().update({ id, enabled: false }),
        () => asX().sendTest({ id }),
        () => asX().delete({ id }),
      ];
      for (const call of calls) await expect(call()).rejects.toMatchObject({ message: "Webhook not found", cause: { code: "NOT_FOUND" } });
    }
    // Y's delivery cannot be reached through X's own partner's endpoint either.
    await expect(asX().requeueDelivery({ id: ids.xLegacy, deliveryId: yDelivery.id })).rejects.toThrow("Delivery not found");
    expect((await testDb.db.webhookDelivery.findUniqueOrThrow({ where: { id: yDelivery.id } })).status).toBe("failed");
    expect(await testDb.db.webhookEndpoint.count({ where: { id: { in: [ids.yPartner, ids.yOwn] }, enabled: true } })).toBe(2);

    const listed = [...(await asX().list()), ...(await asX().partnerEndpoints({})).endpoints].map((endpoint) => endpoint.id);
    expect(listed).not.toContain(ids.yPartner);
    expect(listed).not.toContain(ids.yOwn);

    // Over HTTP too, and a malformed id is a 400.
    const overHttp = await clientError(ui.clientAs(staffX).admin.webhooks.endpoint.query({ id: ids.yPartner }));
    expect({ message: overHttp.message, status: overHttp.data?.httpStatus }).toEqual({ message: "Webhook not found", status: 404 });
    await expect(asX().endpoint({ id: "not-a-uuid" })).rejects.toThrow("Invalid webhook ID");
  });

  it("a partner's endpoint is read-only here: settings, test events and deletion stay with the partner", async () => {
    for (const call of [
      () => asX().get({ id: ids.xCurrent }),
      () => asX().update({ id: ids.xCurrent, enabled: false }),
      () => asX().sendTest({ id: ids.xCurrent }),
      () => asX().delete({ id: ids.xCurrent }),
    ]) {
      await expect(call()).rejects.toThrow("Webhook not found");
    }
    expect(await testDb.db.webhookEndpoint.count({ where: { id: ids.xCurrent, enabled: true } })).toBe(1);
  });
});
