import { beforeAll, describe, expect, it } from "vitest";
import { adminCommands } from "../../server/cli/admin";
import { createBillingCode } from "../../server/distributors/billing-codes";
import { createPartner, getPartner, updatePartner } from "../../server/distributors/partners";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { restTestBed } from "../helpers/rest";

const { testDb, server } = restTestBed();
let orgX: TestOrg;
let orgY: TestOrg;

beforeAll(async () => {
  orgX = await createTestOrg(testDb.db, "X");
  orgY = await createTestOrg(testDb.db, "Y");
  // a partner's billing codes are codes of its distributor
  for (const code of ["SW-SW1", "SW-SW2"]) await createBillingCode(testDb.db, { distributorId: orgX.distributor.id, code, price: 1 });
});

const PARTNERS = "/api/v1/distributors/partners";
const FULL_BODY = {
  name: "API Test Partner",
  contact_email: "partner@example.com",
  product_type: "Standard",
  reply_to_email: "noreply@example.com",
  account_reference: "ref-123",
  monthly_churn_limit: 10,
  basic_billing_code: "SW-SW1",
  plus_billing_code: "SW-SW2",
  pro_billing_code: null,
  send_customer_welcome_emails: true,
  send_transactional_emails: false,
};

describe("POST /api/v1/distributors/partners", () => {
  it("creates a partner of the calling distributor: {success, data: {uuid}}", async () => {
    const res = await server.api.post(PARTNERS, FULL_BODY, orgX.distributor.headers);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { uuid: expect.stringMatching(/^[0-9a-f-]{36}$/) } });
    const row = await testDb.db.partner.findUniqueOrThrow({ where: { id: res.body.data.uuid } });
    expect(row.distributorId).toBe(orgX.distributor.id);
    expect(await getPartner(testDb.db, orgX.distributor.id, row.id)).toEqual({ uuid: row.id, ...FULL_BODY });
  });

  it("needs only a name; the e-mail switches default to true", async () => {
    const res = await server.api.post(PARTNERS, { name: "  Minimal  " }, orgX.distributor.headers);
    expect(await getPartner(testDb.db, orgX.distributor.id, res.body.data.uuid)).toEqual({
      uuid: res.body.data.uuid,
      name: "Minimal",
      contact_email: null,
      product_type: null,
      reply_to_email: null,
      account_reference: null,
      monthly_churn_limit: null,
      basic_billing_code: null,
      plus_billing_code: null,
      pro_billing_code: null,
      send_customer_welcome_emails: true,
      send_transactional_emails: true,
    });
  });

  it.each([
    ["no name", {}, "Validation failed: name: Name is required"],
    ["a blank name", { name: " " }, "Validation failed: name: Name is required"],
    ["an invalid contact e-mail", { name: "P", contact_email: "x" }, "Validation failed: contact_email: Invalid email address"],
    ["an invalid reply-to e-mail", { name: "P", reply_to_email: "x@" }, "Validation failed: reply_to_email: Invalid email address"],
    ["a negative churn limit", { name: "P", monthly_churn_limit: -1 }, "Validation failed: monthly_churn_limit: Must be at least 0"],
    ["a fractional churn limit", { name: "P", monthly_churn_limit: 1.5 }, "Validation failed: monthly_churn_limit: Must be a whole number"],
    [
      "a switch as text",
      { name: "P", send_transactional_emails: "no" },
      "Validation failed: send_transactional_emails: Invalid input: expected boolean, received string",
    ],
  ])("refuses %s with 400", async (_name, body, error) => {
    const res = await server.api.post(PARTNERS, body, orgX.distributor.headers);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error });
  });

  it("answers invalid JSON with 'Request body must be valid JSON'", async () => {
    const res = await server.api.post(PARTNERS, "{name", orgX.distributor.headers);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: "Request body must be valid JSON" });
  });

  it("requires distributor credentials", async () => {
    const missing = await server.api.post(PARTNERS, FULL_BODY, {});
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ success: false, error: "Distributor ID and API key are required in headers" });
    const partnerKey = await server.api.post(PARTNERS, FULL_BODY, {
      "SW-DISTRIBUTOR-ID": orgX.distributor.id,
      "SW-API-KEY": orgX.partner.apiKey,
    });
    expect(partnerKey.status).toBe(401);
    expect(partnerKey.body).toEqual({ success: false, error: "Failed to verify org API key" });
  });
});

describe("GET and PATCH /api/v1/distributors/partners/{partnerUuid}", () => {
  it("GET answers the bare record", async () => {
    const { id } = await createPartner(testDb.db, { distributorId: orgX.distributor.id, ...FULL_BODY });
    const res = await server.api.get(`${PARTNERS}/${id}`, orgX.distributor.headers);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ uuid: id, ...FULL_BODY });
  });

  it("PATCH changes the fields given, clears with null, and answers the bare updated record", async () => {
    const { id } = await createPartner(testDb.db, { distributorId: orgX.distributor.id, ...FULL_BODY });
    const res = await server.api.patch(
      `${PARTNERS}/${id}`,
      { name: "Updated Mock Partner", monthly_churn_limit: 1, plus_billing_code: null, send_transactional_emails: true },
      orgX.distributor.headers,
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...FULL_BODY,
      uuid: id,
      name: "Updated Mock Partner",
      monthly_churn_limit: 1,
      plus_billing_code: null,
      send_transactional_emails: true,
    });
    expect(await getPartner(testDb.db, orgX.distributor.id, id)).toEqual(res.body);
  });

  it.each([
    ["an empty body", {}, "At least one partner field must be provided"],
    ["a blank name", { name: "" }, "Validation failed: name: Name is required"],
    ["a null name", { name: null }, "Validation failed: name: Name is required"],
    ["an invalid e-mail", { contact_email: "nope" }, "Validation failed: contact_email: Invalid email address"],
  ])("PATCH refuses %s with 400 and changes nothing", async (_name, body, error) => {
    const { id } = await createPartner(testDb.db, { distributorId: orgX.distributor.id, ...FULL_BODY });
    const res = await server.api.patch(`${PARTNERS}/${id}`, body, orgX.distributor.headers);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error });
    expect(await getPartner(testDb.db, orgX.distributor.id, id)).toEqual({ uuid: id, ...FULL_BODY });
  });

  it("GET and PATCH refuse a malformed id with 'Partner ID must be a valid UUID'", async () => {
    for (const res of [
      await server.api.get(`${PARTNERS}/not-a-uuid`, orgX.distributor.headers),
      await server.api.patch(`${PARTNERS}/not-a-uuid`, { name: "x" }, orgX.distributor.headers),
    ]) {
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ success: false, error: "Partner ID must be a valid UUID" });
    }
  });

  it("distributor Y sees none of X's partners: 404 'Partner not found', nothing changes", async () => {
    const { id } = await createPartner(testDb.db, { distributorId: orgX.distributor.id, ...FULL_BODY });
    for (const partnerId of [id, orgX.partner.id]) {
      const get = await server.api.get(`${PARTNERS}/${partnerId}`, orgY.distributor.headers);
      expect(get.status).toBe(404);
      expect(get.body).toEqual({ success: false, error: "Partner not found" });
      const patch = await server.api.patch(`${PARTNERS}/${partnerId}`, { name: "Stolen" }, orgY.distributor.headers);
      expect(patch.status).toBe(404);
      expect(patch.body).toEqual({ success: false, error: "Partner not found" });
    }
    expect((await getPartner(testDb.db, orgX.distributor.id, id)).name).toBe(FULL_BODY.name);
    const unknown = await server.api.get(`${PARTNERS}/${crypto.randomUUID()}`, orgX.distributor.headers);
    expect(unknown.status).toBe(404);
  });

  it("the service refuses another distributor's partner too", async () => {
    await expect(updatePartner(testDb.db, orgY.distributor.id, orgX.partner.id, { name: "x" })).rejects.toMatchObject({
      status: 404,
      message: "Partner not found",
    });
  });
});

describe("admin CLI create-partner still works", () => {
  it("creates a partner with a name and prints its id and first key", async () => {
    const out = (await adminCommands["create-partner"]!.run(testDb.db, { distributor: orgX.distributor.id, name: "CLI Partner" })) as {
      id: string;
      apiKey: string;
    };
    expect(await getPartner(testDb.db, orgX.distributor.id, out.id)).toMatchObject({ name: "CLI Partner" });
    expect(out.apiKey).toMatch(/^expmon_p_/);
  });
});
