import { beforeAll, describe, expect, it } from "vitest";
import {
  createBillingCode,
  deleteBillingCode,
  getBillingCode,
  listBillingCodes,
  setBillingCodeRetired,
  updateBillingCode,
} from "../../server/distributors/billing-codes";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { restTestBed } from "../helpers/rest";

const { testDb, server } = restTestBed();
let orgX: TestOrg;
let orgY: TestOrg;
let empty: TestOrg;
let codes: Array<{ id: number; code: string; price: number; currency: string; retired: boolean }>;

const LIST = "/api/v1/distributors/billing-codes";
const COUNT = 23;

beforeAll(async () => {
  orgX = await createTestOrg(testDb.db, "X");
  orgY = await createTestOrg(testDb.db, "Y");
  empty = await createTestOrg(testDb.db, "Empty");
  codes = [];
  for (let i = 1; i <= COUNT; i++) {
    const price = i === 1 ? 2.5 : i + 0.99;
    const { id } = await createBillingCode(testDb.db, { distributorId: orgX.distributor.id, code: `SW-${i}`, price });
    codes.push({ id, code: `SW-${i}`, price, currency: "EUR", retired: false });
  }
  await createBillingCode(testDb.db, { distributorId: orgY.distributor.id, code: "Y-ONLY", price: 1 });
});

describe("GET /api/v1/distributors/billing-codes", () => {
  it("defaults to page 1 of 10 with snake_case pagination", async () => {
    const res = await server.api.get(LIST, orgX.distributor.headers);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: codes.slice(0, 10),
      pagination: { total_count: COUNT, has_next_page: true, page: 1, per_page: 10 },
    });
  });

  it.each([
    [3, 10, 3, false],
    [2, 10, 10, true],
    [1, 100, COUNT, false],
    [1, 1, 1, true],
    [23, 1, 1, false],
    [4, 10, 0, false],
  ])("page %i of %i: %i codes, has_next_page %s", async (page, perPage, count, hasNext) => {
    const res = await server.api.get(`${LIST}?page=${page}&per_page=${perPage}`, orgX.distributor.headers);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(codes.slice((page - 1) * perPage, (page - 1) * perPage + perPage));
    expect(res.body.data).toHaveLength(count);
    expect(res.body.pagination).toEqual({ total_count: COUNT, has_next_page: hasNext, page, per_page: perPage });
  });

  it("answers an empty list for a distributor without codes, and never another distributor's", async () => {
    expect((await server.api.get(LIST, empty.distributor.headers)).body).toEqual({
      success: true,
      data: [],
      pagination: { total_count: 0, has_next_page: false, page: 1, per_page: 10 },
    });
    const y = await listBillingCodes(testDb.db, orgY.distributor.id, { page: 1, perPage: 100 });
    expect(y.data.map((c) => c.code)).toEqual(["Y-ONLY"]);
  });

  it.each([
    ["page=0", "page: Too small: expected number to be >=1"],
    ["page=-3", "page: Too small: expected number to be >=1"],
    ["page=x", "page: Invalid input: expected number, received string"],
    ["per_page=0", "per_page: Too small: expected number to be >=1"],
    ["per_page=101", "per_page: Too big: expected number to be <=100"],
    ["per_page=1.5", "per_page: Invalid input: expected int, received number"],
  ])("refuses %s with 400 '%s'", async (query, error) => {
    const res = await server.api.get(`${LIST}?${query}`, orgX.distributor.headers);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error });
  });

  it("requires distributor credentials", async () => {
    const res = await server.api.get(LIST, orgX.partner.headers);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, error: "Distributor ID and API key are required in headers" });
  });
});

describe("GET /api/v1/distributors/billing-codes/{billingCodeId}", () => {
  it("answers the bare record", async () => {
    const res = await server.api.get(`${LIST}/${codes[0]!.id}`, orgX.distributor.headers);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: codes[0]!.id, code: "SW-1", price: 2.5, currency: "EUR", retired: false });
  });

  it.each(["abc", "1.5", "-1", "1e3", "%20"])("refuses id '%s' with 400 'Billing code ID must be a number'", async (id) => {
    const res = await server.api.get(`${LIST}/${id}`, orgX.distributor.headers);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: "Billing code ID must be a number" });
  });

  it("answers unknown, out-of-range and other distributors' ids with 404 'Billing code not found'", async () => {
    const yCode = (await listBillingCodes(testDb.db, orgY.distributor.id, { page: 1, perPage: 1 })).data[0]!;
    for (const id of ["0", "999999", "99999999999", String(yCode.id)]) {
      const res = await server.api.get(`${LIST}/${id}`, orgX.distributor.headers);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ success: false, error: "Billing code not found" });
    }
    await expect(getBillingCode(testDb.db, orgX.distributor.id, yCode.id)).rejects.toMatchObject({ status: 404 });
  });
});

describe("billing codes are edited and retired, and partners' codes must be the distributor's", () => {
  const PARTNERS = "/api/v1/distributors/partners";

  it("the distributor API refuses a partner's billing code the distributor does not have, on create and on update (400, nothing written)", async () => {
    const before = await testDb.db.partner.count();
    const created = await server.api.post(PARTNERS, { name: "Coded", basic_billing_code: "NO-SUCH" }, orgX.distributor.headers);
    expect(created).toMatchObject({
      status: 400,
      body: { success: false, error: "Validation failed: basic_billing_code: Unknown billing code NO-SUCH" },
    });
    // another distributor's code is unknown too
    const theirs = await server.api.post(PARTNERS, { name: "Coded", pro_billing_code: "Y-ONLY" }, orgX.distributor.headers);
    expect(theirs).toMatchObject({ status: 400, body: { error: "Validation failed: pro_billing_code: Unknown billing code Y-ONLY" } });
    expect(await testDb.db.partner.count()).toBe(before);

    const good = await server.api.post(PARTNERS, { name: "Coded", basic_billing_code: "SW-1" }, orgX.distributor.headers);
    expect(good.status).toBe(200);
    const id = good.body.data.uuid;
    const patched = await server.api.patch(`${PARTNERS}/${id}`, { plus_billing_code: "NO-SUCH" }, orgX.distributor.headers);
    expect(patched).toMatchObject({
      status: 400,
      body: { success: false, error: "Validation failed: plus_billing_code: Unknown billing code NO-SUCH" },
    });
    expect((await server.api.get(`${PARTNERS}/${id}`, orgX.distributor.headers)).body).toMatchObject({
      basic_billing_code: "SW-1",
      plus_billing_code: null,
    });
  });

  it("edits a code's text, price and currency; a new text follows to the partners that use it", async () => {
    const { id } = await createBillingCode(testDb.db, { distributorId: orgX.distributor.id, code: "EDIT-ME", price: 1, currency: "sek" });
    expect(await getBillingCode(testDb.db, orgX.distributor.id, id)).toEqual({
      id,
      code: "EDIT-ME",
      price: 1,
      currency: "SEK",
      retired: false,
    });
    const partner = await server.api.post(PARTNERS, { name: "Follows", basic_billing_code: "EDIT-ME" }, orgX.distributor.headers);
    const updated = await updateBillingCode(testDb.db, orgX.distributor.id, id, { code: "EDITED", price: 7.25, currency: "USD" });
    expect(updated).toEqual({ id, code: "EDITED", price: 7.25, currency: "USD", retired: false });
    expect((await server.api.get(`${PARTNERS}/${partner.body.data.uuid}`, orgX.distributor.headers)).body.basic_billing_code).toBe(
      "EDITED",
    );
    await expect(updateBillingCode(testDb.db, orgX.distributor.id, id, { code: "SW-1" })).rejects.toMatchObject({
      message: "Billing code SW-1 already exists",
    });
    await expect(updateBillingCode(testDb.db, orgX.distributor.id, id, { currency: "XYZ" })).rejects.toMatchObject({
      message: "Validation failed: currency: Currency must be an ISO 4217 code such as EUR",
    });
    // another distributor's code is not found
    const yCode = (await listBillingCodes(testDb.db, orgY.distributor.id, { page: 1, perPage: 1 })).data[0]!;
    await expect(updateBillingCode(testDb.db, orgX.distributor.id, yCode.id, { price: 0 })).rejects.toMatchObject({ status: 404 });
  });

  it("a used code cannot be deleted, only retired: it stays with its partners and is not given to another", async () => {
    const { id } = await createBillingCode(testDb.db, { distributorId: orgX.distributor.id, code: "OLD", price: 3 });
    const holder = await server.api.post(PARTNERS, { name: "Holder", basic_billing_code: "OLD" }, orgX.distributor.headers);
    await expect(deleteBillingCode(testDb.db, orgX.distributor.id, id)).rejects.toMatchObject({
      status: 409,
      message: "Billing code OLD is used by 1 partner: retire it instead of deleting it",
    });
    expect(await setBillingCodeRetired(testDb.db, orgX.distributor.id, id, true)).toMatchObject({ code: "OLD", retired: true });
    // the API shows it retired
    expect((await server.api.get(`${LIST}/${id}`, orgX.distributor.headers)).body).toEqual({
      id,
      code: "OLD",
      price: 3,
      currency: "EUR",
      retired: true,
    });
    // the holder keeps it (a PATCH of another field is fine), another partner cannot take it
    const kept = await server.api.patch(
      `${PARTNERS}/${holder.body.data.uuid}`,
      { name: "Holder 2", basic_billing_code: "OLD" },
      orgX.distributor.headers,
    );
    expect(kept).toMatchObject({ status: 200, body: { basic_billing_code: "OLD" } });
    const taken = await server.api.post(PARTNERS, { name: "Taker", plus_billing_code: "OLD" }, orgX.distributor.headers);
    expect(taken).toMatchObject({ status: 400, body: { error: "Validation failed: plus_billing_code: Billing code OLD is retired" } });
    // brought back, it can be given again; unused, it can be deleted
    await setBillingCodeRetired(testDb.db, orgX.distributor.id, id, false);
    expect((await server.api.post(PARTNERS, { name: "Taker", plus_billing_code: "OLD" }, orgX.distributor.headers)).status).toBe(200);
    const { id: unused } = await createBillingCode(testDb.db, { distributorId: orgX.distributor.id, code: "UNUSED", price: 1 });
    await deleteBillingCode(testDb.db, orgX.distributor.id, unused);
    expect(await testDb.db.billingCode.count({ where: { id: unused } })).toBe(0);
  });
});
