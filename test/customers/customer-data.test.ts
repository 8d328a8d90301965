import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { SCAN_CUSTOMER_JOB } from "../../server/customers/scan-requests";
import { getCustomerAssets, updateCustomerAssets } from "../../server/customers/assets";
import { getCustomerInfo, getThreatScore, updateCustomerInfo } from "../../server/customers/info";
import { createTestCustomer } from "../helpers/customers";
import { failInsertsInto } from "../helpers/failures";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { restTestBed } from "../helpers/rest";

const { testDb, server } = restTestBed();
let org: TestOrg;

beforeAll(async () => {
  org = await createTestOrg(testDb.db);
});
beforeEach(settleJobs);

/** As if the worker had run every queued scan: a new request queues a new job. */
async function settleJobs() {
  await testDb.db.$executeRaw`UPDATE jobs SET status = 'succeeded', dedupe_key = NULL, finished_at = now()`;
}

const infoPath = (id: string) => `/api/v1/integrations/customer/${id}/info`;
const assetsPath = (id: string) => `/api/v1/integrations/customer/${id}/assets`;
const scorePath = (id: string) => `/api/v1/integrations/customer/${id}/threat-score`;

async function assetEvents(customerId: string) {
  const events = await testDb.db.outboxEvent.findMany({
    where: { customerId, type: { in: ["customer.asset.added", "customer.asset.removed"] } },
    orderBy: { createdAt: "asc" },
  });
  return events.map((event) => ({
    type: event.type,
    values: (event.payload as { assets: Array<{ value: string }> }).assets.map((asset) => asset.value).sort(),
  }));
}

async function pendingScanReasons(customerId: string) {
  const rows = await testDb.db.$queryRaw<Array<{ reason: string }>>`
    SELECT payload->>'reason' AS reason FROM jobs
    WHERE kind = ${SCAN_CUSTOMER_JOB} AND status = 'pending' AND payload->>'customerId' = ${customerId}`;
  return rows.map((row) => row.reason);
}

describe("customer info", () => {
  it("GET answers exactly the documented fields; scanned_status turns true with the first finished scan", async () => {
    const customerId = await createTestCustomer(testDb.db, org.partner.id, {
      price: 19.5,
      planType: "plus",
      localeCode: "da-DK",
      customerReference: "DATA-001",
    });
    const plus = await testDb.db.plan.findUniqueOrThrow({ where: { planType: "plus" } });
    const res = await server.api.get(infoPath(customerId), org.partner.headers);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      companyName: "Acme Ltd",
      contactEmail: "it@acme.example",
      price: 19.5,
      planType: "plus",
      localeCode: "da-DK",
      status: "active",
      scanned_status: false,
      customerReference: "DATA-001",
      currencyCode: "USD",
      planId: plus.id,
      alertRecipients: ["alerts@acme.example"],
      sendMonthlyReport: true,
      shouldReceiveBreachAlerts: null,
      alertDigest: "off",
    });
    await testDb.db.customer.update({ where: { id: customerId }, data: { firstScannedAt: new Date(), lastScannedAt: new Date() } });
    expect((await getCustomerInfo(testDb.db, org.partner.id, customerId)).scannedStatus).toBe(true);
  });

  it("PATCH changes the fields given, the plan by planId over planType, and the portal user's address", async () => {
    const customerId = await createTestCustomer(testDb.db, org.partner.id);
    const pro = await testDb.db.plan.findUniqueOrThrow({ where: { planType: "pro" } });
    const res = await server.api.patch(
      infoPath(customerId),
      { companyName: "Acme Group", contactEmail: "Owner@Acme.example", price: 0, planId: pro.id, planType: "plus", platformAccess: true },
      org.partner.headers,
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: "Customer info updated successfully" });
    const info = await getCustomerInfo(testDb.db, org.partner.id, customerId);
    expect(info).toMatchObject({ companyName: "Acme Group", contactEmail: "Owner@Acme.example", price: 0, planType: "pro" });
    expect((await testDb.db.portalUser.findUniqueOrThrow({ where: { customerId } })).email).toBe("owner@acme.example");
    // the contact e-mail is still not a monitored asset
    expect((await getCustomerAssets(testDb.db, org.partner.id, customerId)).emails).not.toContain("owner@acme.example");

    await updateCustomerInfo(testDb.db, org.partner.id, customerId, { planType: "basic" });
    expect(await getCustomerInfo(testDb.db, org.partner.id, customerId)).toMatchObject({ planType: "basic", companyName: "Acme Group" });
  });

  it("PATCH changes the reference, locale, alert recipients and e-mail settings, and GET reads them back", async () => {
    const customerId = await createTestCustomer(testDb.db, org.partner.id, {
      status: "prospect",
      currencyCode: undefined,
      price: undefined,
    });
    expect(await getCustomerInfo(testDb.db, org.partner.id, customerId)).toMatchObject({ currencyCode: null, status: "prospect" });
    const reference = `NEW-${customerId.slice(0, 8)}`;
    const res = await server.api.patch(
      infoPath(customerId),
      {
        customerReference: ` ${reference} `,
        localeCode: "sv-se",
        alertRecipients: ["SOC@Acme.example", "soc@acme.example", "it@acme.example"],
        sendMonthlyReport: false,
        shouldReceiveBreachAlerts: true,
        currencyCode: "gbp",
      },
      org.partner.headers,
    );
    expect(res.status).toBe(200);
    const read = await server.api.get(infoPath(customerId), org.partner.headers);
    expect(read.body).toMatchObject({
      customerReference: reference,
      localeCode: "sv-SE",
      alertRecipients: ["soc@acme.example", "it@acme.example"],
      sendMonthlyReport: false,
      shouldReceiveBreachAlerts: true,
      currencyCode: "GBP",
      companyName: "Acme Ltd",
    });
  });

  it("PATCH refuses a reference another of the partner's customers has with 409, and changes nothing", async () => {
    const taken = `TAKEN-${Date.now()}`;
    await createTestCustomer(testDb.db, org.partner.id, { customerReference: taken });
    const customerId = await createTestCustomer(testDb.db, org.partner.id);
    const before = await getCustomerInfo(testDb.db, org.partner.id, customerId);
    const res = await server.api.patch(infoPath(customerId), { customerReference: taken, companyName: "Changed" }, org.partner.headers);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ success: false, error: `A customer with reference "${taken}" already exists` });
    expect(await getCustomerInfo(testDb.db, org.partner.id, customerId)).toEqual(before);
  });

  it("PATCH takes planUuid as another name of planId, and refuses the two names with different plans", async () => {
    const customerId = await createTestCustomer(testDb.db, org.partner.id);
    const [pro, plus] = await Promise.all(["pro", "plus"].map((planType) => testDb.db.plan.findUniqueOrThrow({ where: { planType } })));
    let res = await server.api.patch(`/api/integrations/customer/${customerId}/info`, { planUuid: pro!.id }, org.partner.headers);
    expect(res.status).toBe(200);
    expect((await getCustomerInfo(testDb.db, org.partner.id, customerId)).planType).toBe("pro");

    res = await server.api.patch(
      infoPath(customerId),
      { planUuid: plus!.id, planId: pro!.id, companyName: "Changed" },
      org.partner.headers,
    );
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: "Validation failed: planUuid: planUuid and planId name the same field and differ" });
    expect(await getCustomerInfo(testDb.db, org.partner.id, customerId)).toMatchObject({ planType: "pro", companyName: "Acme Ltd" });
  });

  it("PATCH works on the unversioned path", async () => {
    const customerId = await createTestCustomer(testDb.db, org.partner.id);
    const res = await server.api.patch(`/api/integrations/customer/${customerId}/info`, { price: 12 }, org.partner.headers);
    expect(res.status).toBe(200);
    expect((await getCustomerInfo(testDb.db, org.partner.id, customerId)).price).toBe(12);
  });

  it.each([
    [
      "an empty body",
      {},
      "At least one of companyName, contactEmail, customerReference, price, currencyCode, planType, planId, localeCode, " +
        "alertRecipients, sendMonthlyReport, shouldReceiveBreachAlerts or alertDigest must be provided",
    ],
    ["a blank reference", { customerReference: "  " }, "Validation failed: customerReference: Customer reference is required"],
    [
      "a locale the service does not have",
      { localeCode: "de-DE" },
      "Validation failed: localeCode: localeCode must be one of sv-SE, nb-NO, fi-FI, da-DK, en-GB, nl-NL",
    ],
    ["no alert recipients", { alertRecipients: [] }, "Validation failed: alertRecipients: At least one alert recipient is required"],
    [
      "an invalid alert recipient",
      { alertRecipients: ["ok@acme.example", "nope"] },
      "Validation failed: alertRecipients.1: Invalid email address",
    ],
    [
      "a monthly report flag that is no boolean",
      { sendMonthlyReport: "yes" },
      "Validation failed: sendMonthlyReport: Invalid input: expected boolean, received string",
    ],
    ["an unknown currency", { currencyCode: "XYZ" }, "Validation failed: currencyCode: Currency code must be an ISO 4217 code such as USD"],
    ["a blank company name", { companyName: " " }, "Validation failed: companyName: Company name is required"],
    ["an invalid contact e-mail", { contactEmail: "nope" }, "Validation failed: contactEmail: Invalid email address"],
    ["a negative price", { price: -5 }, "Validation failed: price: Price must be at least 0"],
    [
      "an unknown plan type",
      { planType: "gold" },
      'Validation failed: planType: Unknown plan type "gold"; expected one of basic, plus, pro',
    ],
    ["an unknown plan id", { planId: "00000000-0000-4000-8000-000000000000" }, "Validation failed: planId: Plan not found"],
  ])("PATCH refuses %s with 400", async (_name, body, error) => {
    const customerId = await createTestCustomer(testDb.db, org.partner.id);
    const res = await server.api.patch(infoPath(customerId), body, org.partner.headers);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error });
    expect((await getCustomerInfo(testDb.db, org.partner.id, customerId)).companyName).toBe("Acme Ltd");
  });

  it("PATCH answers invalid JSON with 'Request body must be valid JSON'", async () => {
    const customerId = await createTestCustomer(testDb.db, org.partner.id);
    const res = await server.api.patch(infoPath(customerId), "{price: 1", org.partner.headers);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: "Request body must be valid JSON" });
  });

  it("GET and PATCH refuse a malformed customer id with 400", async () => {
    for (const res of [
      await server.api.get(infoPath("abc"), org.partner.headers),
      await server.api.patch(infoPath("abc"), { price: 1 }, org.partner.headers),
    ]) {
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ success: false, error: "Validation failed: customerId: Customer ID must be a valid UUID" });
    }
  });

  it("PATCH answers an unexpected failure with 500 'Failed to update customer info' and changes nothing", async () => {
    const customerId = await createTestCustomer(testDb.db, org.partner.id);
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    await testDb.db.$executeRawUnsafe(
      `CREATE FUNCTION test_fail_portal_update() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected failure'; END $$`,
    );
    await testDb.db.$executeRawUnsafe(
      `CREATE TRIGGER test_fail_portal_update BEFORE UPDATE ON portal_users FOR EACH ROW EXECUTE FUNCTION test_fail_portal_update()`,
    );
    try {
      const res = await server.api.patch(
        infoPath(customerId),
        { companyName: "Changed", contactEmail: "new@acme.example" },
        org.partner.headers,
      );
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ success: false, error: "Failed to update customer info" });
    } finally {
      await testDb.db.$executeRawUnsafe(`DROP TRIGGER test_fail_portal_update ON portal_users`);
      await testDb.db.$executeRawUnsafe(`DROP FUNCTION test_fail_portal_update()`);
      stderr.mockRestore();
    }
    expect((await getCustomerInfo(testDb.db, org.partner.id, customerId)).companyName).toBe("Acme Ltd");
  });
});

describe("customer assets", () => {
  it("GET answers sorted domains and e-mails, [] when empty", async () => {
    const customerId = await createTestCustomer(testDb.db, org.partner.id, {
      assetsDomains: ["b.example", "A.example"],
      assetsEmails: undefined,
    });
    const res = await server.api.get(assetsPath(customerId), org.partner.headers);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, domains: ["a.example", "b.example"], emails: [] });
  });

  it("PATCH replaces each list given, keeps the other, and emits one event per change listing every asset", async () => {
    const customerId = await createTestCustomer(testDb.db, org.partner.id, {
      assetsDomains: ["keep.example", "drop.example"],
      assetsEmails: ["keep@keep.example"],
    });
    const before = await testDb.db.monitoredAsset.findMany({ where: { customerId } });
    await testDb.db.outboxEvent.deleteMany({ where: { customerId } });
    await settleJobs();

    const res = await server.api.patch(
      assetsPath(customerId),
      { domains: ["KEEP.example", "new.example", "new2.example", "new.example"] },
      org.partner.headers,
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, domains: ["keep.example", "new.example", "new2.example"], emails: ["keep@keep.example"] });
    expect(await assetEvents(customerId)).toEqual(
      expect.arrayContaining([
        { type: "customer.asset.added", values: ["new.example", "new2.example"] },
        { type: "customer.asset.removed", values: ["drop.example"] },
      ]),
    );
    expect(await assetEvents(customerId)).toHaveLength(2);
    // unchanged assets keep their identity; the removed one's uuid is in the event
    const after = await testDb.db.monitoredAsset.findMany({ where: { customerId } });
    const keptId = before.find((a) => a.value === "keep.example")!.id;
    expect(after.find((a) => a.value === "keep.example")!.id).toBe(keptId);
    const removedEvent = await testDb.db.outboxEvent.findFirstOrThrow({ where: { customerId, type: "customer.asset.removed" } });
    expect(removedEvent.payload).toEqual({
      customer: { uuid: customerId, name: "Acme Ltd", reference: expect.any(String) },
      assets: [{ uuid: before.find((a) => a.value === "drop.example")!.id, type: "domain", value: "drop.example" }],
    });
    expect(await pendingScanReasons(customerId)).toEqual(["assets"]);
  });

  it("PATCH with [] removes all of that kind; removing only emits no added event and requests no scan", async () => {
    const customerId = await createTestCustomer(testDb.db, org.partner.id, { assetsEmails: ["a@acme.example", "b@acme.example"] });
    await testDb.db.outboxEvent.deleteMany({ where: { customerId } });
    await settleJobs();
    const lists = await updateCustomerAssets(testDb.db, org.partner.id, customerId, { emails: [] });
    expect(lists).toEqual({ domains: ["acme.example"], emails: [] });
    expect(await assetEvents(customerId)).toEqual([{ type: "customer.asset.removed", values: ["a@acme.example", "b@acme.example"] }]);
    expect(await pendingScanReasons(customerId)).toEqual([]);
  });

  it("PATCH with the same sets changes nothing and emits nothing", async () => {
    const customerId = await createTestCustomer(testDb.db, org.partner.id);
    await testDb.db.outboxEvent.deleteMany({ where: { customerId } });
    await settleJobs();
    const current = await getCustomerAssets(testDb.db, org.partner.id, customerId);
    expect(await updateCustomerAssets(testDb.db, org.partner.id, customerId, current)).toEqual(current);
    expect(await assetEvents(customerId)).toEqual([]);
    expect(await pendingScanReasons(customerId)).toEqual([]);
  });

  it("counts e-mails a scan discovered as monitored assets; PATCH keeps them when listed, removes them when not", async () => {
    const customerId = await createTestCustomer(testDb.db, org.partner.id, { assetsEmails: ["ceo@acme.example"] });
    const discovered = await testDb.db.monitoredAsset.create({
      data: { customerId, kind: "email", value: "found@acme.example", domain: "acme.example", source: "discovered" },
    });
    expect((await getCustomerAssets(testDb.db, org.partner.id, customerId)).emails).toEqual(["ceo@acme.example", "found@acme.example"]);

    await updateCustomerAssets(testDb.db, org.partner.id, customerId, { emails: ["found@acme.example", "new@acme.example"] });
    expect(await testDb.db.monitoredAsset.findUniqueOrThrow({ where: { id: discovered.id } })).toMatchObject({ source: "discovered" });

    await testDb.db.outboxEvent.deleteMany({ where: { customerId } });
    const lists = await updateCustomerAssets(testDb.db, org.partner.id, customerId, { emails: ["new@acme.example"] });
    expect(lists.emails).toEqual(["new@acme.example"]);
    expect(await assetEvents(customerId)).toEqual([{ type: "customer.asset.removed", values: ["found@acme.example"] }]);
  });

  it("PATCH scans only active customers for added assets", async () => {
    const prospect = await createTestCustomer(testDb.db, org.partner.id, { status: "prospect" });
    await settleJobs();
    await updateCustomerAssets(testDb.db, org.partner.id, prospect, { domains: ["more.example"] });
    expect(await pendingScanReasons(prospect)).toEqual([]);
    expect(await assetEvents(prospect)).toContainEqual({ type: "customer.asset.added", values: ["more.example"] });
  });

  it.each([
    ["neither list", {}, "At least one of domains or emails must be provided"],
    ["an invalid domain", { domains: ["ok.example", "not a domain"] }, "Validation failed: domains.1: Invalid domain"],
    ["an invalid e-mail", { emails: ["@acme.example"] }, "Validation failed: emails.0: Invalid email address"],
    ["a list of non-strings", { emails: [1] }, "Validation failed: emails.0: Invalid input: expected string, received number"],
  ])("PATCH refuses %s with 400 and changes nothing", async (_name, body, error) => {
    const customerId = await createTestCustomer(testDb.db, org.partner.id);
    const before = await getCustomerAssets(testDb.db, org.partner.id, customerId);
    const res = await server.api.patch(assetsPath(customerId), body, org.partner.headers);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error });
    expect(await getCustomerAssets(testDb.db, org.partner.id, customerId)).toEqual(before);
  });

  it("GET and PATCH refuse a malformed customer id with 'Customer ID is required'", async () => {
    for (const res of [
      await server.api.get(assetsPath("not-a-uuid"), org.partner.headers),
      await server.api.patch(assetsPath("not-a-uuid"), { domains: [] }, org.partner.headers),
    ]) {
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ success: false, error: "Validation failed: customerId: Customer ID is required" });
    }
  });

  it("PATCH answers invalid JSON with 'Request body must be valid JSON'", async () => {
    const customerId = await createTestCustomer(testDb.db, org.partner.id);
    const res = await server.api.patch(assetsPath(customerId), "[", org.partner.headers);
    expect(res.body).toEqual({ success: false, error: "Request body must be valid JSON" });
  });

  it("PATCH rolls back assets and events together on failure (500 'Failed to update customer assets')", async () => {
    const customerId = await createTestCustomer(testDb.db, org.partner.id, { assetsDomains: ["one.example"], assetsEmails: undefined });
    await testDb.db.outboxEvent.deleteMany({ where: { customerId } });
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const restore = await failInsertsInto(testDb.db, "jobs");
    try {
      const res = await server.api.patch(assetsPath(customerId), { domains: ["two.example"] }, org.partner.headers);
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ success: false, error: "Failed to update customer assets" });
    } finally {
      await restore();
      stderr.mockRestore();
    }
    expect(await getCustomerAssets(testDb.db, org.partner.id, customerId)).toEqual({ domains: ["one.example"], emails: [] });
    expect(await assetEvents(customerId)).toEqual([]);
  });

  it("concurrent PATCHes apply one after the other", async () => {
    const customerId = await createTestCustomer(testDb.db, org.partner.id, { assetsDomains: ["base.example"], assetsEmails: undefined });
    await Promise.all([
      updateCustomerAssets(testDb.db, org.partner.id, customerId, { domains: ["base.example", "x.example"] }),
      updateCustomerAssets(testDb.db, org.partner.id, customerId, { domains: ["base.example", "y.example"] }),
    ]);
    const { domains } = await getCustomerAssets(testDb.db, org.partner.id, customerId);
    expect([
      ["base.example", "x.example"],
      ["base.example", "y.example"],
    ]).toContainEqual(domains);
  });
});

describe("threat score", () => {
  it("answers the stored score, 0 before any scan", async () => {
    const customerId = await createTestCustomer(testDb.db, org.partner.id);
    const res = await server.api.get(scorePath(customerId), org.partner.headers);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, threatScore: 0 });
    await testDb.db.customer.update({ where: { id: customerId }, data: { threatScore: 42 } });
    expect(await getThreatScore(testDb.db, org.partner.id, customerId)).toBe(42);
    expect((await server.api.get(scorePath(customerId), org.partner.headers)).body).toEqual({ success: true, threatScore: 42 });
  });

  it("refuses a malformed id with 'Invalid route parameters: Customer ID must be a valid UUID'", async () => {
    const res = await server.api.get(scorePath("123"), org.partner.headers);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: "Invalid route parameters: Customer ID must be a valid UUID" });
  });
});

describe("customer data endpoints are partner-only", () => {
  it.each([
    ["GET info", (id: string) => server.api.get(infoPath(id), org.onBehalfHeaders)],
    ["PATCH info", (id: string) => server.api.patch(infoPath(id), { price: 1 }, org.onBehalfHeaders)],
    ["GET assets", (id: string) => server.api.get(assetsPath(id), org.onBehalfHeaders)],
    ["PATCH assets", (id: string) => server.api.patch(assetsPath(id), { domains: [] }, org.onBehalfHeaders)],
    ["GET threat score", (id: string) => server.api.get(scorePath(id), org.onBehalfHeaders)],
  ])("%s refuses the distributor's key with 401", async (_name, call) => {
    const customerId = await createTestCustomer(testDb.db, org.partner.id);
    const res = await call(customerId);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, error: "Failed to verify org API key" });
  });

  it.each([
    ["GET info", (id: string) => server.api.get(infoPath(id))],
    ["GET assets", (id: string) => server.api.get(assetsPath(id))],
    ["GET threat score", (id: string) => server.api.get(scorePath(id))],
  ])("%s requires the headers", async (_name, call) => {
    const res = await call(crypto.randomUUID());
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, error: "Partner ID and API key are required in headers" });
  });
});
