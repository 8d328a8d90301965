import { randomUUID } from "node:crypto";
import type { Db } from "../../server/db/client";
import { recountCustomerFigures } from "../../server/customers/figures";
import { onboardCustomer, type OnboardInput } from "../../server/customers/onboard";

/** A complete, valid onboarding request body (unique reference each call). */
export function onboardBody(overrides: Record<string, unknown> = {}) {
  const reference = `REF-${randomUUID().slice(0, 8)}`;
  return {
    companyName: "Acme Ltd",
    contactEmail: "it@acme.example",
    customerReference: reference,
    assetsDomains: ["acme.example"],
    assetsEmails: ["ceo@acme.example"],
    alertRecipients: ["alerts@acme.example"],
    price: 49.99,
    billedFromDate: "2026-06-01T00:00:00.000Z",
    currencyCode: "USD",
    planType: "basic",
    enrolType: "opt-in",
    sendMonthlyReport: true,
    localeCode: "en-GB",
    ...overrides,
  };
}

/** Onboards a customer through the service; returns its id. */
export async function createTestCustomer(db: Db, partnerId: string, overrides: Partial<OnboardInput> = {}): Promise<string> {
  const { billedFromDate, ...body } = onboardBody();
  const { customerId } = await onboardCustomer(db, partnerId, {
    ...body,
    enrolType: "opt-in",
    billedFromDate: new Date(billedFromDate),
    ...overrides,
  });
  return customerId;
}

/** A catalogue breach (the breach issue imports real ones; tests only need a row to point at). */
export async function createTestBreach(db: Db, name = `Breach${randomUUID().slice(0, 8)}`) {
  return db.breach.create({
    data: {
      name,
      title: name,
      breachDate: new Date("2020-01-01"),
      addedDate: new Date("2020-02-01T00:00:00Z"),
      modifiedDate: new Date("2020-02-01T00:00:00Z"),
      dataClasses: ["Email addresses", "Passwords"],
    },
    select: { id: true, name: true },
  });
}

/** Records that a breach was found for a customer, as the breach issue's scan does. */
export async function addCustomerBreach(
  db: Db,
  customerId: string,
  breachId: string,
  options: { resolved?: boolean; emails?: string[] } = {},
) {
  const instance = await db.customerBreach.create({
    data: { customerId, breachId, emails: options.emails ?? ["ceo@acme.example"], resolved: options.resolved ?? false },
    select: { id: true },
  });
  await recountCustomerFigures(db, [customerId]);
  return instance;
}
