import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertExposures } from "../../server/breaches/exposure-index/exposures";
import { transitionCustomer } from "../../server/customers/lifecycle";
import { deleteMute, muteNotices } from "../../server/customers/mutes";
import { scanCustomer } from "../../server/findings/scanner";
import { enqueueAlertDigests } from "../../server/notifications/alert-digests";
import { queueAlertDigest } from "../../server/notifications/breach-alerts";
import { claimNotices } from "../../server/notifications/quiet";
import type { BreachAlertData } from "../../server/notifications/types";
import { hibpBreach, seedExposures } from "../helpers/breach-fixtures";
import { createTestCustomer } from "../helpers/customers";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";

/**
 * Quiet by design (docs/notifications.md): one e-mail alert per (customer, mailbox, breach),
 * whatever happens to the findings, nothing for muted or inactive mailboxes, digests on request.
 * Against the test database (PostgreSQL with TEST_DATABASE_URL, else PGlite).
 */

let testDb: TestDatabase;
let org: TestOrg;
let breachIds: Map<string, string>;
const BREACHES = ["QuietA", "QuietB", "QuietC"];
const MAILBOXES = ["ceo", "it", "sales"];

beforeAll(async () => {
  testDb = await createTestDatabase();
  org = await createTestOrg(testDb.db);
  breachIds = await seedExposures(
    testDb.db,
    BREACHES.map((name, index) => hibpBreach(name, { BreachDate: `202${index}-01-01` })),
    {},
  );
});
afterAll(async () => {
  await testDb?.close();
});

async function customerWithDomain() {
  const domain = `q${randomUUID().slice(0, 8)}.example`;
  const customerId = await createTestCustomer(testDb.db, org.partner.id, {
    companyName: "Quiet Ltd",
    contactEmail: `boss@${domain}`,
    assetsDomains: [domain],
    assetsEmails: [],
    alertRecipients: [`security@${domain}`],
    localeCode: "en-GB",
  });
  return { customerId, domain, recipient: `security@${domain}` };
}

/** How many alert messages to `recipient` named each "breach email" pair. */
async function toldPairs(customerId: string, recipient: string): Promise<Map<string, number>> {
  const rows = await testDb.db.notification.findMany({ where: { customerId, kind: "breach_alert", recipient }, select: { data: true } });
  const counts = new Map<string, number>();
  for (const row of rows) {
    const data = row.data as unknown as BreachAlertData;
    if (data.redacted) continue;
    for (const breach of data.breaches) {
      for (const email of breach.emails) counts.set(`${breach.name} ${email}`, (counts.get(`${breach.name} ${email}`) ?? 0) + 1);
    }
  }
  return counts;
}

const expose = (domain: string, pairs: Array<[number, number]>) =>
  insertExposures(
    testDb.db,
    pairs.map(([mailbox, breach]) => ({ email: `${MAILBOXES[mailbox]}@${domain}`, breachId: breachIds.get(BREACHES[breach]!)! })),
  );

const step = fc.oneof(
  fc.record({ kind: fc.constant("import" as const), pairs: fc.array(fc.tuple(fc.nat(2), fc.nat(2)), { minLength: 1, maxLength: 4 }) }),
  fc.record({ kind: fc.constant("rescan" as const) }),
  fc.record({ kind: fc.constant("resync" as const), mailbox: fc.nat(2), active: fc.boolean() }),
  fc.record({ kind: fc.constant("reactivate" as const) }),
  fc.record({ kind: fc.constant("rediscover" as const), mailbox: fc.nat(2) }),
  fc.record({ kind: fc.constant("recreate" as const), breach: fc.nat(2) }),
);

describe("the quiet ledger", () => {
  it("any sequence of rescans, re-imports, re-syncs, re-discoveries and reactivations alerts once per (mailbox, breach)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), async (steps) => {
        const { customerId, domain, recipient } = await customerWithDomain();
        const exposed = new Set<string>();
        for (const action of steps) {
          if (action.kind === "import") {
            await expose(domain, action.pairs);
            for (const [mailbox, breach] of action.pairs) exposed.add(`${BREACHES[breach]} ${MAILBOXES[mailbox]}@${domain}`);
          } else if (action.kind === "resync") {
            // What a directory sync does to a user who leaves or comes back: the mailbox's asset turns inactive or active.
            await testDb.db.monitoredAsset.updateMany({
              where: { customerId, kind: "email", value: `${MAILBOXES[action.mailbox]}@${domain}` },
              data: { active: action.active, source: "directory" },
            });
          } else if (action.kind === "reactivate") {
            await transitionCustomer(testDb.db, org.partner.id, customerId, "offboard");
            await transitionCustomer(testDb.db, org.partner.id, customerId, "reactivate");
          } else if (action.kind === "rediscover") {
            await testDb.db.monitoredAsset.deleteMany({
              where: { customerId, kind: "email", value: `${MAILBOXES[action.mailbox]}@${domain}` },
            });
          } else if (action.kind === "recreate") {
            await testDb.db.customerBreach.deleteMany({ where: { customerId, breachId: breachIds.get(BREACHES[action.breach]!)! } });
          }
          await scanCustomer(testDb.db, customerId, "daily");
        }
        // Every mailbox back and one more scan: each exposed pair has been told, and only once.
        await testDb.db.monitoredAsset.updateMany({ where: { customerId }, data: { active: true } });
        await scanCustomer(testDb.db, customerId, "daily");
        const told = await toldPairs(customerId, recipient);
        expect(new Set(told.keys())).toEqual(exposed);
        expect([...told.values()].every((count) => count === 1)).toBe(true);
      }),
      { numRuns: 12, seed: 41 },
    );
  }, 240_000);

  it("claims a pair once per channel: another channel is told on its own", async () => {
    const { customerId, domain } = await customerWithDomain();
    const candidate = { customerId, email: `CEO@${domain}`, breachId: breachIds.get("QuietA")! };
    expect(await claimNotices(testDb.db, "chat:one", [candidate, candidate])).toEqual([{ ...candidate, email: `ceo@${domain}` }]);
    expect(await claimNotices(testDb.db, "chat:one", [candidate])).toEqual([]);
    expect(await claimNotices(testDb.db, "psa:two", [candidate])).toHaveLength(1);
  });
});

describe("mutes", () => {
  it("a muted mailbox, a muted breach and a mailbox muted for a while are not alerted; an expired or deleted mute no longer mutes", async () => {
    const { customerId, domain, recipient } = await customerWithDomain();
    await expose(domain, [[0, 0]]);
    await scanCustomer(testDb.db, customerId, "daily");
    const instance = await testDb.db.customerBreach.findFirstOrThrow({ where: { customerId } });
    await muteNotices(testDb.db, customerId, { email: `it@${domain}`, mutedBy: "partner" });
    await muteNotices(testDb.db, customerId, { breachId: instance.id, mutedBy: "customer" });
    const brief = await muteNotices(testDb.db, customerId, {
      email: `sales@${domain}`,
      until: new Date(Date.now() + 60_000),
      mutedBy: "staff",
    });

    await expose(domain, [
      [1, 1],
      [0, 0],
      [1, 0],
      [2, 2],
    ]);
    await scanCustomer(testDb.db, customerId, "daily");
    expect([...(await toldPairs(customerId, recipient)).keys()].sort()).toEqual([`QuietA ceo@${domain}`]);

    // The sales mute expires; the one on it@ is deleted: what is found from then on is told.
    await testDb.db.notificationMute.update({ where: { id: brief.id }, data: { until: new Date(Date.now() - 1_000) } });
    const itMute = (await testDb.db.notificationMute.findFirstOrThrow({ where: { customerId, email: `it@${domain}` } })).id;
    await deleteMute(testDb.db, customerId, itMute);
    await expose(domain, [
      [2, 1],
      [1, 2],
    ]);
    await scanCustomer(testDb.db, customerId, "daily");
    expect([...(await toldPairs(customerId, recipient)).keys()].sort()).toEqual([
      `QuietA ceo@${domain}`,
      `QuietB sales@${domain}`,
      `QuietC it@${domain}`,
    ]);
  });

  it("refuses a mute without a target, in the past, or of another customer's breach", async () => {
    const { customerId } = await customerWithDomain();
    const { customerId: other, domain } = await customerWithDomain();
    await expose(domain, [[0, 0]]);
    await scanCustomer(testDb.db, other, "daily");
    const foreign = await testDb.db.customerBreach.findFirstOrThrow({ where: { customerId: other } });
    await expect(muteNotices(testDb.db, customerId, { mutedBy: "partner" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(
      muteNotices(testDb.db, customerId, { email: "a@b.example", until: new Date(0), mutedBy: "partner" }),
    ).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    await expect(muteNotices(testDb.db, customerId, { breachId: foreign.id, mutedBy: "partner" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });
});

describe("digests", () => {
  it("a daily digest holds the alerts and sends one summary of them; a weekly one waits for Monday", async () => {
    const daily = await customerWithDomain();
    const weekly = await customerWithDomain();
    await testDb.db.customer.updateMany({ where: { id: daily.customerId }, data: { alertDigest: "daily" } });
    await testDb.db.customer.updateMany({ where: { id: weekly.customerId }, data: { alertDigest: "weekly" } });
    for (const { customerId, domain } of [daily, weekly]) {
      await expose(domain, [
        [0, 0],
        [1, 1],
      ]);
      await scanCustomer(testDb.db, customerId, "daily");
      await expose(domain, [[2, 2]]);
      await scanCustomer(testDb.db, customerId, "daily");
      expect(await toldPairs(customerId, `security@${domain}`)).toEqual(new Map());
    }

    // 2026-12-05 is a Saturday: the daily digest only.
    const saturday = "2026-12-05";
    expect(await enqueueAlertDigests(testDb.db, saturday)).toBeGreaterThanOrEqual(1);
    expect(await queueAlertDigest(testDb.db, { customerId: daily.customerId, digest: "daily", slot: saturday })).toHaveLength(1);
    expect(await queueAlertDigest(testDb.db, { customerId: daily.customerId, digest: "daily", slot: saturday })).toEqual([]);
    const [summary] = await testDb.db.notification.findMany({ where: { customerId: daily.customerId, kind: "breach_alert" } });
    expect(summary).toMatchObject({ cause: `digest:daily:${saturday}`, subject: "Daily breach summary for Quiet Ltd" });
    expect((await toldPairs(daily.customerId, daily.recipient)).size).toBe(3);

    const monday = "2026-12-07";
    expect(await queueAlertDigest(testDb.db, { customerId: weekly.customerId, digest: "weekly", slot: monday })).toHaveLength(1);
    expect((await toldPairs(weekly.customerId, weekly.recipient)).size).toBe(3);
  });
});
