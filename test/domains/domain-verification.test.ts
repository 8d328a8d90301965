import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as getOpenApiDocument } from "../../app/api/openapi.json/route";
import { existsSync } from "node:fs";
import path from "node:path";
import { DOMAIN_VERIFICATION_MIGRATION, withholdRecordedSensitiveBreaches } from "../../server/domains/backfill";
import { customerDomain } from "../../server/domains/domains";
import { consumeVerificationLink, verificationLinkState } from "../../server/domains/email-link";
import { recheckDnsVerifications } from "../../server/domains/jobs";
import { portalDomains } from "../../server/domains/portal";
import { markDomainVerified } from "../../server/domains/verify";
import { createBreachTestCustomer, hibpBreach, seedExposures } from "../helpers/breach-fixtures";
import { onboardBody } from "../helpers/customers";
import { startDnsServer } from "../helpers/dns-server";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { runJobsUntilIdle } from "../helpers/jobs";
import { restTestBed } from "../helpers/rest";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp";

const SHOP = hibpBreach("Shop", { Title: "Shop", BreachDate: "2020-02-01" });
const FORUM = hibpBreach("Forum", { Title: "Forum", BreachDate: "2019-05-01" });
const ADULT = hibpBreach("AdultSite", { Title: "Adult Site", BreachDate: "2024-06-01", IsSensitive: true });

const { testDb, server } = restTestBed();
let dns: Awaited<ReturnType<typeof startDnsServer>>;
let smtp: TestSmtpServer;
let verifiedOrg: TestOrg;
let trustedOrg: TestOrg;
let otherOrg: TestOrg;

beforeAll(async () => {
  dns = await startDnsServer();
  smtp = await startSmtpServer();
  vi.stubEnv("DNS_SERVERS", dns.address);
  vi.stubEnv("SMTP_URL", smtp.url);
  verifiedOrg = await createTestOrg(testDb.db, "Verified", { domainPolicy: "verified" });
  trustedOrg = await createTestOrg(testDb.db, "Trusted", { domainPolicy: "trusted" });
  otherOrg = await createTestOrg(testDb.db, "Other", { domainPolicy: "verified" });
  // Each domain's mailboxes: `listed@` is what partners list explicitly, the others a scan discovers.
  const exposures: Record<string, string[]> = {};
  for (const domain of [
    "acme.example",
    "mail.example",
    "trust.example",
    "shared.example",
    "later.example",
    "rival.example",
    "flood.example",
  ]) {
    Object.assign(exposures, {
      [`alice@${domain}`]: ["Shop", "AdultSite"],
      [`bob@${domain}`]: ["Forum"],
      [`listed@${domain}`]: ["Shop", "AdultSite"],
    });
  }
  await seedExposures(testDb.db, [SHOP, FORUM, ADULT], exposures);
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await smtp?.close();
  await dns?.close();
});

async function onboard(org: TestOrg, domain: string, overrides: Record<string, unknown> = {}): Promise<string> {
  const res = await server.api.post(
    "/api/v1/integrations/customer/onboard",
    onboardBody({ assetsDomains: [domain], assetsEmails: [`listed@${domain}`], ...overrides }),
    org.partner.headers,
  );
  expect(res.status).toBe(200);
  await runJobsUntilIdle(testDb.db);
  return res.body.customerId;
}

async function assets(org: TestOrg, customerId: string) {
  const res = await server.api.get(`/api/v1/integrations/customer/${customerId}/assets`, org.partner.headers);
  expect(res.status).toBe(200);
  return res.body;
}

async function breaches(org: TestOrg, customerId: string): Promise<Array<[string, string[]]>> {
  const res = await server.api.get(`/api/v1/integrations/customer/${customerId}/breaches`, org.partner.headers);
  expect(res.status).toBe(200);
  return res.body.breaches.map((breach: { breachName: string; emails: string[] }) => [breach.breachName, breach.emails]);
}

async function domains(org: TestOrg, customerId: string, headers = org.partner.headers) {
  const res = await server.api.get(`/api/v1/integrations/customer/${customerId}/domains`, headers);
  expect(res.status).toBe(200);
  return res.body.data;
}

async function verify(org: TestOrg, customerId: string, domain: string, body: unknown, headers = org.partner.headers) {
  return server.api.post(`/api/v1/integrations/customer/${customerId}/domains/${domain}/verify`, body, headers);
}

/** Every address any outbox event or e-mail of the customer names: what reached the partner or the customer. */
async function revealedAddresses(customerId: string): Promise<string[]> {
  const events = await testDb.db.outboxEvent.findMany({ where: { customerId } });
  const mails = await testDb.db.notification.findMany({ where: { customerId } });
  const text = JSON.stringify([events.map((event) => event.payload), mails.map((mail) => mail.data)]);
  return [...new Set(text.match(/[a-z]+@[a-z.]+\.example/g) ?? [])].filter((address) => !address.startsWith("it@")).sort();
}

async function eventTypes(customerId: string): Promise<string[]> {
  const events = await testDb.db.outboxEvent.findMany({ where: { customerId }, orderBy: { sequence: "asc" } });
  return events.map((event) => event.type);
}

async function retrievedTitles(org: TestOrg, email: string): Promise<string[]> {
  const res = await server.api.post("/api/v1/integrations/breach/retrieve", { email }, org.partner.headers);
  expect(res.status).toBe(200);
  return res.body.breaches.map((breach: { title: string }) => breach.title);
}

describe("under the verified domain policy", () => {
  let customerId: string;
  beforeAll(async () => {
    customerId = await onboard(verifiedOrg, "acme.example");
  });

  it("counts what was found at an unverified domain but reveals no discovered address and no sensitive breach", async () => {
    expect(await assets(verifiedOrg, customerId)).toEqual({ success: true, domains: ["acme.example"], emails: ["listed@acme.example"] });
    expect(await breaches(verifiedOrg, customerId)).toEqual([["Shop", ["listed@acme.example"]]]);
    expect(await revealedAddresses(customerId)).toEqual(["listed@acme.example"]);
    const [entry] = await domains(verifiedOrg, customerId);
    expect(entry).toEqual({
      domain: "acme.example",
      status: "unverified",
      method: null,
      verifiedAt: null,
      dnsRecord: { type: "TXT", name: "acme.example", value: expect.stringMatching(/^exposure-monitor-verification=[0-9a-f]{32}$/) },
      exposedAddressCount: 3,
      breachCount: 3,
    });
    // The portal tells the customer which of them it shows nowhere yet: alice and bob (listed@ is under Breaches).
    expect(await portalDomains(testDb.db, customerId)).toMatchObject([{ exposedAddressCount: 3, hiddenAddressCount: 2 }]);
    // A discovered address unlocks no sensitive breach in the lookups either.
    expect(await retrievedTitles(verifiedOrg, "alice@acme.example")).toEqual(["Shop"]);
    expect(await retrievedTitles(verifiedOrg, "listed@acme.example")).toEqual(["Shop"]);
  });

  it("keeps the domain unverified with a reason while the TXT record is missing, and verifies it once published, revealing everything with its events", async () => {
    const missing = await verify(verifiedOrg, customerId, "acme.example", { method: "dns" });
    expect(missing.status).toBe(200);
    expect(missing.body).toEqual({
      success: true,
      domain: "acme.example",
      status: "unverified",
      reason: expect.stringContaining("No TXT record"),
    });
    dns.setTxt("acme.example", "v=spf1 -all");
    expect((await verify(verifiedOrg, customerId, "acme.example", { method: "dns" })).body.status).toBe("unverified");

    const typesBefore = await eventTypes(customerId);
    const [entry] = await domains(verifiedOrg, customerId);
    dns.setTxt("acme.example", entry.dnsRecord.value);
    const res = await verify(verifiedOrg, customerId, "acme.example", { method: "dns" });
    expect(res.body).toEqual({ success: true, domain: "acme.example", status: "verified" });

    expect((await assets(verifiedOrg, customerId)).emails).toEqual(["alice@acme.example", "bob@acme.example", "listed@acme.example"]);
    expect(await breaches(verifiedOrg, customerId)).toEqual([
      ["AdultSite", ["alice@acme.example", "listed@acme.example"]],
      ["Shop", ["alice@acme.example", "listed@acme.example"]],
      ["Forum", ["bob@acme.example"]],
    ]);
    expect((await eventTypes(customerId)).slice(typesBefore.length)).toEqual([
      "customer.domain.verified",
      "customer.asset.added",
      "customer.breach.found",
    ]);
    const verifiedEvent = await testDb.db.outboxEvent.findFirstOrThrow({ where: { customerId, type: "customer.domain.verified" } });
    expect(verifiedEvent.payload).toMatchObject({ domain: "acme.example", method: "dns", verifiedAt: expect.any(String) });
    const found = await testDb.db.outboxEvent.findMany({
      where: { customerId, type: "customer.breach.found" },
      orderBy: { sequence: "desc" },
    });
    expect((found[0]!.payload as { breaches: Array<{ name: string }> }).breaches.map((breach) => breach.name)).toEqual([
      "AdultSite",
      "Forum",
    ]);
    expect(await testDb.db.withheldExposure.count({ where: { customerId } })).toBe(0);

    const [after] = await domains(verifiedOrg, customerId);
    expect(after).toMatchObject({
      status: "verified",
      method: "dns",
      verifiedAt: expect.any(String),
      exposedAddressCount: 3,
      breachCount: 3,
    });
    expect(await retrievedTitles(verifiedOrg, "alice@acme.example")).toEqual(["Adult Site", "Shop"]);
    // A second verification changes nothing and announces nothing.
    expect((await verify(verifiedOrg, customerId, "acme.example", { method: "dns" })).body.status).toBe("verified");
    expect(await testDb.db.outboxEvent.count({ where: { customerId, type: "customer.domain.verified" } })).toBe(1);
  });

  it("verifies for that customer only: another partner's customer at the same domain still sees nothing", async () => {
    const other = await onboard(otherOrg, "acme.example");
    expect((await assets(otherOrg, other)).emails).toEqual(["listed@acme.example"]);
    expect(await breaches(otherOrg, other)).toEqual([["Shop", ["listed@acme.example"]]]);
    expect((await domains(otherOrg, other))[0]).toMatchObject({ status: "unverified", exposedAddressCount: 3 });
    expect(await retrievedTitles(otherOrg, "alice@acme.example")).toEqual(["Shop"]);
  });

  it("verifies by a one-time e-mailed link to a mailbox the caller picks", async () => {
    const mailCustomer = await onboard(verifiedOrg, "mail.example", { companyName: "Mail Ltd" });
    const res = await verify(verifiedOrg, mailCustomer, "mail.example", { method: "email", mailbox: "security" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, domain: "mail.example", status: "unverified", emailSentTo: "security@mail.example" });
    const [mail] = smtp.to("security@mail.example");
    expect(mail!.parsed.subject).toBe("Confirm a breach-monitoring request for mail.example");
    expect(mail!.parsed.text).toContain('Verified partner, a partner of Verified distributor, asked that its customer "Mail Ltd" may see');
    const token = /verify-domain\?token=([A-Za-z0-9_-]{43})/.exec(mail!.parsed.text ?? "")![1]!;
    // Nothing is revealed until the link is followed; opening its page changes nothing.
    expect(await verificationLinkState(testDb.db, token)).toMatchObject({
      valid: true,
      state: "open",
      domain: "mail.example",
      companyName: '"Mail Ltd"',
      partnerName: "Verified partner",
      distributorName: "Verified distributor",
      verified: false,
    });
    expect((await assets(verifiedOrg, mailCustomer)).emails).toEqual(["listed@mail.example"]);

    expect(await consumeVerificationLink(testDb.db, token)).toBe(true);
    expect(await consumeVerificationLink(testDb.db, token)).toBe(false);
    expect(await verificationLinkState(testDb.db, token)).toMatchObject({ state: "used", verified: true });
    expect((await domains(verifiedOrg, mailCustomer))[0]).toMatchObject({ status: "verified", method: "email" });
    expect((await assets(verifiedOrg, mailCustomer)).emails).toEqual(["alice@mail.example", "bob@mail.example", "listed@mail.example"]);
    const row = await testDb.db.customerDomain.findFirstOrThrow({ where: { customerId: mailCustomer } });
    expect(row.verifiedBy).toBe("security@mail.example");
  });

  it("limits the e-mails to a domain across customers and partners, and keeps the partner's free text out of the subject", async () => {
    const longName = `Your Bank: urgent security notice ${"x".repeat(80)}`;
    const customers = [
      ...(await Promise.all([1, 2, 3].map(() => onboard(verifiedOrg, "flood.example", { companyName: longName })))).map((id) => ({
        org: verifiedOrg,
        id,
      })),
      ...(await Promise.all([1, 2, 3].map(() => onboard(otherOrg, "flood.example")))).map((id) => ({ org: otherOrg, id })),
    ];
    const answers: number[] = [];
    for (const { org, id } of customers)
      answers.push((await verify(org, id, "flood.example", { method: "email", mailbox: "security" })).status);
    expect(answers).toEqual([200, 200, 200, 200, 200, 429]);
    const mails = smtp.to("security@flood.example");
    expect(mails).toHaveLength(5);
    expect(mails[0]!.parsed.subject).toBe("Confirm a breach-monitoring request for flood.example");
    expect(mails[0]!.parsed.text).toContain(`"Your Bank: urgent security notice ${"x".repeat(25)}…"`);
    expect(mails[0]!.parsed.text).not.toContain("x".repeat(30));
  });

  it("refuses an expired link", async () => {
    const customer = await onboard(verifiedOrg, "later.example");
    await verify(verifiedOrg, customer, "later.example", { method: "email", mailbox: "postmaster" });
    const token = /token=([A-Za-z0-9_-]{43})/.exec(smtp.to("postmaster@later.example")[0]!.parsed.text ?? "")![1]!;
    await testDb.db.$executeRaw`UPDATE domain_verification_links SET expires_at = now() - interval '1 second'`;
    expect(await verificationLinkState(testDb.db, token)).toMatchObject({ state: "expired" });
    expect(await consumeVerificationLink(testDb.db, token)).toBe(false);
    expect((await domains(verifiedOrg, customer))[0].status).toBe("unverified");
    // At most five links a day per customer domain: the mailboxes are not the caller's to flood.
    for (let sent = 1; sent < 5; sent++) {
      expect((await verify(verifiedOrg, customer, "later.example", { method: "email", mailbox: "admin" })).status).toBe(200);
    }
    const refused = await verify(verifiedOrg, customer, "later.example", { method: "email", mailbox: "admin" });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ success: false, error: "At most 5 verification e-mails per domain in 24 hours; try again later" });
    // The first of the five counted links leaves the 24-hour window within a day.
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(23 * 3600);
    expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(24 * 3600);
    expect(smtp.to("admin@later.example")).toHaveLength(4);
  });

  it("re-checks unverified domains' TXT records hourly for 7 days", async () => {
    const customer = await onboard(verifiedOrg, "shared.example");
    const [entry] = await domains(verifiedOrg, customer);
    expect(await recheckDnsVerifications(testDb.db)).toMatchObject({ verified: 0 });
    dns.setTxt("shared.example", entry.dnsRecord.value);
    await testDb.db.$executeRaw`UPDATE customer_domains SET created_at = now() - interval '8 days' WHERE domain = 'shared.example'`;
    expect(await recheckDnsVerifications(testDb.db)).toMatchObject({ verified: 0 });
    await testDb.db.$executeRaw`UPDATE customer_domains SET created_at = now() - interval '6 days' WHERE domain = 'shared.example'`;
    expect(await recheckDnsVerifications(testDb.db)).toMatchObject({ verified: 1 });
    expect((await assets(verifiedOrg, customer)).emails).toContain("alice@shared.example");
  });
});

describe("under the trusted domain policy", () => {
  it("reveals discovered addresses at once (the specified behaviour) but sensitive breaches only once the domain is verified", async () => {
    const customerId = await onboard(trustedOrg, "trust.example");
    expect((await assets(trustedOrg, customerId)).emails).toEqual(["alice@trust.example", "bob@trust.example", "listed@trust.example"]);
    expect(await breaches(trustedOrg, customerId)).toEqual([
      ["Shop", ["alice@trust.example", "listed@trust.example"]],
      ["Forum", ["bob@trust.example"]],
    ]);
    expect(await retrievedTitles(trustedOrg, "listed@trust.example")).toEqual(["Shop"]);
    expect((await domains(trustedOrg, customerId))[0]).toMatchObject({ exposedAddressCount: 3, breachCount: 3 });
    // every address is listed (only its sensitive breach waits): the portal does not say "verify to see which"
    expect(await portalDomains(testDb.db, customerId)).toMatchObject([{ exposedAddressCount: 3, hiddenAddressCount: 0 }]);

    const row = await testDb.db.customerDomain.findFirstOrThrow({ where: { customerId } });
    expect(await markDomainVerified(testDb.db, row.id, { method: "staff", by: "Sam Staff", note: "Signed contract" })).toBe(true);
    expect(await breaches(trustedOrg, customerId)).toEqual([
      ["AdultSite", ["alice@trust.example", "listed@trust.example"]],
      ["Shop", ["alice@trust.example", "listed@trust.example"]],
      ["Forum", ["bob@trust.example"]],
    ]);
    expect(await retrievedTitles(trustedOrg, "listed@trust.example")).toEqual(["Adult Site", "Shop"]);
    expect((await domains(trustedOrg, customerId))[0]).toMatchObject({ status: "verified", method: "staff" });
  });
});

describe("under the trusted domain policy, a domain a customer of another distributor monitors", () => {
  it("is treated as unverified: its discovered mailboxes are withheld until the domain is verified for the customer", async () => {
    await onboard(otherOrg, "rival.example");
    const customerId = await onboard(trustedOrg, "rival.example");
    expect((await assets(trustedOrg, customerId)).emails).toEqual(["listed@rival.example"]);
    expect(await breaches(trustedOrg, customerId)).toEqual([["Shop", ["listed@rival.example"]]]);
    expect(await revealedAddresses(customerId)).toEqual(["listed@rival.example"]);

    const row = await customerDomain(testDb.db, customerId, "rival.example");
    expect(await markDomainVerified(testDb.db, row.id, { method: "staff", by: "Sam Staff", note: "Signed contract" })).toBe(true);
    expect((await assets(trustedOrg, customerId)).emails).toEqual(["alice@rival.example", "bob@rival.example", "listed@rival.example"]);
  });
});

describe("sensitive breaches recorded before domain verification", () => {
  it("are withheld by the start that applies the migration, and revealed when the domain is verified", async () => {
    expect(existsSync(path.resolve("prisma/migrations", DOMAIN_VERIFICATION_MIGRATION, "migration.sql"))).toBe(true);
    const customer = await createBreachTestCustomer(testDb.db, trustedOrg.partner.id, {
      domains: ["old.example"],
      emails: ["old@old.example"],
    });
    const breachId = async (name: string) => (await testDb.db.breach.findUniqueOrThrow({ where: { name } })).id;
    // As a scan recorded them before this release: the sensitive breach shown for a monitored address.
    await testDb.db.customerBreach.createMany({
      data: [
        { customerId: customer.id, breachId: await breachId("AdultSite"), emails: ["old@old.example"] },
        { customerId: customer.id, breachId: await breachId("Shop"), emails: ["old@old.example"] },
      ],
    });
    expect(await withholdRecordedSensitiveBreaches(testDb.db)).toBe(1);
    expect(await breaches(trustedOrg, customer.id)).toEqual([["Shop", ["old@old.example"]]]);
    expect(await testDb.db.withheldExposure.count({ where: { customerId: customer.id } })).toBe(1);
    expect((await testDb.db.customer.findUniqueOrThrow({ where: { id: customer.id } })).breachCount).toBe(1);

    const row = await customerDomain(testDb.db, customer.id, "old.example");
    await markDomainVerified(testDb.db, row.id, { method: "staff", by: "Sam Staff", note: "Known customer" });
    expect(await breaches(trustedOrg, customer.id)).toEqual([
      ["AdultSite", ["old@old.example"]],
      ["Shop", ["old@old.example"]],
    ]);
    expect(await withholdRecordedSensitiveBreaches(testDb.db)).toBe(0);
  });
});

describe("the domain endpoints", () => {
  let customerId: string;
  beforeAll(async () => {
    customerId = await onboard(verifiedOrg, "acme.example");
  });

  it("answer 404 Domain not found for a domain the customer does not monitor, and the ownership error for other partners' customers", async () => {
    const unknown = await verify(verifiedOrg, customerId, "elsewhere.example", { method: "dns" });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ success: false, error: "Domain not found" });
    expect((await verify(verifiedOrg, customerId, "not a domain", { method: "dns" })).body.error).toBe("Domain not found");
    const foreign = await verify(otherOrg, customerId, "acme.example", { method: "dns" });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ success: false, error: "Customer not found or does not belong to partner" });
    const listing = await server.api.get(`/api/v1/integrations/customer/${customerId}/domains`, otherOrg.partner.headers);
    expect(listing.status).toBe(404);
  });

  it("take the distributor's key on behalf of its partner", async () => {
    expect(await domains(verifiedOrg, customerId, verifiedOrg.onBehalfHeaders)).toHaveLength(1);
    expect((await verify(verifiedOrg, customerId, "ACME.example", { method: "dns" }, verifiedOrg.onBehalfHeaders)).body.domain).toBe(
      "acme.example",
    );
  });

  it("refuse a bad method or mailbox with a clear message", async () => {
    const badMethod = await verify(verifiedOrg, customerId, "acme.example", { method: "meta-tag" });
    expect(badMethod.status).toBe(400);
    expect(badMethod.body).toEqual({ success: false, error: 'Validation failed: method: Method must be "dns" or "email"' });
    const noMailbox = await verify(verifiedOrg, customerId, "acme.example", { method: "email" });
    expect(noMailbox.body).toEqual({ success: false, error: "Validation failed: mailbox: Mailbox is required for the email method" });
    const badMailbox = await verify(verifiedOrg, customerId, "acme.example", { method: "email", mailbox: "ceo" });
    expect(badMailbox.body).toEqual({
      success: false,
      error: "Validation failed: mailbox: Mailbox must be one of security, postmaster, hostmaster, webmaster, admin",
    });
    const malformed = await server.api.get("/api/v1/integrations/customer/not-a-uuid/domains", verifiedOrg.partner.headers);
    expect(malformed.body).toEqual({ success: false, error: "Validation failed: customerId: Customer ID must be a valid UUID" });
  });

  it("are in the OpenAPI document, with customer.domain.verified among the webhooks", async () => {
    const document = (await (await getOpenApiDocument()).json()) as {
      paths: Record<string, Record<string, unknown>>;
      webhooks: Record<string, { post: { requestBody: unknown } }>;
      components: { schemas: Record<string, unknown> };
    };
    expect(Object.keys(document.paths["/api/v1/integrations/customer/{customerId}/domains"]!)).toEqual(["get"]);
    expect(Object.keys(document.paths["/api/v1/integrations/customer/{customerId}/domains/{domain}/verify"]!)).toEqual(["post"]);
    expect(JSON.stringify(document.webhooks["customer.domain.verified"])).toContain("#/components/schemas/CustomerDomainVerifiedEvent");
    expect(JSON.stringify(document.components.schemas.DomainVerifiedEventData)).toContain("verifiedAt");
  });
});
