import { randomUUID } from "node:crypto";
import type { Db } from "../../server/db/client";
import { createBreachTestCustomer } from "../helpers/breach-fixtures";
import { addCustomerBreach } from "../helpers/customers";

/** A customer of the partner with mailboxes, one of them a directory user who left (inactive). */
export async function customerWithBreach(db: Db, partnerId: string, options: { sensitive?: boolean } = {}) {
  const tag = randomUUID().slice(0, 8);
  const emails = [`ann@${tag}.example`, `bob@${tag}.example`];
  const left = `gone@${tag}.example`;
  const customer = await createBreachTestCustomer(db, partnerId, { status: "active", emails: [...emails, left], name: `Acme ${tag}` });
  await db.monitoredAsset.updateMany({ where: { customerId: customer.id, value: left }, data: { active: false, source: "directory" } });
  const breach = await db.breach.create({
    data: {
      name: `Breach${tag}`,
      title: `Breach ${tag}`,
      breachDate: new Date("2024-03-01"),
      addedDate: new Date("2024-04-01T00:00:00Z"),
      modifiedDate: new Date("2024-04-01T00:00:00Z"),
      dataClasses: options.sensitive === false ? ["Email addresses"] : ["Email addresses", "Passwords"],
    },
  });
  const instance = await addCustomerBreach(db, customer.id, breach.id, { emails: [...emails, left] });
  return { customerId: customer.id, instanceId: instance.id, emails, left, tag };
}

/** The partner's connection id. */
export async function connectionIdOf(db: Db, partnerId: string): Promise<string> {
  return (await db.psaConnection.findUniqueOrThrow({ where: { partnerId }, select: { id: true } })).id;
}
