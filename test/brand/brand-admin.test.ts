import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { brandFor } from "../../server/brand/brand";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { createStaffSession, uiCallerAs } from "../helpers/ui";
import { hostileSvg, svgDataUrl } from "./fixtures";

let testDb: TestDatabase;
let org: TestOrg;
let other: TestOrg;

beforeAll(async () => {
  testDb = await createTestDatabase();
  org = await createTestOrg(testDb.db);
  other = await createTestOrg(testDb.db);
});
afterAll(async () => {
  await testDb?.close();
});

describe("the admin UI's brands", () => {
  it("sets the distributor's default and a partner's own, with the API's checks", async () => {
    const staff = uiCallerAs(testDb.db, await createStaffSession(testDb.db, org.distributor.id, "admin"));
    await staff.admin.brand.putDistributor({ name: "Default Co", supportEmail: "help@default.example" });
    const saved = await staff.admin.brand.putPartner({
      partnerId: org.partner.id,
      name: "Acme IT",
      logo: svgDataUrl(hostileSvg("http://127.0.0.1:9")),
      portalHost: "portal.admin-ui.test",
    });
    expect(saved.logo).toMatch(/^data:image\/png;base64,/);
    expect(await staff.admin.brand.partner({ partnerId: org.partner.id })).toEqual(saved);
    expect(await brandFor(testDb.db, { partnerId: org.partner.id })).toMatchObject({
      name: "Acme IT",
      supportEmail: "help@default.example",
      portalHost: "portal.admin-ui.test",
    });
    await expect(staff.admin.brand.putPartner({ partnerId: org.partner.id, primaryColor: "#fff000" })).rejects.toThrow(/contrast/);
  });

  it("refuses another distributor's partner, and a viewer's change", async () => {
    const staff = uiCallerAs(testDb.db, await createStaffSession(testDb.db, org.distributor.id, "admin"));
    await expect(staff.admin.brand.partner({ partnerId: other.partner.id })).rejects.toThrow("Partner not found");
    await expect(staff.admin.brand.putPartner({ partnerId: other.partner.id, name: "Hijack" })).rejects.toThrow("Partner not found");
    expect(await testDb.db.brand.count({ where: { partnerId: other.partner.id } })).toBe(0);
    const viewer = uiCallerAs(testDb.db, await createStaffSession(testDb.db, org.distributor.id, "viewer"));
    await expect(viewer.admin.brand.putDistributor({ name: "Nope" })).rejects.toThrow();
  });
});
