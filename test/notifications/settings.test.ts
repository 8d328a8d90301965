import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContext } from "../../server/api/context";
import { createUiCaller } from "../../server/api/ui/root";
import type { UiSession } from "../../server/api/ui/session";
import { getCustomerInfo } from "../../server/customers/info";
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
    const active = await createTestCustomer(testDb.db, org.partner.id, {
      alertRecipients: ["a@acme.example", "b@acme.example"],
      sendMonthlyReport: false,
    });
    await optOut(testDb.db, { customerId: active, kind: "monthly_report", email: "B@acme.example" });
    expect(await notificationSettings(testDb.db, active)).toEqual({
      breachAlerts: true,
      monthlyReport: false,
      locale: "en-GB",
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
    expect(await testDb.db.customer.findUniqueOrThrow({ where: { id: customerId } })).toMatchObject({
      shouldReceiveBreachAlerts: false,
      sendMonthlyReport: true,
    });

    await expect(
      updateNotificationSettings(testDb.db, customerId, {
        monthlyReport: false,
        recipients: [{ email: "stranger@else.example", kind: "breach_alert", receive: false }],
      }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST", message: "stranger@else.example is not an alert recipient of this customer" });
    expect(await notificationSettings(testDb.db, customerId)).toEqual(changed);

    const back = await updateNotificationSettings(testDb.db, customerId, {
      breachAlerts: true,
      recipients: [{ email: "a@acme.example", kind: "breach_alert", receive: true }],
    });
    expect(back.breachAlerts).toBe(true);
    expect(back.recipients[0]).toEqual({ email: "a@acme.example", breach_alert: true, monthly_report: true });
  });
});

describe("the portal's settings procedures", () => {
  const portalOf = (session?: UiSession) => createUiCaller(createContext(testDb.db, new Headers(), randomUUID(), session)).portal;
  const customerSession = (customerId: string): UiSession => ({
    kind: "customer",
    customerId,
    portalUserId: randomUUID(),
    email: "it@acme.example",
    accessExpiresAt: Math.floor(Date.now() / 1000) + 3600,
  });

  it("show and change the signed-in customer's own settings only", async () => {
    const mine = await createTestCustomer(testDb.db, org.partner.id, { alertRecipients: ["a@acme.example"] });
    const other = await createTestCustomer(testDb.db, org.partner.id, { alertRecipients: ["a@acme.example"] });
    const portal = portalOf(customerSession(mine));
    expect(await portal.notificationSettings()).toEqual(await notificationSettings(testDb.db, mine));
    await portal.updateNotificationSettings({
      monthlyReport: false,
      recipients: [{ email: "a@acme.example", kind: "breach_alert", receive: false }],
    });
    expect(await notificationSettings(testDb.db, mine)).toMatchObject({
      monthlyReport: false,
      recipients: [{ email: "a@acme.example", breach_alert: false }],
    });
    expect(await notificationSettings(testDb.db, other)).toMatchObject({
      monthlyReport: true,
      recipients: [{ email: "a@acme.example", breach_alert: true }],
    });
    await expect(
      portal.updateNotificationSettings({ recipients: [{ email: "b@acme.example", kind: "monthly_report", receive: true }] }),
    ).rejects.toMatchObject({
      cause: { code: "BAD_REQUEST" },
    });
  });

  it("offer the language: the portal's, the e-mails' and the partner's breach list's default", async () => {
    const customerId = await createTestCustomer(testDb.db, org.partner.id, { localeCode: "da-DK" });
    const portal = portalOf(customerSession(customerId));
    expect(await portal.notificationSettings()).toMatchObject({ locale: "da-DK" });
    expect(await portal.updateNotificationSettings({ locale: "nl-NL" })).toMatchObject({ locale: "nl-NL", monthlyReport: true });
    expect(await portal.me()).toMatchObject({ locale: "nl-NL" });
    expect(await getCustomerInfo(testDb.db, org.partner.id, customerId)).toMatchObject({ localeCode: "nl-NL" });
    await expect(portal.updateNotificationSettings({ locale: "de-DE" as "nl-NL" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });

  it("need a signed-in customer with a current access token", async () => {
    const customerId = await createTestCustomer(testDb.db, org.partner.id);
    const expired = { ...customerSession(customerId), accessExpiresAt: Math.floor(Date.now() / 1000) - 1 };
    const staff: UiSession = {
      kind: "staff",
      staffId: randomUUID(),
      distributorId: org.distributor.id,
      email: "s@example.com",
      name: null,
    };
    for (const session of [undefined, expired, staff]) {
      await expect(portalOf(session).notificationSettings()).rejects.toMatchObject({ cause: { code: "UNAUTHENTICATED" } });
      await expect(portalOf(session).updateNotificationSettings({ monthlyReport: false })).rejects.toMatchObject({
        cause: { code: "UNAUTHENTICATED" },
      });
    }
    expect((await notificationSettings(testDb.db, customerId)).monthlyReport).toBe(true);
  });
});
