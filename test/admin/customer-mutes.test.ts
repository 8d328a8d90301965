import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { UiSession } from "../../server/api/ui/session";
import { mutedMailboxes } from "../../server/notifications/quiet";
import { addCustomerBreach, createTestBreach, createTestCustomer } from "../helpers/customers";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { createStaffSession, uiCallerAs } from "../helpers/ui";

/**
 * A customer's mutes on its admin page (issue 41 item 6): staff (agents and above) add one (a
 * mailbox, a breach, or both; until a time or for good) and end one, through the partner API's
 * services and with its messages; what they mute is what the quiet ledger leaves out.
 */
let testDb: TestDatabase;
let org: TestOrg;
let other: TestOrg;
let agent: UiSession;

beforeAll(async () => {
  testDb = await createTestDatabase();
  org = await createTestOrg(testDb.db, "Mutes");
  other = await createTestOrg(testDb.db, "Other");
  agent = await createStaffSession(testDb.db, org.distributor.id, "agent");
});
afterAll(async () => {
  await testDb?.close();
});

describe("admin UI: a customer's mutes", () => {
  it("adds a mailbox mute, a breach mute with an end and one for both; lists them; ends one", async () => {
    const caller = uiCallerAs(testDb.db, agent);
    const customerId = await createTestCustomer(testDb.db, org.partner.id);
    const breach = await createTestBreach(testDb.db);
    const instance = await addCustomerBreach(testDb.db, customerId, breach.id, { emails: ["ann@acme.example", "bob@acme.example"] });
    const page = await caller.admin.customers.get({ customerId });
    expect(page.mutes).toEqual([]);
    expect(page.muteBreaches).toEqual([{ id: instance.id, title: breach.name }]);

    const mailbox = await caller.admin.customers.mute({ customerId, email: " Ann@Acme.example " });
    expect(mailbox).toMatchObject({ email: "ann@acme.example", breachId: null, until: null, mutedBy: "staff" });
    const until = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const wholeBreach = await caller.admin.customers.mute({ customerId, breachId: instance.id, until });
    expect(wholeBreach).toMatchObject({ email: null, breachId: instance.id, breachName: breach.name, until, mutedBy: "staff" });
    await caller.admin.customers.mute({ customerId, email: "bob@acme.example", breachId: instance.id });
    expect((await caller.admin.customers.get({ customerId })).mutes).toHaveLength(3);
    expect(
      [...(await mutedMailboxes(testDb.db, customerId, breach.id, ["ann@acme.example", "bob@acme.example", "cy@acme.example"]))].sort(),
    ).toEqual(["ann@acme.example", "bob@acme.example", "cy@acme.example"]);

    expect(await caller.admin.customers.unmute({ customerId, muteId: wholeBreach.id })).toEqual({ unmuted: true });
    expect(
      [...(await mutedMailboxes(testDb.db, customerId, breach.id, ["ann@acme.example", "bob@acme.example", "cy@acme.example"]))].sort(),
    ).toEqual(["ann@acme.example", "bob@acme.example"]);
    await expect(caller.admin.customers.unmute({ customerId, muteId: wholeBreach.id })).rejects.toThrow("Mute not found");
  });

  it("refuses what the API refuses, with its messages", async () => {
    const caller = uiCallerAs(testDb.db, agent);
    const customerId = await createTestCustomer(testDb.db, org.partner.id);
    await expect(caller.admin.customers.mute({ customerId })).rejects.toThrow("At least one of email and breachId must be provided");
    await expect(
      caller.admin.customers.mute({ customerId, email: "a@acme.example", until: new Date(Date.now() - 1000).toISOString() }),
    ).rejects.toThrow("until must be in the future");
    await expect(caller.admin.customers.mute({ customerId, email: "not an address" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(caller.admin.customers.mute({ customerId, until: "tomorrow", email: "a@acme.example" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    const elsewhere = await createTestCustomer(testDb.db, other.partner.id);
    await expect(caller.admin.customers.mute({ customerId, breachId: "00000000-0000-4000-8000-000000000000" })).rejects.toThrow(
      "Breach not found for this customer",
    );
    await expect(caller.admin.customers.mute({ customerId: elsewhere, email: "a@acme.example" })).rejects.toThrow("Customer not found");
    const foreign = await uiCallerAs(testDb.db, await createStaffSession(testDb.db, other.distributor.id, "agent")).admin.customers.mute({
      customerId: elsewhere,
      email: "a@acme.example",
    });
    await expect(caller.admin.customers.unmute({ customerId: elsewhere, muteId: foreign.id })).rejects.toThrow("Customer not found");
    await expect(caller.admin.customers.unmute({ customerId, muteId: foreign.id })).rejects.toThrow("Mute not found");
    expect(await testDb.db.notificationMute.count({ where: { customerId: elsewhere } })).toBe(1);
  });
});
