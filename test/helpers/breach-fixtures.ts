import { randomUUID } from "node:crypto";
import { mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { importCatalogue, type HibpBreach } from "../../server/breaches/catalogue/catalogue";
import { insertExposures } from "../../server/breaches/exposure-index/exposures";
import { recountCustomerFigures } from "../../server/customers/figures";
import type { Db } from "../../server/db/client";

/**
 * A customer created directly with Prisma (the onboarding service belongs to the customer
 * issue), with its monitored domains and e-mail addresses.
 */
export async function createBreachTestCustomer(
  db: Db,
  partnerId: string,
  options: { status?: "prospect" | "active" | "inactive" | "dormant"; domains?: string[]; emails?: string[]; name?: string } = {},
) {
  const plan = await db.plan.findFirstOrThrow({ where: { isSystemDefault: true } });
  const reference = `REF-${randomUUID().slice(0, 8)}`;
  const customer = await db.customer.create({
    data: {
      partnerId,
      reference,
      companyName: options.name ?? `Company ${reference}`,
      contactEmail: `contact@${reference.toLowerCase()}.example`,
      currencyCode: "GBP",
      planId: plan.id,
      status: options.status ?? "active",
      assets: {
        create: [
          ...(options.domains ?? []).map((value) => ({ kind: "domain" as const, value, domain: value })),
          ...(options.emails ?? []).map((value) => ({ kind: "email" as const, value, domain: value.slice(value.indexOf("@") + 1) })),
        ],
      },
    },
  });
  await recountCustomerFigures(db, [customer.id]);
  return customer;
}

/** A breach in the HIBP v3 model with sensible defaults. */
export function hibpBreach(name: string, overrides: Partial<HibpBreach> = {}): HibpBreach {
  return {
    Name: name,
    Title: `${name} title`,
    Domain: `${name.toLowerCase()}.example`,
    BreachDate: "2024-01-15",
    AddedDate: "2024-02-01T10:00:00Z",
    ModifiedDate: "2024-02-01T10:00:00Z",
    PwnCount: 1000,
    Description: `In January 2024, <a href="https://${name.toLowerCase()}.example" target="_blank">${name}</a> suffered a breach &amp; lost data.`,
    LogoPath: `https://logos.example/${name}.png`,
    DataClasses: ["Email addresses", "Passwords"],
    IsVerified: true,
    IsFabricated: false,
    IsSensitive: false,
    IsRetired: false,
    IsSpamList: false,
    IsMalware: false,
    IsSubscriptionFree: false,
    IsStealerLog: false,
    ...overrides,
  };
}

/** Imports the breaches and the exposures (email -> breach names); returns breach ids by name. */
export async function seedExposures(db: Db, breaches: HibpBreach[], exposures: Record<string, string[]>): Promise<Map<string, string>> {
  const result = await importCatalogue(db, breaches);
  if (result.rejected.length > 0) throw new Error(`fixture catalogue rejected: ${JSON.stringify(result.rejected)}`);
  const rows = await db.breach.findMany({
    where: { name: { in: breaches.map((breach) => breach.Name) } },
    select: { id: true, name: true },
  });
  const ids = new Map(rows.map((row) => [row.name, row.id]));
  await insertExposures(
    db,
    Object.entries(exposures).flatMap(([email, names]) => names.map((name) => ({ email, breachId: ids.get(name)! }))),
  );
  return ids;
}

export async function writeTempFile(name: string, content: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "breach-test-"));
  const file = path.join(dir, name);
  await writeFile(file, content);
  return file;
}
