import { expect, test } from "@playwright/test";
import type { DemoCredentials } from "../../scripts/lib/service-process";
import { startReceiver, type TestReceiver } from "../../test/helpers/webhook-receiver";
import {
  createCustomerCreatedEndpoint,
  eventOf,
  eventually,
  onboardCustomer,
  requirePostgres,
  scratchDatabase,
  sql,
  startSeededServer,
  startServer,
  stopServersLeftRunning,
  terminate,
} from "./support";

/**
 * Graceful shutdown (docs/operations.md, "Shutdown"): a production server process gets SIGTERM
 * while a webhook request is in flight to a slow receiver. The attempt finishes and is recorded
 * once (delivered, or failed and waiting for its retry, which the next process makes), and the
 * process exits 0 within 10 s.
 */
test.describe.configure({ mode: "serial", timeout: 240_000 });

let database: Awaited<ReturnType<typeof scratchDatabase>>;
let receiver: TestReceiver;
/** The demo organization the first server created (the later ones start on its database). */
let demo: DemoCredentials;

test.beforeAll(async () => {
  if (!process.env.TEST_DATABASE_URL) return;
  database = await scratchDatabase("shutdown");
  receiver = await startReceiver();
});
test.afterEach(stopServersLeftRunning);
test.afterAll(async () => {
  await receiver?.close();
  await database?.drop();
});

interface DeliveryRow {
  status: string;
  attempt_count: number;
  next_attempt_at: Date;
  attempts: Array<{ finished: boolean; status_code: number | null; error: string | null }>;
}

async function deliveryOf(customerId: string): Promise<DeliveryRow[]> {
  return sql<DeliveryRow>(
    database.url,
    `SELECT d.status, d.attempt_count, d.next_attempt_at,
            (SELECT coalesce(json_agg(json_build_object('finished', a.finished_at IS NOT NULL, 'status_code', a.status_code, 'error', a.error)
                                      ORDER BY a.started_at), '[]')
             FROM webhook_attempts a WHERE a.delivery_id = d.id) AS attempts
     FROM webhook_deliveries d JOIN outbox_events e ON e.id = d.event_id
     WHERE e.customer_id = $1::uuid AND d.event_type = 'customer.created'`,
    [customerId],
  );
}

const requestsFor = (customerId: string) => receiver.requests.filter((request) => eventOf(request).data.customer?.uuid === customerId);

test("SIGTERM during a webhook request: the request is answered, the delivery recorded as delivered once, exit 0 within 10 s", async () => {
  requirePostgres();
  receiver.setRule(() => ({ status: 200, delayMs: 2_000 }));
  const server = await startSeededServer("shutdown-1", 3231, database.url);
  demo = server.demo;
  await createCustomerCreatedEndpoint(server.baseUrl, server.demo, receiver.url);
  const customerId = await onboardCustomer(server.baseUrl, server.demo, "SHUTDOWN-DELIVERED");
  await eventually("the webhook request", async () => (requestsFor(customerId).length > 0 ? true : undefined));

  const { code, ms } = await terminate(server);
  expect(code).toBe(0);
  expect(ms).toBeLessThan(10_000);
  expect(ms).toBeGreaterThan(1_000); // it waited for the receiver's answer

  expect(await deliveryOf(customerId)).toEqual([
    expect.objectContaining({ status: "delivered", attempt_count: 1, attempts: [{ finished: true, status_code: 200, error: null }] }),
  ]);
  expect(requestsFor(customerId)).toHaveLength(1);
});

test("SIGTERM while the receiver outlasts the request timeout: the attempt is recorded as failed, the next process delivers it", async () => {
  requirePostgres();
  // The first request for the customer gets no answer within the service's 3 s timeout; later ones at once.
  receiver.setRule((request) => ({
    status: 200,
    delayMs: requestsFor(eventOf(request).data.customer?.uuid ?? "").length === 1 ? 8_000 : 0,
  }));
  const first = await startServer("shutdown-2", 3232, database.url);
  const customerId = await onboardCustomer(first.baseUrl, demo, "SHUTDOWN-RETRIED");
  await eventually("the webhook request", async () => (requestsFor(customerId).length > 0 ? true : undefined));

  const { code, ms } = await terminate(first);
  expect(code).toBe(0);
  expect(ms).toBeLessThan(10_000);
  const [retrying] = await deliveryOf(customerId);
  expect(retrying).toMatchObject({ status: "pending", attempt_count: 1, attempts: [{ finished: true, status_code: null }] });
  expect(retrying!.attempts[0]!.error).toMatch(/timed out|timeout/i);

  const second = await startServer("shutdown-3", 3233, database.url);
  try {
    const [delivered] = await eventually("the retry", async () => {
      const rows = await deliveryOf(customerId);
      return rows[0]?.status === "delivered" ? rows : undefined;
    });
    expect(delivered).toMatchObject({
      attempt_count: 2,
      attempts: [
        { finished: true, status_code: null },
        { finished: true, status_code: 200, error: null },
      ],
    });
    expect(requestsFor(customerId)).toHaveLength(2);
  } finally {
    const stopped = await terminate(second, "SIGINT"); // Ctrl-C: the same shutdown
    expect(stopped.code).toBe(0);
    expect(stopped.ms).toBeLessThan(10_000);
  }
});
