import { describe, expect, it } from "vitest";
import { isBreachMuted, setBreachMuted } from "../../server/customers/mutes";
import { createBreachTestCustomer } from "../helpers/breach-fixtures";
import { addCustomerBreach, createTestBreach } from "../helpers/customers";
import { createTestOrg } from "../helpers/fixtures";
import { restTestBed } from "../helpers/rest";

const { testDb, server } = restTestBed();
const path = (customerId: string) => `/api/v1/integrations/customer/${customerId}/mutes`;

describe('the mutes REST paths (docs/notifications.md, "Mutes")', () => {
  it("mute a mailbox and a breach, list them, change an end, delete one; errors in the envelope", async () => {
    const org = await createTestOrg(testDb.db, "Mutes API");
    const other = await createTestOrg(testDb.db, "Other partner");
    const customerId = (await createBreachTestCustomer(testDb.db, org.partner.id)).id;
    const breach = await createTestBreach(testDb.db);
    const instanceId = (await addCustomerBreach(testDb.db, customerId, breach.id)).id;
    const headers = org.partner.headers;

    const mailbox = await server.api.call("POST", path(customerId), { body: { email: "Left@Acme.example" }, headers });
    expect(mailbox.status).toBe(200);
    expect(mailbox.body).toMatchObject({
      success: true,
      mute: { email: "left@acme.example", breachId: null, until: null, mutedBy: "partner" },
    });
    const until = new Date(Date.now() + 86_400_000).toISOString();
    const ofBreach = await server.api.call("POST", path(customerId), { body: { breachId: instanceId, until }, headers });
    expect(ofBreach.body).toMatchObject({ mute: { email: null, breachId: instanceId, breachName: breach.name, until } });
    const again = await server.api.call("POST", path(customerId), { body: { email: "left@acme.example", until }, headers });
    expect(again.body).toMatchObject({ mute: { id: (mailbox.body as { mute: { id: string } }).mute.id, until } });

    const listed = await server.api.get(path(customerId), headers);
    expect((listed.body as { mutes: unknown[] }).mutes).toHaveLength(2);

    const refusals: Array<[unknown, number, string]> = [
      [{}, 400, "At least one of email and breachId must be provided"],
      [{ email: "a@acme.example", until: "2020-01-01T00:00:00Z" }, 400, "until must be in the future"],
      [{ email: "a@acme.example", until: "tomorrow" }, 400, "Validation failed: until: until must be an ISO 8601 date-time"],
      [{ breachId: "not-a-breach" }, 404, "Breach not found for this customer"],
    ];
    for (const [body, status, error] of refusals) {
      const answer = await server.api.call("POST", path(customerId), { body, headers });
      expect([answer.status, answer.body]).toEqual([status, { success: false, error }]);
    }
    const foreign = await server.api.get(path(customerId), other.partner.headers);
    expect(foreign.status).toBe(404);

    const removed = await server.api.call("DELETE", `${path(customerId)}/${(ofBreach.body as { mute: { id: string } }).mute.id}`, {
      headers,
    });
    expect(removed.body).toEqual({ success: true });
    const gone = await server.api.call("DELETE", `${path(customerId)}/${(ofBreach.body as { mute: { id: string } }).mute.id}`, { headers });
    expect(gone.status).toBe(404);

    // The portal's toggle: the customer mutes every mailbox of the breach, and unmutes it.
    await setBreachMuted(testDb.db, customerId, instanceId, true);
    expect(await isBreachMuted(testDb.db, customerId, instanceId)).toBe(true);
    await setBreachMuted(testDb.db, customerId, instanceId, false);
    expect(await isBreachMuted(testDb.db, customerId, instanceId)).toBe(false);
  });
});
