import { randomUUID } from "node:crypto";
import type { Db } from "../../server/db/client";
import type { TestCustomer } from "./webhook-fixtures";

/**
 * A catalogue breach and its breach instance at a customer, as the findings service writes them,
 * for channel tests (channels read the catalogue breach's data classes for a finding's severity).
 */
export async function createBreachInstance(
  db: Db,
  customer: TestCustomer,
  emails: string[],
  breach: { name?: string; dataClasses?: string[]; isSensitive?: boolean; isStealerLog?: boolean } = {},
) {
  const name = breach.name ?? `Breach${randomUUID().slice(0, 8)}`;
  const catalogue = await db.breach.create({
    data: {
      name,
      title: name,
      breachDate: new Date("2024-01-01"),
      addedDate: new Date("2024-02-01T00:00:00Z"),
      modifiedDate: new Date("2024-02-01T00:00:00Z"),
      dataClasses: breach.dataClasses ?? ["Email addresses"],
      isSensitive: breach.isSensitive ?? false,
      isStealerLog: breach.isStealerLog ?? false,
    },
  });
  const instance = await db.customerBreach.create({ data: { customerId: customer.id, breachId: catalogue.id, emails } });
  return { breachId: catalogue.id, instanceId: instance.id, name };
}
