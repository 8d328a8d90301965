import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { purgeOldWebhookRecords, WEBHOOK_LOG_RETENTION_DAYS } from "../../server/webhooks/retention";
import { routePendingEvents } from "../../server/webhooks/routing";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createEndpointFixture, recordTestEvent } from "../helpers/webhook-fixtures";

let testDb: TestDatabase;
beforeAll(async () => {
  testDb = await createTestDatabase();
});
afterAll(async () => {
  await testDb?.close();
});

it("deletes finished deliveries and routed events past the retention period, and nothing else", async () => {
  vi.stubEnv("WEBHOOK_ALLOW_PRIVATE_URLS", "true");
  const { org, customer, endpointId } = await createEndpointFixture(testDb.db, "http://127.0.0.1:9/hook", {
    customer: { emails: ["a@acme.example"] },
  });
  const eventIds: string[] = [];
  for (let i = 0; i < 5; i++) eventIds.push(await recordTestEvent(testDb.db, customer, "customer.created", {}));
  const unroutedOld = await recordTestEvent(testDb.db, customer, "customer.created", {});
  while ((await routePendingEvents(testDb.db)).events > 0);

  const now = new Date();
  const old = new Date(now.getTime() - (WEBHOOK_LOG_RETENTION_DAYS + 1) * 86_400_000);
  const recent = new Date(now.getTime() - (WEBHOOK_LOG_RETENTION_DAYS - 1) * 86_400_000);
  const deliveries = await testDb.db.webhookDelivery.findMany({ where: { endpointId }, orderBy: { sequence: "asc" } });
  const [oldDelivered, oldFailed, oldPending, recentDelivered, recentFailed] = deliveries;
  const setDelivery = (id: string, status: "delivered" | "failed" | "pending", createdAt: Date) =>
    testDb.db.webhookDelivery.update({ where: { id }, data: { status, createdAt } });
  await setDelivery(oldDelivered!.id, "delivered", old);
  await setDelivery(oldFailed!.id, "failed", old);
  await setDelivery(oldPending!.id, "pending", old);
  await setDelivery(recentDelivered!.id, "delivered", recent);
  await setDelivery(recentFailed!.id, "failed", recent);
  await testDb.db.outboxEvent.updateMany({ where: { id: { in: eventIds.slice(0, 3) } }, data: { routedAt: old } });
  await testDb.db.outboxEvent.updateMany({ where: { id: { in: eventIds.slice(3) } }, data: { routedAt: recent } });
  await testDb.db.outboxEvent.update({ where: { id: unroutedOld }, data: { routedAt: null, createdAt: old } });

  expect(await purgeOldWebhookRecords(testDb.db, now)).toEqual({ deliveries: 2, events: 3 });
  const left = await testDb.db.webhookDelivery.findMany({ where: { endpointId }, select: { id: true } });
  expect(left.map((row) => row.id).sort()).toEqual(
    [oldPending!.id, recentDelivered!.id, recentFailed!.id, ...deliveries.slice(5).map((d) => d.id)].sort(),
  );
  const events = await testDb.db.outboxEvent.findMany({ where: { partnerId: org.partner.id }, select: { id: true } });
  expect(events.map((row) => row.id).sort()).toEqual([...eventIds.slice(3), unroutedOld].sort());
  expect(await purgeOldWebhookRecords(testDb.db, now)).toEqual({ deliveries: 0, events: 0 });
});
