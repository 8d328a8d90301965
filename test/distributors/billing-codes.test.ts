import { beforeAll, describe, expect, it } from "vitest";
import { createBillingCode, getBillingCode, listBillingCodes } from "../../server/distributors/billing-codes";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { restTestBed } from "../helpers/rest";

const { testDb, server } = restTestBed();
let orgX: TestOrg;
let orgY: TestOrg;
let empty: TestOrg;
let codes: Array<{ id: number; code: string; price: number }>;

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
    codes.push({ id, code: `SW-${i}`, price });
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
    expect(res.body).toEqual({ id: codes[0]!.id, code: "SW-1", price: 2.5 });
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
