import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { UiSession } from "../../server/api/ui/session";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { restTestBed } from "../helpers/rest";
import { clientError, createStaffSession, startUiServer } from "../helpers/ui";

/**
 * Input hygiene (docs/api.md, "Text fields"): a NUL character anywhere in the input, and a
 * control character in a single-line field, answer 400 naming the field and store nothing.
 * Before, a NUL reached PostgreSQL and answered 500, and CR/LF were stored in names.
 */
const { testDb, server } = restTestBed();
let ui: Awaited<ReturnType<typeof startUiServer>>;
let org: TestOrg;
let staff: UiSession;

beforeAll(async () => {
  ui = await startUiServer(testDb.db);
  org = await createTestOrg(testDb.db, "Hygiene");
  staff = await createStaffSession(testDb.db, org.distributor.id);
});
afterAll(async () => {
  await ui?.close();
});

const ONBOARD = "/api/v1/integrations/customer/onboard";
const PARTNERS = "/api/v1/distributors/partners";
const onboardBody = (fields: Record<string, unknown>) => ({
  companyName: "Acme Ltd",
  contactEmail: "it@acme.example",
  customerReference: `ACME-${Math.random().toString(36).slice(2, 8)}`,
  assetsDomains: ["acme.example"],
  price: 10,
  currencyCode: "USD",
  ...fields,
});
const customerCount = () => testDb.db.customer.count({ where: { partnerId: org.partner.id } });
const partnerCount = () => testDb.db.partner.count({ where: { distributorId: org.distributor.id } });

describe("onboarding (partner API, over HTTP)", () => {
  it.each([
    [{ companyName: "Acme\u0000Ltd" }, "Validation failed: companyName: Must not contain a NUL character"],
    [{ customerReference: "\u0000" }, "Validation failed: customerReference: Must not contain a NUL character"],
    [{ assetsDomains: ["acme.example", "evil\u0000.example"] }, "Validation failed: assetsDomains.1: Must not contain a NUL character"],
    [{ contactEmail: "it\u0000@acme.example" }, "Validation failed: contactEmail: Must not contain a NUL character"],
    [{ companyName: "Acme\r\nX-Injected: yes" }, "Validation failed: companyName: Company name must not contain control characters"],
    [{ companyName: "Acme\nLtd" }, "Validation failed: companyName: Company name must not contain control characters"],
    [{ customerReference: "ACME\t001" }, "Validation failed: customerReference: Customer reference must not contain control characters"],
    [
      { customerReference: "ACME\u2028001" },
      "Validation failed: customerReference: Customer reference must not contain control characters",
    ],
  ])("refuses %j with 400 naming the field, and stores nothing", async (fields, error) => {
    const before = await customerCount();
    const res = await server.api.post(ONBOARD, onboardBody(fields), org.partner.headers);
    expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { success: false, error } });
    expect(await customerCount()).toBe(before);
  });

  it.each(["0000-01-01T00:00:00Z", "0001-01-01T00:30:00+01:00", "9999-12-31T23:00:00-02:00"])(
    "refuses billedFromDate %s (outside the years 1 to 9999) with 400, not 500",
    async (billedFromDate) => {
      const before = await customerCount();
      const res = await server.api.post(ONBOARD, onboardBody({ billedFromDate }), org.partner.headers);
      expect({ status: res.status, body: res.body }).toEqual({
        status: 400,
        body: { success: false, error: "Validation failed: billedFromDate: Billed-from date must be an ISO 8601 date-time" },
      });
      expect(await customerCount()).toBe(before);
    },
  );

  it("still trims surrounding whitespace (a trailing newline is not part of the name)", async () => {
    const res = await server.api.post(ONBOARD, onboardBody({ companyName: "  Acme Ltd\r\n" }), org.partner.headers);
    expect(res.status).toBe(200);
    const stored = await testDb.db.customer.findUniqueOrThrow({ where: { id: res.body.customerId }, select: { companyName: true } });
    expect(stored.companyName).toBe("Acme Ltd");
  });

  it("checks the credentials before the fields: a NUL without a key is 401", async () => {
    const res = await server.api.post(ONBOARD, onboardBody({ companyName: "Acme\u0000" }), {});
    expect(res.status).toBe(401);
  });
});

describe("partners (distributor API, over HTTP)", () => {
  it.each([
    [{ name: "Partner\u0000" }, "Validation failed: name: Must not contain a NUL character"],
    [{ name: "Partner\r\nTwo" }, "Validation failed: name: Name must not contain control characters"],
    [{ name: "Partner", account_reference: "ref\n2" }, "Validation failed: account_reference: Must not contain control characters"],
    [{ name: "Partner", product_type: "Std\u0085" }, "Validation failed: product_type: Must not contain control characters"],
    [{ name: "Partner", ["odd\u0000key"]: 1 }, "Validation failed: odd\\u0000key: Must not contain a NUL character"],
  ])("create refuses %j with 400 naming the field, and stores nothing", async (body, error) => {
    const before = await partnerCount();
    const res = await server.api.post(PARTNERS, body, org.distributor.headers);
    expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { success: false, error } });
    expect(await partnerCount()).toBe(before);
  });

  it("update refuses a NUL and CR/LF in the name and keeps the stored one", async () => {
    for (const [name, error] of [
      ["New\u0000name", "Validation failed: name: Must not contain a NUL character"],
      ["New\r\nname", "Validation failed: name: Name must not contain control characters"],
    ]) {
      const res = await server.api.patch(`${PARTNERS}/${org.partner.id}`, { name }, org.distributor.headers);
      expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { success: false, error } });
    }
    expect((await testDb.db.partner.findUniqueOrThrow({ where: { id: org.partner.id } })).name).toBe("Hygiene partner");
  });
});

describe("paths whose validation message names no field", () => {
  it("name the field in the message (query parameters)", async () => {
    const res = await server.api.get("/api/v1/integrations/breach?name=Adobe%00", org.partner.headers);
    expect({ status: res.status, body: res.body }).toEqual({
      status: 400,
      body: { success: false, error: "Invalid query parameters: name must not contain a NUL character" },
    });
  });

  it("name the field in the message (JSON body)", async () => {
    const res = await server.api.post(
      "/api/v1/integrations/webhooks/550e8400-e29b-41d4-a716-446655440000/recover",
      { since: "2026-01-01T00:00:00Z\u0000" },
      org.partner.headers,
    );
    expect({ status: res.status, body: res.body }).toEqual({
      status: 400,
      body: { success: false, error: "since must not contain a NUL character" },
    });
  });
});

describe("the admin UI's tRPC inputs (over HTTP)", () => {
  it("refuses a NUL or CR/LF in a new partner's name, naming the field, and stores nothing", async () => {
    const client = ui.clientAs(staff);
    const before = await partnerCount();
    for (const [name, message] of [
      ["Partner\u0000", "Must not contain a NUL character"],
      ["Partner\r\nTwo", "Name must not contain control characters"],
    ] as const) {
      const error = await clientError(client.admin.partners.create.mutate({ name }));
      expect({ status: error.data?.httpStatus, fields: (error.data as { fieldErrors?: Record<string, string> }).fieldErrors }).toEqual({
        status: 400,
        fields: { name: message },
      });
    }
    expect(await partnerCount()).toBe(before);
  });

  it("refuses a NUL in a billing code", async () => {
    const error = await clientError(ui.clientAs(staff).admin.billingCodes.create.mutate({ code: "A\u0000", price: 1 }));
    expect((error.data as { fieldErrors?: Record<string, string> }).fieldErrors).toEqual({ code: "Must not contain a NUL character" });
    expect(await testDb.db.billingCode.count({ where: { distributorId: org.distributor.id } })).toBe(0);
  });
});
