import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { uiRouter } from "../../server/api/ui/root";
import { authenticatePartner } from "../../server/auth/api-keys";
import type { UiSession } from "../../server/api/ui/session";
import { createBillingCode } from "../../server/distributors/billing-codes";
import { createPartner } from "../../server/distributors/partners";
import { generateSecret } from "../../server/webhooks/secrets";
import { addCustomerBreach, createTestBreach, createTestCustomer } from "../helpers/customers";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { clientError, createStaffSession, startUiServer, uiCallerAs } from "../helpers/ui";

let testDb: TestDatabase;
let ui: Awaited<ReturnType<typeof startUiServer>>;
let orgX: TestOrg;
let orgY: TestOrg;
let staffX: UiSession;
let staffY: UiSession;

beforeAll(async () => {
  // Endpoints point at a closed port on 127.0.0.1 (nothing here waits for their deliveries).
  vi.stubEnv("WEBHOOK_ALLOW_PRIVATE_URLS", "true");
  testDb = await createTestDatabase();
  ui = await startUiServer(testDb.db);
  orgX = await createTestOrg(testDb.db, "X");
  orgY = await createTestOrg(testDb.db, "Y");
  staffX = await createStaffSession(testDb.db, orgX.distributor.id);
  staffY = await createStaffSession(testDb.db, orgY.distributor.id);
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await ui?.close();
  await testDb?.close();
});

const asX = () => uiCallerAs(testDb.db, staffX);
const partnerHeaders = (partnerId: string, apiKey: string) => new Headers({ "SW-PARTNER-ID": partnerId, "SW-API-KEY": apiKey });

describe("without a staff session", () => {
  /** Every admin procedure, with the path the client calls it by. */
  const adminProcedures = Object.keys(uiRouter._def.procedures).filter((path) => path.startsWith("admin."));

  it("every admin procedure answers 401 'Sign in to continue', before looking at its input", async () => {
    expect(adminProcedures.length).toBeGreaterThan(20);
    const client = ui.clientAs(undefined);
    for (const path of adminProcedures) {
      const procedure = path.split(".").reduce<any>((node, key) => node[key], client);
      const type = (uiRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>)[path]!._def.type;
      const error = await clientError(type === "query" ? procedure.query({}) : procedure.mutate({}));
      expect({ path, message: error.message, status: error.data?.httpStatus }).toEqual({
        path,
        message: "Sign in to continue",
        status: 401,
      });
    }
  });
});

describe("scoping: staff of distributor X never reach distributor Y's data", () => {
  let yKeyId: string;
  let yEndpointId: string;
  let yDeliveryId: string;
  let ySecretId: string;

  beforeAll(async () => {
    const asY = uiCallerAs(testDb.db, staffY);
    yKeyId = (await asY.admin.partners.issueApiKey({ partnerId: orgY.partner.id })).id;
    const created = await asY.admin.webhooks.create({ url: "http://127.0.0.1:9/hook", eventTypes: ["customer.created"] });
    yEndpointId = created.webhook.id;
    yDeliveryId = (await asY.admin.webhooks.sendTest({ id: yEndpointId })).id;
    ySecretId = (await asY.admin.webhooks.secrets())[0]!.id;
  });

  it("Y's partner is not found by any partner procedure, exactly like an unknown id", async () => {
    const partnerId = orgY.partner.id;
    const calls = [
      () => asX().admin.partners.get({ partnerId }),
      () => asX().admin.partners.update({ partnerId, name: "Taken over" }),
      () => asX().admin.partners.apiKeys({ partnerId }),
      () => asX().admin.partners.issueApiKey({ partnerId }),
      () => asX().admin.partners.revokeApiKey({ partnerId, keyId: yKeyId }),
      () => asX().admin.partners.customers({ partnerId }),
      () => asX().admin.partners.get({ partnerId: "00000000-0000-4000-8000-000000000000" }),
    ];
    for (const call of calls) await expect(call()).rejects.toMatchObject({ message: "Partner not found", cause: { code: "NOT_FOUND" } });
    await expect(asX().admin.partners.get({ partnerId: "not-a-uuid" })).rejects.toThrow("Partner ID must be a valid UUID");
    expect((await testDb.db.partner.findUniqueOrThrow({ where: { id: partnerId } })).name).toBe("Y partner");
    expect((await testDb.db.apiKey.findUniqueOrThrow({ where: { id: yKeyId } })).revokedAt).toBeNull();
  });

  it("Y's key cannot be revoked through X's own partner either", async () => {
    await expect(asX().admin.partners.revokeApiKey({ partnerId: orgX.partner.id, keyId: yKeyId })).rejects.toThrow("API key not found");
    expect((await testDb.db.apiKey.findUniqueOrThrow({ where: { id: yKeyId } })).revokedAt).toBeNull();
  });

  it("Y's webhook, its deliveries and its secrets are not found", async () => {
    const calls = [
      () => asX().admin.webhooks.get({ id: yEndpointId }),
      () => asX().admin.webhooks.update({ id: yEndpointId, enabled: false }),
      () => asX().admin.webhooks.delete({ id: yEndpointId }),
      () => asX().admin.webhooks.deliveries({ id: yEndpointId }),
      () => asX().admin.webhooks.requeueDelivery({ id: yEndpointId, deliveryId: yDeliveryId }),
      () => asX().admin.webhooks.sendTest({ id: yEndpointId }),
    ];
    for (const call of calls) await expect(call()).rejects.toThrow("Webhook not found");
    await expect(asX().admin.webhooks.deactivateSecret({ secretId: ySecretId })).rejects.toThrow("Signing secret not found");
    expect(await asX().admin.webhooks.list()).toEqual([]);
    expect(await asX().admin.webhooks.secrets()).toEqual([]);
    expect(await testDb.db.webhookSecret.count({ where: { id: ySecretId } })).toBe(1);
    expect((await testDb.db.webhookEndpoint.findUniqueOrThrow({ where: { id: yEndpointId } })).enabled).toBe(true);
  });

  it("lists, billing codes, analytics and billing show only X's own", async () => {
    await createBillingCode(testDb.db, { distributorId: orgY.distributor.id, code: "Y-ONLY", price: 1 });
    await createTestCustomer(testDb.db, orgY.partner.id);
    const partners = await asX().admin.partners.list({ search: "partner" });
    expect(partners.partners.map((item) => item.partner.uuid)).not.toContain(orgY.partner.id);
    expect((await asX().admin.partners.list({ search: "Y partner" })).partners).toEqual([]);
    expect((await asX().admin.billingCodes.list({})).data.map((code) => code.code)).not.toContain("Y-ONLY");
    const analytics = await asX().admin.overview.analytics();
    expect(analytics.partners.map((partner) => partner.partnerId)).not.toContain(orgY.partner.id);
    const billing = await asX().admin.overview.billing({});
    expect(billing.lines.map((line) => line.partnerId)).not.toContain(orgY.partner.id);
  });

  it("over HTTP too: Y's partner is a 404 for X's session", async () => {
    const error = await clientError(ui.clientAs(staffX).admin.partners.get.query({ partnerId: orgY.partner.id }));
    expect(error.message).toBe("Partner not found");
    expect(error.data?.httpStatus).toBe(404);
    expect((await ui.clientAs(staffY).admin.partners.get.query({ partnerId: orgY.partner.id })).name).toBe("Y partner");
  });
});

describe("partners", () => {
  const FIELDS = {
    name: "Northwind Resellers",
    contact_email: "ops@northwind.example",
    reply_to_email: "noreply@northwind.example",
    product_type: "Standard",
    account_reference: "NW-100%_",
    monthly_churn_limit: 5,
    basic_billing_code: "NW-B",
    plus_billing_code: null,
    pro_billing_code: null,
    send_customer_welcome_emails: false,
    send_transactional_emails: true,
  };

  it("are created and edited with the distributor API's fields", async () => {
    await asX().admin.billingCodes.create({ code: "NW-B", price: 2 });
    await asX().admin.billingCodes.create({ code: "NW-P", price: 3 });
    const { uuid } = await asX().admin.partners.create(FIELDS);
    expect(await asX().admin.partners.get({ partnerId: uuid })).toEqual({ uuid, ...FIELDS });
    const updated = await asX().admin.partners.update({ partnerId: uuid, monthly_churn_limit: null, plus_billing_code: "NW-P" });
    expect(updated).toEqual({ uuid, ...FIELDS, monthly_churn_limit: null, plus_billing_code: "NW-P" });
  });

  it("refuse invalid fields over HTTP with one message per field, nothing written", async () => {
    const before = await testDb.db.partner.count();
    const error = await clientError(
      ui.clientAs(staffX).admin.partners.create.mutate({ ...FIELDS, name: " ", contact_email: "not an address", monthly_churn_limit: 1.5 }),
    );
    expect(error.data?.httpStatus).toBe(400);
    expect(error.message).toBe("Please correct the highlighted fields");
    expect((error.data as { fieldErrors?: Record<string, string> }).fieldErrors).toEqual({
      name: "Name is required",
      contact_email: "Invalid email address",
      monthly_churn_limit: "Must be a whole number",
    });
    expect(await testDb.db.partner.count()).toBe(before);
  });

  it("are listed by name, searched in name, reference and contact e-mail (any case, wildcards literal), paged", async () => {
    const distributorId = (await createTestOrg(testDb.db, "Listing")).distributor.id;
    const staff = await createStaffSession(testDb.db, distributorId);
    for (let index = 1; index <= 23; index++) {
      await createPartner(testDb.db, {
        distributorId,
        name: `Reseller ${String(index).padStart(2, "0")}`,
        account_reference: `ACC-${index}`,
      });
    }
    await createPartner(testDb.db, {
      distributorId,
      name: "Odd one",
      contact_email: "Billing@100Percent.example",
      account_reference: "50%_off",
    });
    const caller = uiCallerAs(testDb.db, staff);

    const first = await caller.admin.partners.list({});
    expect(first.pagination).toEqual({ totalCount: 25, page: 1, pageSize: 20, hasNextPage: true });
    expect(first.partners.map((item) => item.partner.name).slice(0, 3)).toEqual(["Listing partner", "Odd one", "Reseller 01"]);
    const second = await caller.admin.partners.list({ page: 2 });
    expect(second.partners.map((item) => item.partner.name)).toEqual([
      "Reseller 19",
      "Reseller 20",
      "Reseller 21",
      "Reseller 22",
      "Reseller 23",
    ]);

    const names = async (search: string) => (await caller.admin.partners.list({ search })).partners.map((item) => item.partner.name);
    expect(await names("reseller 1")).toEqual([
      "Reseller 10",
      "Reseller 11",
      "Reseller 12",
      "Reseller 13",
      "Reseller 14",
      "Reseller 15",
      "Reseller 16",
      "Reseller 17",
      "Reseller 18",
      "Reseller 19",
    ]);
    expect(await names("acc-23")).toEqual(["Reseller 23"]);
    expect(await names("100percent")).toEqual(["Odd one"]);
    expect(await names("%_")).toEqual(["Odd one"]);
    expect(await names("_")).toEqual(["Odd one"]);
    expect(await names("  ")).toHaveLength(20);
  });

  it("are listed with their customer counts and active keys", async () => {
    const distributorId = (await createTestOrg(testDb.db, "Counted")).distributor.id;
    const { id: partnerId } = await createPartner(testDb.db, { distributorId, name: "Counted one" });
    await createTestCustomer(testDb.db, partnerId);
    await createTestCustomer(testDb.db, partnerId, { status: "prospect" });
    const caller = uiCallerAs(testDb.db, await createStaffSession(testDb.db, distributorId));
    await caller.admin.partners.issueApiKey({ partnerId });
    const revoked = await caller.admin.partners.issueApiKey({ partnerId });
    await caller.admin.partners.revokeApiKey({ partnerId, keyId: revoked.id });
    const [item] = (await caller.admin.partners.list({ search: "Counted one" })).partners;
    expect(item).toMatchObject({
      customers: { total: 2, active: 1 },
      activeApiKeys: 1,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
  });
});

describe("partner API keys", () => {
  it("are issued once, work against the partner API, are listed without the key, and stop working when revoked", async () => {
    const partnerId = orgX.partner.id;
    const issued = await asX().admin.partners.issueApiKey({ partnerId });
    expect(issued.apiKey).toMatch(/^expmon_p_/);
    const caller = await authenticatePartner(testDb.db, partnerHeaders(partnerId, issued.apiKey), { allowDistributorKey: false });
    expect(caller.partnerId).toBe(partnerId);

    const keys = await asX().admin.partners.apiKeys({ partnerId });
    const listed = keys.find((key) => key.id === issued.id)!;
    expect(listed).toEqual({
      id: issued.id,
      label: `issued in the admin UI by ${staffX.email}`,
      createdAt: expect.stringMatching(/Z$/),
      lastUsedAt: expect.anything(),
      revokedAt: null,
    });
    // not even the start of the key: the list names keys by id
    expect(JSON.stringify(keys)).not.toContain(issued.apiKey.slice(0, 12));

    await asX().admin.partners.revokeApiKey({ partnerId, keyId: issued.id });
    await expect(authenticatePartner(testDb.db, partnerHeaders(partnerId, issued.apiKey), { allowDistributorKey: false })).rejects.toThrow(
      "Failed to verify org API key",
    );
    expect((await asX().admin.partners.apiKeys({ partnerId })).find((key) => key.id === issued.id)!.revokedAt).not.toBeNull();
  });
});

describe("a partner's customers", () => {
  it("are listed newest first with status, breach count and threat score, filtered by status", async () => {
    const { id: partnerId } = await createPartner(testDb.db, { distributorId: orgX.distributor.id, name: "With customers" });
    const older = await createTestCustomer(testDb.db, partnerId, { companyName: "Older Ltd" });
    const newer = await createTestCustomer(testDb.db, partnerId, { companyName: "Newer Ltd", status: "prospect", planType: "plus" });
    await testDb.db.customer.update({ where: { id: older }, data: { threatScore: 42, lastScannedAt: new Date("2026-01-02T03:04:05Z") } });
    await addCustomerBreach(testDb.db, older, (await createTestBreach(testDb.db)).id);
    await addCustomerBreach(testDb.db, older, (await createTestBreach(testDb.db)).id, { resolved: true });

    const all = await asX().admin.partners.customers({ partnerId });
    expect(all.pagination).toEqual({ totalCount: 2, page: 1, pageSize: 25, hasNextPage: false });
    expect(all.customers.map((customer) => customer.customerId)).toEqual([newer, older]);
    expect(all.customers[1]).toMatchObject({
      companyName: "Older Ltd",
      customerStatus: "active",
      planType: "basic",
      breachCount: 2,
      breachStatus: true,
      threatScore: 42,
      lastScannedAt: "2026-01-02T03:04:05.000Z",
    });
    expect(all.customers[0]).toMatchObject({
      companyName: "Newer Ltd",
      customerStatus: "prospect",
      planType: "plus",
      breachCount: 0,
      threatScore: 0,
      lastScannedAt: null,
    });
    const prospects = await asX().admin.partners.customers({ partnerId, status: "prospect" });
    expect(prospects.customers.map((customer) => customer.customerId)).toEqual([newer]);
  });
});

describe("billing codes and plans", () => {
  it("creates a billing code and refuses a duplicate or a bad price", async () => {
    const created = await asX().admin.billingCodes.create({ code: "X-BASIC", price: 3.25 });
    expect((await asX().admin.billingCodes.list({})).data).toContainEqual({
      id: created.id,
      code: "X-BASIC",
      price: 3.25,
      currency: "EUR",
      retired: false,
    });
    await expect(asX().admin.billingCodes.create({ code: "X-BASIC", price: 1 })).rejects.toMatchObject({
      message: "Billing code X-BASIC already exists",
      cause: { code: "CONFLICT" },
    });
    const error = await clientError(ui.clientAs(staffX).admin.billingCodes.create.mutate({ code: "X-CHEAP", price: 1.005 }));
    expect((error.data as { fieldErrors?: Record<string, string> }).fieldErrors).toEqual({ price: "Price can have at most 2 decimals" });
  });

  it("lists the system plans", async () => {
    expect((await asX().admin.plans.list()).map((plan) => plan.planType)).toEqual(["basic", "plus", "pro"]);
  });
});

describe("distributor webhooks", () => {
  it("registers an endpoint with the distributor's signing secret, sends a test event and lists it in the log", async () => {
    const distributorId = (await createTestOrg(testDb.db, "Hooks")).distributor.id;
    const caller = uiCallerAs(testDb.db, await createStaffSession(testDb.db, distributorId));
    const { webhook, secret } = await caller.admin.webhooks.create({
      url: "http://127.0.0.1:9/hook",
      eventTypes: ["customer.created", "customer.deleted"],
      maxAttempts: 2,
    });
    expect(webhook).toMatchObject({
      url: "http://127.0.0.1:9/hook",
      eventTypes: ["customer.created", "customer.deleted"],
      enabled: true,
      maxAttempts: 2,
    });
    const secrets = await caller.admin.webhooks.secrets();
    expect(secrets).toEqual([{ id: expect.any(String), status: "active", createdAt: expect.stringMatching(/Z$/) }]);
    expect(secret).toMatch(/^[0-9a-f-]{36}$/);

    const test = await caller.admin.webhooks.sendTest({ id: webhook.id, eventType: "customer.deleted" });
    expect(test).toMatchObject({ eventType: "customer.deleted", status: "pending", test: true, attempts: [] });
    const log = await caller.admin.webhooks.deliveries({ id: webhook.id });
    expect(log.deliveries.map((delivery) => delivery.id)).toEqual([test.id]);
    expect(log.pagination).toEqual({ totalCount: 1, page: 1, pageSize: 20, hasNextPage: false });
    // waiting for its attempt: retry now keeps it pending, due at once
    expect(await caller.admin.webhooks.requeueDelivery({ id: webhook.id, deliveryId: test.id })).toMatchObject({
      id: test.id,
      status: "pending",
    });

    const updated = await caller.admin.webhooks.update({ id: webhook.id, enabled: false, eventTypes: ["customer.breach.found"] });
    expect(updated).toMatchObject({ enabled: false, eventTypes: ["customer.breach.found"] });
    await caller.admin.webhooks.delete({ id: webhook.id });
    expect(await caller.admin.webhooks.list()).toEqual([]);
  });

  it("refuses an endpoint URL or event type the API refuses, with the API's messages", async () => {
    const error = await clientError(ui.clientAs(staffX).admin.webhooks.create.mutate({ url: "http://127.0.0.1:9/hook", eventTypes: [] }));
    expect((error.data as { fieldErrors?: Record<string, string> }).fieldErrors).toEqual({
      eventTypes: "At least one event type is required",
    });
    const unknownType = await clientError(
      ui.clientAs(staffX).admin.webhooks.create.mutate({ url: "http://127.0.0.1:9/hook", eventTypes: ["nope" as never] }),
    );
    expect((unknownType.data as { fieldErrors?: Record<string, string> }).fieldErrors).toEqual({
      "eventTypes.0": expect.stringContaining("Unknown event type"),
    });
  });

  it("generates, cycles and deactivates signing secrets; tokens are shown only when created", async () => {
    const distributorId = (await createTestOrg(testDb.db, "Secrets")).distributor.id;
    const caller = uiCallerAs(testDb.db, await createStaffSession(testDb.db, distributorId));
    const first = await caller.admin.webhooks.generateSecret();
    const second = await caller.admin.webhooks.cycleSecret();
    expect(second.token).not.toBe(first.token);
    const listed = await caller.admin.webhooks.secrets();
    expect(listed.map(({ id, status }) => ({ id, status }))).toEqual([
      { id: second.id, status: "active" },
      { id: first.id, status: "fallback" },
    ]);
    expect(JSON.stringify(listed)).not.toContain(first.token);
    await caller.admin.webhooks.deactivateSecret({ secretId: first.id });
    expect((await caller.admin.webhooks.secrets()).map((secret) => secret.id)).toEqual([second.id]);
    const replaced = await generateSecret(testDb.db, { distributorId });
    expect((await caller.admin.webhooks.secrets()).map((secret) => secret.id)).toEqual([replaced.id]);
    await expect(caller.admin.webhooks.deactivateSecret({ secretId: "nope" })).rejects.toThrow("Invalid secret ID");
  });
});

describe("overview", () => {
  it("sums the figures of all the distributor's partners and lists each", async () => {
    const distributorId = (await createTestOrg(testDb.db, "Overview")).distributor.id;
    const { id: second } = await createPartner(testDb.db, { distributorId, name: "A second partner" });
    const first = (await testDb.db.partner.findFirstOrThrow({ where: { distributorId, name: "Overview partner" } })).id;
    await createTestCustomer(testDb.db, first);
    await createTestCustomer(testDb.db, first, { status: "prospect" });
    const breached = await createTestCustomer(testDb.db, second, { assetsDomains: ["a.example", "b.example"], assetsEmails: [] });
    await addCustomerBreach(testDb.db, breached, (await createTestBreach(testDb.db)).id);

    const analytics = await uiCallerAs(testDb.db, await createStaffSession(testDb.db, distributorId)).admin.overview.analytics();
    expect(analytics.totals).toEqual({
      partners: 2,
      totalCustomers: 3,
      activeCustomers: 2,
      newCustomerLast30Days: 3,
      totalMonitoredDomains: 3,
      totalMonitoredEmails: 1,
      totalBreachesDetected: 1,
    });
    expect(analytics.partners).toEqual([
      {
        partnerId: second,
        name: "A second partner",
        totalCustomers: 1,
        activeCustomers: 1,
        newCustomerLast30Days: 1,
        totalMonitoredDomains: 2,
        totalMonitoredEmails: 0,
        totalBreachesDetected: 1,
      },
      {
        partnerId: first,
        name: "Overview partner",
        totalCustomers: 2,
        activeCustomers: 1,
        newCustomerLast30Days: 2,
        totalMonitoredDomains: 1,
        totalMonitoredEmails: 1,
        totalBreachesDetected: 0,
      },
    ]);
  });

  it("shows this month's billing by default and refuses a malformed month", async () => {
    const distributorId = (await createTestOrg(testDb.db, "Billing now")).distributor.id;
    const partnerId = (await testDb.db.partner.findFirstOrThrow({ where: { distributorId } })).id;
    await createTestCustomer(testDb.db, partnerId, { billedFromDate: undefined });
    const session = await createStaffSession(testDb.db, distributorId);
    const billing = await uiCallerAs(testDb.db, session).admin.overview.billing({});
    expect(billing.month).toBe(new Date().toISOString().slice(0, 7));
    expect(billing.lines).toEqual([expect.objectContaining({ partnerId, planType: "basic", activeCustomers: 1, billingCode: null })]);
    const error = await clientError(ui.clientAs(session).admin.overview.billing.query({ month: "2026-1" }));
    expect((error.data as { fieldErrors?: Record<string, string> }).fieldErrors).toEqual({ month: "Month must be given as YYYY-MM" });
  });
});
