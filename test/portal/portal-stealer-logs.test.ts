import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContext } from "../../server/api/context";
import { createUiCaller } from "../../server/api/ui/root";
import type { UiSession } from "../../server/api/ui/session";
import { nextStepsFor, stealerLogSteps } from "../../server/breaches/catalogue/texts";
import { importStealerLogs } from "../../server/breaches/exposure-index/stealer-log-import";
import { localBreachSource } from "../../server/breaches/exposure-index/sources/local";
import { customerDomain } from "../../server/domains/domains";
import { markDomainVerified } from "../../server/domains/verify";
import { scanCustomer } from "../../server/findings/scanner";
import { LOCALE_CODES } from "../../server/i18n/locales";
import { portalMessages } from "../../server/i18n/translations";
import { hibpBreach, seedExposures, writeTempFile } from "../helpers/breach-fixtures";
import { createTestCustomer } from "../helpers/customers";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";

/**
 * The portal's stealer-log breach (docs/portal.md): the websites malware captured, by address,
 * with the stealer-log steps; only for addresses at a domain verified for the customer now;
 * prospects see the redacted entry alone.
 */
let testDb: TestDatabase;
let org: TestOrg;
let breachIds: Map<string, string>;
const DATA_CLASSES = ["Email addresses", "Passwords", "URLs"];

beforeAll(async () => {
  testDb = await createTestDatabase();
  org = await createTestOrg(testDb.db, "Portal stealer", { domainPolicy: "verified" });
  breachIds = await seedExposures(
    testDb.db,
    [hibpBreach("StealerPortal", { Title: "Stealer logs", IsStealerLog: true, DataClasses: DATA_CLASSES }), hibpBreach("ShopPortal")],
    {},
  );
});
afterAll(async () => {
  await testDb?.close();
});

/** A scanned customer of its own verified domain, with captures for two addresses and one at a domain it does not verify. */
async function signedInCustomer(options: { status?: "active" | "prospect"; localeCode?: string } = {}) {
  const tag = randomUUID().slice(0, 8);
  const [domain, other] = [`p${tag}.example`, `o${tag}.example`];
  await testDb.db.breachExposure.create({ data: { domain, email: `ceo@${domain}`, breachId: breachIds.get("ShopPortal")! } });
  const file = await writeTempFile(
    `portal-${tag}.csv`,
    [
      "email,website_domain,captured_at",
      `ceo@${domain},netflix.com,2025-03-01`,
      `ceo@${domain},bank.example,2025-03-04`,
      `cfo@${domain},mail.example,`,
      `ceo@${other},secret-bank.example,`,
    ].join("\n"),
  );
  await importStealerLogs(testDb.db, { breachName: "StealerPortal", file });
  const customerId = await createTestCustomer(testDb.db, org.partner.id, {
    status: options.status ?? "active",
    localeCode: options.localeCode ?? "en-GB",
    assetsDomains: [domain, other],
    assetsEmails: [`ceo@${other}`],
  });
  const row = await customerDomain(testDb.db, customerId, domain);
  await markDomainVerified(testDb.db, row.id, { method: "staff", by: "Test staff" });
  await scanCustomer(testDb.db, customerId, "onboard", localBreachSource);
  const instance = await testDb.db.customerBreach.findFirstOrThrow({
    where: { customerId, breachId: breachIds.get("StealerPortal")! },
    select: { id: true },
  });
  return { customerId, domain, other, domainRowId: row.id, instanceId: instance.id, portal: callerFor(customerId) };
}

function callerFor(customerId: string) {
  const session: UiSession = {
    kind: "customer",
    customerId,
    portalUserId: "00000000-0000-4000-8000-000000000001",
    email: "it@acme.example",
    accessExpiresAt: Math.floor(Date.now() / 1000) + 3600,
  };
  return createUiCaller(createContext(testDb.db, new Headers(), "req", session)).portal;
}

describe("the portal's stealer-log breach", () => {
  it("lists the websites captured per address at the verified domain, with the stealer-log steps", async () => {
    const { domain, other, instanceId, portal } = await signedInCustomer();
    const detail = await portal.getBreach({ breachId: instanceId });
    if (detail.redacted) throw new Error("expected the full view");
    expect(detail.breach.emails).toEqual([`ceo@${domain}`, `cfo@${domain}`]);
    expect(detail.breach.capturedSites).toEqual([
      { email: `ceo@${domain}`, websiteDomains: ["bank.example", "netflix.com"] },
      { email: `cfo@${domain}`, websiteDomains: ["mail.example"] },
    ]);
    expect(detail.breach.nextSteps).toEqual(stealerLogSteps("en-GB"));
    expect(detail.breach.nextSteps).not.toEqual(nextStepsFor(DATA_CLASSES, "en-GB"));
    // The monitored address at the unverified domain: withheld, its website never named.
    expect(JSON.stringify(detail)).not.toContain(other);
    expect(JSON.stringify(detail)).not.toContain("secret-bank.example");

    // An ordinary breach has neither.
    const list = await portal.listBreaches({});
    const shop = list.breaches.find((breach) => breach.id !== instanceId)!;
    const shopDetail = await portal.getBreach({ breachId: shop.id });
    expect(shopDetail.breach).not.toHaveProperty("capturedSites");
  });

  it("names no website once the domain is no longer verified", async () => {
    const { domainRowId, instanceId, portal } = await signedInCustomer();
    await testDb.db.customerDomain.update({ where: { id: domainRowId }, data: { status: "unverified" } });
    const detail = await portal.getBreach({ breachId: instanceId });
    if (detail.redacted) throw new Error("expected the full view");
    expect(detail.breach.capturedSites).toEqual([]);
    expect(JSON.stringify(detail)).not.toMatch(/netflix\.com|bank\.example|mail\.example/);
  });

  it("gives its steps in the customer's locale", async () => {
    const { instanceId, portal } = await signedInCustomer({ localeCode: "fi-FI" });
    const detail = await portal.getBreach({ breachId: instanceId });
    expect(detail.redacted === false && detail.breach.nextSteps).toEqual(stealerLogSteps("fi-FI"));
  });

  it("a prospect sees the redacted entry only: no websites, no steps", async () => {
    const { instanceId, portal } = await signedInCustomer({ status: "prospect" });
    const detail = await portal.getBreach({ breachId: instanceId });
    expect(detail.redacted).toBe(true);
    expect(Object.keys(detail.breach).sort()).toEqual(["emails", "id", "number", "resolved"]);
    expect(JSON.stringify(await portal.listBreaches({}))).not.toMatch(/netflix\.com|bank\.example|mail\.example|StealerPortal/);
  });

  it("has its heading and introduction in all six locales", () => {
    const english = portalMessages("en-GB").breach;
    expect(english.capturedSites).toBe("Malware on a device captured the passwords for these sites");
    for (const locale of LOCALE_CODES.filter((code) => code !== "en-GB")) {
      const texts = portalMessages(locale).breach;
      expect(texts.capturedSites, locale).not.toBe(english.capturedSites);
      expect(texts.stealerLogIntro, locale).not.toBe(english.stealerLogIntro);
      expect(stealerLogSteps(locale), locale).toHaveLength(4);
    }
  });
});
