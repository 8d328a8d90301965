import { describe, expect, it } from "vitest";
import { transitionCustomer } from "../../server/customers/lifecycle";
import { createEndpoint } from "../../server/webhooks/endpoints";
import { addCustomerBreach, createTestBreach } from "../helpers/customers";
import { createEndpointFixture, drainWebhooks, recordTestEvent } from "../helpers/webhook-fixtures";
import { webhookTestBed } from "../helpers/webhook-test-bed";

/**
 * Upgrading a prospect sends the partner its full findings (docs/webhooks.md, "Events"): the
 * prospect's breach events were redacted, so one customer.breach.found now lists every breach
 * instance with its name, on both protocols.
 */
const testDb = webhookTestBed();

describe("upgrading a prospect", () => {
  it("sends one customer.breach.found with every breach instance in full, after the redacted ones", async () => {
    const target = await testDb.receiver(() => ({ status: 500 }));
    const { org, customer } = await createEndpointFixture(testDb.db, target.url, {
      customer: { status: "prospect", emails: ["ceo@acme.example", "cto@acme.example"] },
      endpoint: { eventTypes: ["customer.breach.found"], signatureScheme: "standard-webhooks", maxAttempts: 1 },
    });
    const legacyTarget = await testDb.receiver(() => ({ status: 200 }));
    await createEndpoint(testDb.db, { partnerId: org.partner.id }, "legacy", { url: legacyTarget.url, eventTypes: ["breach.new"] });
    const [alpha, beta] = [await createTestBreach(testDb.db, "UpgradeAlpha"), await createTestBreach(testDb.db, "UpgradeBeta")];
    const first = await addCustomerBreach(testDb.db, customer.id, alpha.id, { emails: ["ceo@acme.example"] });
    const second = await addCustomerBreach(testDb.db, customer.id, beta.id, { emails: ["ceo@acme.example", "cto@acme.example"] });
    // as a prospect: the redacted shape
    await recordTestEvent(testDb.db, customer, "customer.breach.found", {
      breaches: [{ uuid: first.id, name: alpha.name, emails: ["ceo@acme.example"] }],
    });
    await drainWebhooks(testDb.db);
    expect(JSON.parse(target.requests[0]!.body).data).not.toHaveProperty("breaches.0.name");

    await transitionCustomer(testDb.db, org.partner.id, customer.id, "upgrade");
    await drainWebhooks(testDb.db);
    expect(target.requests).toHaveLength(2);
    const body = JSON.parse(target.requests[1]!.body);
    expect(body).toMatchObject({ type: "customer.breach.found", data: { customer: customer.ref } });
    expect(body.data.breaches).toEqual([
      { uuid: first.id, name: "UpgradeAlpha", emails: ["ceo@acme.example"] },
      { uuid: second.id, name: "UpgradeBeta", emails: ["ceo@acme.example", "cto@acme.example"] },
    ]);
    // the earlier protocol: breach.new, names withheld before, given now
    expect(legacyTarget.requests.map((request) => JSON.parse(request.body).data.new_breach_names)).toEqual([
      [],
      ["UpgradeAlpha", "UpgradeBeta"],
    ]);
  });

  it("sends nothing when the prospect has no findings", async () => {
    const target = await testDb.receiver(() => ({ status: 200 }));
    const { org, customer } = await createEndpointFixture(testDb.db, target.url, {
      customer: { status: "prospect", emails: ["a@acme.example"] },
      endpoint: { eventTypes: ["customer.breach.found"], signatureScheme: "standard-webhooks" },
    });
    await transitionCustomer(testDb.db, org.partner.id, customer.id, "upgrade");
    await drainWebhooks(testDb.db);
    expect(target.requests).toHaveLength(0);
  });
});
