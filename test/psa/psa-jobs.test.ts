import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../server/db/client";
import { recordFindings } from "../../server/findings/scanner";
import { setBreachResolved } from "../../server/findings/instances";
import { mapCustomerToPsaCompany, savePsaConnection } from "../../server/psa/connections";
import { ticketKeyOf } from "../../server/psa/ticket-text";
import { createBreachTestCustomer } from "../helpers/breach-fixtures";
import { createTestBreach } from "../helpers/customers";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTestOrg } from "../helpers/fixtures";
import { runJobsUntilIdle } from "../helpers/jobs";
import { FakeConnectWise } from "../helpers/psa-fakes";

/** Through the job queue: a recorded finding and a resolved breach queue the partner's PSA sync, which the runner runs. */
const credentials = { companyId: "acme_msp", publicKey: "pub", privateKey: `priv-${randomUUID()}`, clientId: randomUUID() };
let testDb: TestDatabase;
let db: Db;
const psa = new FakeConnectWise(credentials);
const savedEnv = { ...process.env };

beforeAll(async () => {
  testDb = await createTestDatabase();
  db = testDb.db;
  await psa.start();
  process.env.WEBHOOK_ALLOW_PRIVATE_URLS = "true";
});
afterAll(async () => {
  process.env = savedEnv;
  await psa.close();
  await testDb?.close();
});

describe("the PSA sync jobs", () => {
  it("ticket a finding when the scan records it, close it when it is resolved, and leave partners without a PSA alone", async () => {
    const org = await createTestOrg(db, "PSA jobs");
    const other = await createTestOrg(db, "No PSA");
    await savePsaConnection(db, org.partner.id, { provider: "connectwise", site: psa.baseUrl, ...credentials, boardId: psa.boardId });
    const email = `eve@${randomUUID().slice(0, 8)}.example`;
    const customer = await createBreachTestCustomer(db, org.partner.id, { emails: [email] });
    const unrelated = await createBreachTestCustomer(db, other.partner.id, { emails: [`x@${randomUUID().slice(0, 8)}.example`] });
    await mapCustomerToPsaCompany(db, org.partner.id, customer.id, "250");
    await runJobsUntilIdle(db);
    const breach = await createTestBreach(db);
    await db.$transaction((tx) => recordFindings(tx, customer.id, [{ email, breachId: breach.id }], { scan: false }));
    await db.$transaction((tx) => recordFindings(tx, unrelated.id, [{ email: "x@y.example", breachId: breach.id }], { scan: false }));
    expect(await db.job.count({ where: { kind: "psa.sync", status: "pending" } })).toBe(1);
    await runJobsUntilIdle(db);
    const instance = await db.customerBreach.findFirstOrThrow({ where: { customerId: customer.id } });
    const [ticket] = psa.ticketsWithKey(ticketKeyOf(instance.id, ""));
    expect(ticket?.description).toContain(email);
    await setBreachResolved(db, org.partner.id, { breachInstanceId: instance.id, resolved: true });
    await runJobsUntilIdle(db);
    expect(psa.tickets.get(ticket!.id)!.closed).toBe(true);
    expect(psa.tickets.size).toBe(1);
    expect(await db.job.count({ where: { kind: "psa.sync-at", status: "pending" } })).toBeGreaterThanOrEqual(1);
    expect(psa.violations).toEqual([]);
  });
});
