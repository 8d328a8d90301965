import { beforeAll, describe, expect, it, vi } from "vitest";
import { SCAN_CUSTOMER_JOB } from "../../server/customers/scan-requests";
import { onboardCustomer } from "../../server/customers/onboard";
import { createTestCustomer, onboardBody } from "../helpers/customers";
import { failInsertsInto } from "../helpers/failures";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { restTestBed } from "../helpers/rest";

const { testDb, server } = restTestBed();
let org: TestOrg;
let otherOrg: TestOrg;

beforeAll(async () => {
  org = await createTestOrg(testDb.db, "Alpha");
  otherOrg = await createTestOrg(testDb.db, "Beta");
});

const ONBOARD = "/api/v1/integrations/customer/onboard";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function plan(planType: string) {
  return testDb.db.plan.findUniqueOrThrow({ where: { planType } });
}

async function customerState(customerId: string) {
  const db = testDb.db;
  return {
    customer: await db.customer.findUnique({ where: { id: customerId }, include: { plan: true } }),
    assets: await db.monitoredAsset.findMany({ where: { customerId }, orderBy: [{ kind: "asc" }, { value: "asc" }] }),
    portalUser: await db.portalUser.findUnique({ where: { customerId } }),
    events: await db.outboxEvent.findMany({ where: { customerId }, orderBy: { type: "asc" } }),
    jobs: await db.$queryRaw<Array<{ kind: string; payload: unknown }>>`
      SELECT kind, payload FROM jobs WHERE payload->>'customerId' = ${customerId}`,
  };
}

describe("onboardCustomer (service)", () => {
  it("creates an active customer with normalized assets, a portal user, both events and the initial scan", async () => {
    const { customerId } = await onboardCustomer(testDb.db, org.partner.id, {
      companyName: "  Acme Ltd ",
      contactEmail: "IT@Acme.Example",
      customerReference: " ACME-001 ",
      assetsDomains: [" Acme.Example. ", "acme.example", "Shop.ACME.example", "bücher.example"],
      assetsEmails: ["CEO@Acme.Example", "ceo@acme.example ", "cfo@acme.example"],
      price: 49.99,
      billedFromDate: new Date("2026-06-01T00:00:00Z"),
      currencyCode: "usd",
      enrolType: "opt-in",
      sendMonthlyReport: true,
      shouldReceiveBreachAlerts: true,
    });
    expect(customerId).toMatch(UUID);
    const state = await customerState(customerId);
    expect(state.customer).toMatchObject({
      partnerId: org.partner.id,
      reference: "ACME-001",
      companyName: "Acme Ltd",
      contactEmail: "IT@Acme.Example",
      currencyCode: "USD",
      billedFromDate: new Date("2026-06-01T00:00:00Z"),
      localeCode: "en-GB",
      status: "active",
      enrolType: "opt-in",
      sendMonthlyReport: true,
      shouldReceiveBreachAlerts: true,
      alertRecipients: ["it@acme.example"],
      threatScore: 0,
      firstScannedAt: null,
    });
    expect(state.customer!.price.toNumber()).toBe(49.99);
    expect(state.customer!.plan.isSystemDefault).toBe(true);
    expect(state.assets.map((a) => [a.kind, a.value, a.domain, a.source])).toEqual([
      ["domain", "acme.example", "acme.example", "partner"],
      ["domain", "shop.acme.example", "shop.acme.example", "partner"],
      ["domain", "xn--bcher-kva.example", "xn--bcher-kva.example", "partner"],
      ["email", "ceo@acme.example", "acme.example", "partner"],
      ["email", "cfo@acme.example", "acme.example", "partner"],
    ]);
    // the contact e-mail is the portal user, not a monitored asset
    expect(state.assets.some((a) => a.value === "it@acme.example")).toBe(false);
    expect(state.portalUser).toMatchObject({ email: "it@acme.example" });

    const customer = { uuid: customerId, name: "Acme Ltd", reference: "ACME-001" };
    expect(state.events.map((e) => ({ type: e.type, partnerId: e.partnerId, payload: e.payload }))).toEqual([
      {
        type: "customer.asset.added",
        partnerId: org.partner.id,
        payload: {
          customer,
          assets: expect.arrayContaining(state.assets.map((a) => ({ uuid: a.id, type: a.kind, value: a.value }))),
        },
      },
      { type: "customer.created", partnerId: org.partner.id, payload: { customer } },
    ]);
    expect((state.events[0]!.payload as { assets: unknown[] }).assets).toHaveLength(5);
    expect(state.jobs).toEqual([{ kind: SCAN_CUSTOMER_JOB, payload: { customerId, reason: "onboard" } }]);
  });

  it("creates a prospect when asked, with its initial scan", async () => {
    const customerId = await createTestCustomer(testDb.db, org.partner.id, { status: "prospect", price: 0 });
    const state = await customerState(customerId);
    expect(state.customer!.status).toBe("prospect");
    expect(state.jobs).toHaveLength(1);
    expect(state.events.map((e) => e.type)).toEqual(["customer.asset.added", "customer.created"]);
  });

  it("takes planId over planType, planType otherwise, the default plan without either", async () => {
    const plus = await plan("plus");
    const pro = await plan("pro");
    const byId = await createTestCustomer(testDb.db, org.partner.id, { planId: pro.id, planType: "plus" });
    const byType = await createTestCustomer(testDb.db, org.partner.id, { planType: "Plus" });
    const byDefault = await createTestCustomer(testDb.db, org.partner.id, { planType: undefined });
    expect((await customerState(byId)).customer!.planId).toBe(pro.id);
    expect((await customerState(byType)).customer!.planId).toBe(plus.id);
    expect((await customerState(byDefault)).customer!.plan.planType).toBe("basic");
  });

  it("refuses an unknown plan without writing anything", async () => {
    const before = await testDb.db.customer.count();
    await expect(createTestCustomer(testDb.db, org.partner.id, { planType: "gold" })).rejects.toMatchObject({
      status: 400,
      message: 'Validation failed: planType: Unknown plan type "gold"; expected one of basic, plus, pro',
    });
    await expect(createTestCustomer(testDb.db, org.partner.id, { planId: crypto.randomUUID() })).rejects.toMatchObject({
      status: 400,
      message: "Validation failed: planId: Plan not found",
    });
    expect(await testDb.db.customer.count()).toBe(before);
  });

  it("refuses a customer without any monitored asset", async () => {
    await expect(createTestCustomer(testDb.db, org.partner.id, { assetsDomains: [], assetsEmails: undefined })).rejects.toMatchObject({
      status: 400,
      message: "Validation failed: assetsDomains: At least one of assetsDomains or assetsEmails is required",
    });
  });

  it("refuses a second customer with the same reference, and allows it under another partner", async () => {
    await createTestCustomer(testDb.db, org.partner.id, { customerReference: "DUP-1" });
    const events = await testDb.db.outboxEvent.count();
    await expect(createTestCustomer(testDb.db, org.partner.id, { customerReference: "DUP-1" })).rejects.toMatchObject({
      status: 409,
      message: 'A customer with reference "DUP-1" already exists',
    });
    expect(await testDb.db.customer.count({ where: { reference: "DUP-1" } })).toBe(1);
    expect(await testDb.db.outboxEvent.count()).toBe(events);
    await createTestCustomer(testDb.db, otherOrg.partner.id, { customerReference: "DUP-1" });
    expect(await testDb.db.customer.count({ where: { reference: "DUP-1" } })).toBe(2);
  });

  it("leaves nothing behind, events included, when the last step of the transaction fails", async () => {
    const restore = await failInsertsInto(testDb.db, "jobs");
    try {
      await expect(createTestCustomer(testDb.db, org.partner.id, { customerReference: "ROLLBACK-1" })).rejects.toThrow(/injected failure/);
    } finally {
      await restore();
    }
    expect(await testDb.db.customer.count({ where: { reference: "ROLLBACK-1" } })).toBe(0);
    const orphans = await testDb.db.$queryRaw<Array<{ n: bigint }>>`
      SELECT count(*) AS n FROM outbox_events e WHERE NOT EXISTS (SELECT 1 FROM customers c WHERE c.id = e.customer_id)`;
    expect(Number(orphans[0]!.n)).toBe(0);
    expect(await testDb.db.portalUser.count({ where: { customer: { reference: "ROLLBACK-1" } } })).toBe(0);
  });
});

describe("POST /api/v1/integrations/customer/onboard", () => {
  it("answers exactly {success, message, customerId}", async () => {
    const res = await server.api.post(ONBOARD, onboardBody(), org.partner.headers);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: "Customer onboarded successfully", customerId: expect.stringMatching(UUID) });
    const state = await customerState(res.body.customerId);
    expect(state.customer).toMatchObject({ partnerId: org.partner.id, status: "active", enrolType: "opt-in" });
    expect(state.customer!.alertRecipients).toEqual(["alerts@acme.example"]);
  });

  it("serves existing clients on the unversioned path, with planId, ignoring platformAccess", async () => {
    const plus = await plan("plus");
    const res = await server.api.post(
      "/api/integrations/customer/onboard",
      onboardBody({ planId: plus.id, planType: undefined, platformAccess: true, status: "prospect", price: 0 }),
      org.partner.headers,
    );
    expect(res.status).toBe(200);
    const state = await customerState(res.body.customerId);
    expect(state.customer).toMatchObject({ planId: plus.id, status: "prospect" });
  });

  it("refuses a body that is not declared as JSON with 415 and onboards nothing", async () => {
    const before = await testDb.db.customer.count({ where: { partnerId: org.partner.id } });
    const res = await server.api.call("POST", ONBOARD, {
      body: JSON.stringify(onboardBody({ customerReference: "TEXT-PLAIN-1" })),
      headers: { ...org.partner.headers, "content-type": "text/plain" },
    });
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ success: false, error: "Content-Type must be application/json" });
    expect(await testDb.db.customer.count({ where: { partnerId: org.partner.id } })).toBe(before);
  });

  it("reads a deployment's plan type names from PLAN_TYPE_ALIASES wherever a planType is read", async () => {
    vi.stubEnv("PLAN_TYPE_ALIASES", "safeweb-basic=basic,safeweb-plus=plus,safeweb-pro=pro");
    try {
      const res = await server.api.post(
        ONBOARD,
        onboardBody({ planType: "SafeWeb-Pro", customerReference: "ALIAS-1" }),
        org.partner.headers,
      );
      expect(res.status).toBe(200);
      expect((await customerState(res.body.customerId)).customer!.plan.planType).toBe("pro");
      const patched = await server.api.patch(
        `/api/v1/integrations/customer/${res.body.customerId}/info`,
        { planType: "safeweb-plus" },
        org.partner.headers,
      );
      expect(patched.status).toBe(200);
      expect((await customerState(res.body.customerId)).customer!.plan.planType).toBe("plus");
      const unknown = await server.api.post(ONBOARD, onboardBody({ planType: "safeweb-gold" }), org.partner.headers);
      expect(unknown.status).toBe(400);
      expect(unknown.body.error).toMatch(/^Validation failed: planType: Unknown plan type "safeweb-gold"/);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("takes planUuid as another name of planId (existing clients)", async () => {
    const pro = await plan("pro");
    const res = await server.api.post(
      "/api/integrations/customer/onboard",
      onboardBody({ planUuid: pro.id, planType: undefined, customerReference: "PLAN-UUID-1" }),
      org.partner.headers,
    );
    expect(res.status).toBe(200);
    expect((await customerState(res.body.customerId)).customer!.planId).toBe(pro.id);

    const plus = await plan("plus");
    const refused = await server.api.post(
      ONBOARD,
      onboardBody({ planUuid: pro.id, planId: plus.id, customerReference: "PLAN-UUID-2" }),
      org.partner.headers,
    );
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      success: false,
      error: "Validation failed: planUuid: planUuid and planId name the same field and differ",
    });
    expect(await testDb.db.customer.count({ where: { partnerId: org.partner.id, reference: "PLAN-UUID-2" } })).toBe(0);
  });

  it("accepts the minimal body: company, contact, reference, one asset, price, currency", async () => {
    const res = await server.api.post(
      ONBOARD,
      {
        companyName: "Min",
        contactEmail: "a@min.example",
        customerReference: "MIN-1",
        assetsEmails: ["b@min.example"],
        price: 0,
        currencyCode: "GBP",
      },
      org.partner.headers,
    );
    expect(res.status).toBe(200);
    const state = await customerState(res.body.customerId);
    expect(state.customer).toMatchObject({ localeCode: "en-GB", enrolType: "opt-out", sendMonthlyReport: false, billedFromDate: null });
    expect(state.assets.map((a) => a.value)).toEqual(["b@min.example"]);
  });

  it.each([
    ["companyName missing", { companyName: undefined }, "Validation failed: companyName: Company name is required"],
    ["companyName blank", { companyName: "   " }, "Validation failed: companyName: Company name is required"],
    ["companyName not a string", { companyName: 7 }, "Validation failed: companyName: Invalid input: expected string, received number"],
    ["contactEmail missing", { contactEmail: undefined }, "Validation failed: contactEmail: Contact email is required"],
    ["contactEmail invalid", { contactEmail: "not-an-email" }, "Validation failed: contactEmail: Invalid email address"],
    ["customerReference missing", { customerReference: undefined }, "Validation failed: customerReference: Customer reference is required"],
    [
      "customerReference too long",
      { customerReference: "x".repeat(201) },
      "Validation failed: customerReference: Customer reference must be at most 200 characters",
    ],
    [
      "no assets at all",
      { assetsDomains: [], assetsEmails: [] },
      "Validation failed: assetsDomains: At least one of assetsDomains or assetsEmails is required",
    ],
    ["assetsDomains not a list", { assetsDomains: "acme.example" }, "Validation failed: assetsDomains: Expected a list of strings"],
    [
      "a URL as domain, naming its host",
      { assetsDomains: ["acme.example", "https://Shop.Acme.example/login"] },
      "Validation failed: assetsDomains.1: Invalid domain: a host name is wanted, not a URL (send shop.acme.example)",
    ],
    [
      "a host with a path as domain",
      { assetsDomains: ["acme.example/about"] },
      "Validation failed: assetsDomains.0: Invalid domain: a host name is wanted, not a URL (send acme.example)",
    ],
    [
      "a URL without a usable host",
      { assetsDomains: ["http://localhost:8080/"] },
      "Validation failed: assetsDomains.0: Invalid domain: a host name is wanted, not a URL",
    ],
    ["an invalid domain", { assetsDomains: ["not a domain"] }, "Validation failed: assetsDomains.0: Invalid domain"],
    ["an IP address as domain", { assetsDomains: ["10.0.0.1"] }, "Validation failed: assetsDomains.0: Invalid domain"],
    ["an invalid asset e-mail", { assetsEmails: ["ceo@"] }, "Validation failed: assetsEmails.0: Invalid email address"],
    ["empty alertRecipients", { alertRecipients: [] }, "Validation failed: alertRecipients: At least one alert recipient is required"],
    ["an invalid alert recipient", { alertRecipients: ["x"] }, "Validation failed: alertRecipients.0: Invalid email address"],
    ["price missing", { price: undefined }, "Validation failed: price: Price is required"],
    ["price as text", { price: "49.99" }, "Validation failed: price: Invalid input: expected number, received string"],
    ["price negative", { price: -1 }, "Validation failed: price: Price must be at least 0"],
    ["price with fractions of cents", { price: 1.005 }, "Validation failed: price: Price must have at most 2 decimal places"],
    [
      "billedFromDate not a date-time",
      { billedFromDate: "June 1st" },
      "Validation failed: billedFromDate: Billed-from date must be an ISO 8601 date-time",
    ],
    ["currencyCode missing", { currencyCode: undefined }, "Validation failed: currencyCode: Currency code is required"],
    [
      "currencyCode unknown",
      { currencyCode: "XYZ" },
      "Validation failed: currencyCode: Currency code must be an ISO 4217 code such as USD",
    ],
    ["planId malformed", { planId: "basic" }, "Validation failed: planId: Plan ID must be a valid UUID"],
    ["planType unknown", { planType: "gold" }, 'Validation failed: planType: Unknown plan type "gold"; expected one of basic, plus, pro'],
    ["enrolType unknown", { enrolType: "auto" }, 'Validation failed: enrolType: Enrol type must be "opt-in" or "opt-out"'],
    [
      "sendMonthlyReport as text",
      { sendMonthlyReport: "true" },
      "Validation failed: sendMonthlyReport: Invalid input: expected boolean, received string",
    ],
    [
      "localeCode malformed",
      { localeCode: "english" },
      "Validation failed: localeCode: localeCode must be one of sv-SE, nb-NO, fi-FI, da-DK, en-GB, nl-NL",
    ],
    // de-DE was accepted once, and the customer's portal and e-mails came out in English.
    [
      "localeCode the service does not have",
      { localeCode: "de-DE" },
      "Validation failed: localeCode: localeCode must be one of sv-SE, nb-NO, fi-FI, da-DK, en-GB, nl-NL",
    ],
    [
      "localeCode of a language it has, another region",
      { localeCode: "en-US" },
      "Validation failed: localeCode: localeCode must be one of sv-SE, nb-NO, fi-FI, da-DK, en-GB, nl-NL",
    ],
    [
      "localeCode not a string",
      { localeCode: 7 },
      "Validation failed: localeCode: localeCode must be one of sv-SE, nb-NO, fi-FI, da-DK, en-GB, nl-NL",
    ],
    ["an active customer without a price", { price: undefined, status: "active" }, "Validation failed: price: Price is required"],
    [
      "an active customer without a currency",
      { currencyCode: undefined, status: "active" },
      "Validation failed: currencyCode: Currency code is required",
    ],
    ["status not onboardable", { status: "inactive" }, 'Validation failed: status: Status must be "active" or "prospect"'],
  ])("refuses %s with 400 and a clear message, writing nothing", async (_name, overrides, message) => {
    const before = await testDb.db.customer.count();
    const res = await server.api.post(ONBOARD, onboardBody(overrides), org.partner.headers);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: message });
    expect(await testDb.db.customer.count()).toBe(before);
  });

  it("normalizes the locale code", async () => {
    const res = await server.api.post(ONBOARD, onboardBody({ localeCode: "da-dk" }), org.partner.headers);
    expect((await customerState(res.body.customerId)).customer!.localeCode).toBe("da-DK");
  });

  it.each(["sv-SE", "nb-NO", "fi-FI", "da-DK", "en-GB", "nl-NL"])("accepts the locale %s", async (localeCode) => {
    const res = await server.api.post(ONBOARD, onboardBody({ localeCode }), org.partner.headers);
    expect(res.status).toBe(200);
    expect((await customerState(res.body.customerId)).customer!.localeCode).toBe(localeCode);
  });

  it("onboards a prospect without price or currency: price 0, no currency; upgrading it keeps both", async () => {
    const res = await server.api.post(
      ONBOARD,
      onboardBody({ status: "prospect", price: undefined, currencyCode: undefined }),
      org.partner.headers,
    );
    expect(res.status).toBe(200);
    const { customer } = await customerState(res.body.customerId);
    expect(customer).toMatchObject({ status: "prospect", currencyCode: null });
    expect(customer!.price.toNumber()).toBe(0);
    const info = await server.api.get(`/api/v1/integrations/customer/${res.body.customerId}/info`, org.partner.headers);
    expect(info.body).toMatchObject({ success: true, price: 0, status: "prospect" });

    const upgraded = await server.api.post(
      "/api/v1/integrations/customer/upgrade",
      { customerId: res.body.customerId },
      org.partner.headers,
    );
    expect(upgraded.status).toBe(200);
    const after = (await customerState(res.body.customerId)).customer!;
    expect(after).toMatchObject({ status: "active", currencyCode: null });
    expect(after.price.toNumber()).toBe(0);
    // Billed from now on: PATCH info sets its price and currency.
    const billed = await server.api.patch(
      `/api/v1/integrations/customer/${res.body.customerId}/info`,
      { price: 19.5, currencyCode: "eur" },
      org.partner.headers,
    );
    expect(billed.status).toBe(200);
    const priced = (await customerState(res.body.customerId)).customer!;
    expect(priced.currencyCode).toBe("EUR");
    expect(priced.price.toNumber()).toBe(19.5);
  });

  it("keeps a prospect's price and currency when given", async () => {
    const res = await server.api.post(ONBOARD, onboardBody({ status: "prospect", price: 12.5, currencyCode: "sek" }), org.partner.headers);
    expect(res.status).toBe(200);
    const { customer } = await customerState(res.body.customerId);
    expect(customer).toMatchObject({ status: "prospect", currencyCode: "SEK" });
    expect(customer!.price.toNumber()).toBe(12.5);
  });

  it("answers a duplicate reference with 409", async () => {
    const body = onboardBody();
    expect((await server.api.post(ONBOARD, body, org.partner.headers)).status).toBe(200);
    const res = await server.api.post(ONBOARD, body, org.partner.headers);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ success: false, error: `A customer with reference "${body.customerReference}" already exists` });
  });

  it("answers invalid JSON with 400 'Invalid JSON in request body'", async () => {
    const res = await server.api.post(ONBOARD, "{companyName:", org.partner.headers);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: "Invalid JSON in request body" });
  });

  it("requires the partner headers and the partner's own key", async () => {
    const missing = await server.api.post(ONBOARD, onboardBody(), { "SW-API-KEY": org.partner.apiKey });
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ success: false, error: "Partner ID and API key are required in headers" });
    for (const headers of [org.onBehalfHeaders, { ...org.partner.headers, "SW-API-KEY": otherOrg.partner.apiKey }]) {
      const res = await server.api.post(ONBOARD, onboardBody(), headers);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ success: false, error: "Failed to verify org API key" });
    }
  });

  it("answers an unexpected failure with 500 'Failed to onboard customer' and rolls everything back", async () => {
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const restore = await failInsertsInto(testDb.db, "outbox_events");
    try {
      const res = await server.api.post(ONBOARD, onboardBody({ customerReference: "FAIL-500" }), org.partner.headers);
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ success: false, error: "Failed to onboard customer" });
    } finally {
      await restore();
      stderr.mockRestore();
    }
    expect(await testDb.db.customer.count({ where: { reference: "FAIL-500" } })).toBe(0);
  });
});
