import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { UiSession } from "../../server/api/ui/session";
import { createPartner } from "../../server/distributors/partners";
import { createTestCustomer } from "../helpers/customers";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { createStaffSession, uiCallerAs } from "../helpers/ui";

/** The admin UI's customer search (issue 46 item 7): every partner's customers of the distributor, and no other distributor's. */
let testDb: TestDatabase;
let orgX: TestOrg;
let orgY: TestOrg;
let staffX: UiSession;
const tag = randomUUID().slice(0, 8);

beforeAll(async () => {
  testDb = await createTestDatabase();
  orgX = await createTestOrg(testDb.db, "Search X");
  orgY = await createTestOrg(testDb.db, "Search Y");
  staffX = await createStaffSession(testDb.db, orgX.distributor.id);
  const secondPartner = await createPartner(testDb.db, { distributorId: orgX.distributor.id, name: "Second partner of X" });
  await createTestCustomer(testDb.db, orgX.partner.id, {
    companyName: `Alpha ${tag}`,
    contactEmail: "it@alpha.example",
    assetsDomains: [`alpha-${tag}.example`],
  });
  await createTestCustomer(testDb.db, secondPartner.id, {
    companyName: `Beta 100%_${tag}`,
    contactEmail: "it@beta.example",
    assetsDomains: [`beta-${tag}.example`],
  });
  await createTestCustomer(testDb.db, orgY.partner.id, { companyName: `Alpha of Y ${tag}`, assetsDomains: [`alpha-y-${tag}.example`] });
});
afterAll(async () => {
  await testDb?.close();
});

const search = (text?: string) => uiCallerAs(testDb.db, staffX).admin.customers.search({ search: text, page: 1 });

describe("customer search", () => {
  it("finds customers of every partner of the distributor by company, domain or contact e-mail, any case", async () => {
    const all = await search(tag);
    expect(all.customers.map((customer) => [customer.companyName, customer.partnerName])).toEqual([
      [`Alpha ${tag}`, "Search X partner"],
      [`Beta 100%_${tag}`, "Second partner of X"],
    ]);
    expect(all.pagination).toEqual({ totalCount: 2, page: 1, pageSize: 25, hasNextPage: false });
    expect((await search(`BETA-${tag.toUpperCase()}.EXAMPLE`)).customers.map((customer) => customer.companyName)).toEqual([
      `Beta 100%_${tag}`,
    ]);
    expect((await search("it@alpha.example")).customers.map((customer) => customer.companyName)).toContain(`Alpha ${tag}`);
    expect((await search()).pagination.totalCount).toBe(2);
  });

  it("takes % and _ literally and never shows another distributor's customers", async () => {
    expect((await search("100%_")).customers.map((customer) => customer.companyName)).toEqual([`Beta 100%_${tag}`]);
    expect((await search("100%%")).customers).toEqual([]);
    expect((await search(`Alpha of Y ${tag}`)).customers).toEqual([]);
    expect((await search(`alpha-y-${tag}`)).customers).toEqual([]);
  });
});
