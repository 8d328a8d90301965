import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { updateNotificationSettings, notificationSettings } from "../../server/notifications/settings";
import { optOut } from "../../server/notifications/unsubscribe";
import { createTestCustomer } from "../helpers/customers";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";

let testDb: TestDatabase;
let org: TestOrg;

beforeAll(async () => {
  testDb = await createTestDatabase();
  org = await createTestOrg(testDb.db);
});
afterAll(async () => {
  await testDb?.close();
});

describe("a customer's e-mail settings", () => {
  it("show what is sent: alerts (prospects only when enabled), the monthly report, each recipient's kinds", async () => {
    const active = await createTestCustomer(testDb.db, org.partner.id, { alertRecipients: ["a@acme.example", "b@acme.example"], sendMonthlyReport: false });
    await optOut(testDb.db, { customerId: active, kind: "monthly_report", email: "B@acme.example" });
    expect(await notificationSettings(testDb.db, active)).toEqual({
      breachAlerts: true,
      monthlyReport: false,
      partnerSendsEmails: true,
      recipients: [
        { email: "a@acme.example", breach_alert: true, monthly_report: true },
        { email: "b@acme.example", breach_alert: true, monthly_report: false },
      ],
    });
    const prospect = await createTestCustomer(testDb.db, org.partner.id, { status: "prospect" });
    expect(await notificationSettings(testDb.db, prospect)).toMatchObject({ breachAlerts: false });
    const enabled = await createTestCustomer(testDb.db, org.partner.id, { status: "prospect", shouldReceiveBreachAlerts: true });
    expect(await notificationSettings(testDb.db, enabled)).toMatchObject({ breachAlerts: true });
  });

  it("change in one go, and refuse an address that is not an alert recipient without changing anything", async () => {
    const customerId = await createTestCustomer(testDb.db, org.partner.id, { alertRecipients: ["a@acme.example", "b@acme.example"] });
    const changed = await updateNotificationSettings(testDb.db, customerId, {
      breachAlerts: false,
      recipients: [
        { email: "A@acme.example", kind: "breach_alert", receive: false },
        { email: "b@acme.example", kind: "monthly_report", receive: false },
      ],
    });
    expect(changed).toMatchObject({
      breachAlerts: false,
      monthlyReport: true,
      recipients: [
        { email: "a@acme.example", breach_alert: false, monthly_report: true },
        { email: "b@acme.example", breach_alert: true, monthly_report: false },
      ],
    });
    expect(await testDb.db.customer.findUniqueOrThrow({ where: { id: customerId } })).toMatchObject({ shouldReceiveBreachAlerts: false, sendMonthlyReport: true });

    await expect(
      updateNotificationSettings(testDb.db, customerId, {
        monthlyReport: false,
        recipients: [{ email: "stranger@else.example", kind: "breach_alert", receive: false }],
      }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST", message: "stranger@else.example is not an alert recipient of this customer" });
    expect(await notificationSettings(testDb.db, customerId)).toEqual(changed);

    const back = await updateNotificationSettings(testDb.db, customerId, { breachAlerts: true, recipients: [{ email: "a@acme.example", kind: "breach_alert", receive: true }] });
    expect(back.breachAlerts).toBe(true);
    expect(back.recipients[0]).toEqual({ email: "a@acme.example", breach_alert: true, monthly_report: true });
  });
});
