import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { UiSession } from "../../server/api/ui/session";
import { transitionCustomer } from "../../server/customers/lifecycle";
import { connectDirectory } from "../../server/directory/connections";
import { consumeMagicLink } from "../../server/portal/magic-links";
import { addCustomerBreach, createTestBreach, createTestCustomer } from "../helpers/customers";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { pdfToText } from "../helpers/pdf";
import { clientError, createStaffSession, startUiServer, uiCallerAs } from "../helpers/ui";

/** The admin UI's customer page (issue 27 item 5): what staff see of a customer, and the audited support sign-in link. */
let testDb: TestDatabase;
let ui: Awaited<ReturnType<typeof startUiServer>>;
let orgX: TestOrg;
let orgY: TestOrg;
let staffX: UiSession;
let staffY: UiSession;

beforeAll(async () => {
  testDb = await createTestDatabase();
  ui = await startUiServer(testDb.db);
  orgX = await createTestOrg(testDb.db, "X");
  orgY = await createTestOrg(testDb.db, "Y");
  staffX = await createStaffSession(testDb.db, orgX.distributor.id);
  staffY = await createStaffSession(testDb.db, orgY.distributor.id);
});
afterAll(async () => {
  await ui?.close();
  await testDb?.close();
});

const asX = () => uiCallerAs(testDb.db, staffX).admin.customers;

describe("a customer's page", () => {
  it("shows its assets (with a verification field), breaches, score, events and e-mails sent", async () => {
    const customerId = await createTestCustomer(testDb.db, orgX.partner.id, { companyName: "Seen Ltd" });
    const breach = await createTestBreach(testDb.db);
    await addCustomerBreach(testDb.db, customerId, breach.id, { emails: ["ceo@acme.example"] });
    const view = await asX().get({ customerId });
    expect(view).toMatchObject({
      id: customerId,
      companyName: "Seen Ltd",
      partner: { id: orgX.partner.id },
      status: "active",
      canSignIn: true,
      breaches: {
        total: 1,
        open: 1,
        newest: [{ title: breach.name, breachDate: "2020-01-01", resolved: false, emails: ["ceo@acme.example"] }],
      },
      audit: [],
    });
    expect(view.assets).toEqual([
      { kind: "domain", value: "acme.example", source: "partner", verification: "unverified" },
      { kind: "email", value: "ceo@acme.example", source: "partner", verification: null },
    ]);
    await uiCallerAs(testDb.db, staffX).admin.domains.attest({ customerId, domain: "acme.example", note: "Known by contract" });
    expect((await asX().get({ customerId })).assets[0]).toMatchObject({ kind: "domain", verification: "verified" });
    // onboarding wrote a customer.created event and a welcome e-mail to each recipient
    expect(view.events.newest.map((event) => event.type)).toContain("customer.created");
    const welcome = await testDb.db.notification.findMany({ where: { customerId, kind: "welcome" }, select: { id: true } });
    expect(welcome.length).toBeGreaterThan(0);
    expect(
      view.emails.newest
        .filter((email) => email.kind === "welcome")
        .map((email) => email.id)
        .sort(),
    ).toEqual(welcome.map((email) => email.id).sort());
  });

  it("hands out a one-time sign-in link that signs in as the customer, audited with who and when", async () => {
    const customerId = await createTestCustomer(testDb.db, orgX.partner.id);
    const before = Date.now();
    // over HTTP, as the browser calls it
    const { url } = await ui.clientAs(staffX).admin.customers.signInLink.mutate({ customerId });
    expect(url).toMatch(/\/auth\/confirm\?token_hash=[A-Za-z0-9_-]{43}&type=magiclink$/);
    const signIn = await consumeMagicLink(testDb.db, new URL(url).searchParams.get("token_hash")!);
    expect(signIn.ok && signIn.signIn.customerId).toBe(customerId);

    const entries = await testDb.db.auditEntry.findMany({ where: { targetType: "customer", targetId: customerId } });
    expect(entries).toEqual([
      expect.objectContaining({
        distributorId: orgX.distributor.id,
        actorKind: "staff",
        actorId: staffX.kind === "staff" ? staffX.staffId : "",
        actorLabel: staffX.email,
        action: "customer.support-sign-in-link",
      }),
    ]);
    expect(JSON.stringify(entries)).not.toContain(new URL(url).searchParams.get("token_hash")!);
    expect(entries[0]!.createdAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
    const view = await asX().get({ customerId });
    expect(view.audit).toEqual([
      {
        id: entries[0]!.id,
        action: "customer.support-sign-in-link",
        actorLabel: staffX.email,
        createdAt: entries[0]!.createdAt.toISOString(),
      },
    ]);
  });

  it("refuses a link for an offboarded customer, and records nothing", async () => {
    const customerId = await createTestCustomer(testDb.db, orgX.partner.id);
    await transitionCustomer(testDb.db, orgX.partner.id, customerId, "offboard");
    expect((await asX().get({ customerId })).canSignIn).toBe(false);
    await expect(asX().signInLink({ customerId })).rejects.toThrow("Customer cannot sign in: customer is inactive");
    expect(await testDb.db.auditEntry.count({ where: { targetId: customerId } })).toBe(0);
  });

  it("another distributor's staff find neither the customer nor a link to it (404, nothing recorded)", async () => {
    const customerId = await createTestCustomer(testDb.db, orgX.partner.id);
    for (const call of [
      () => ui.clientAs(staffY).admin.customers.get.query({ customerId }),
      () => ui.clientAs(staffY).admin.customers.signInLink.mutate({ customerId }),
      () => ui.clientAs(staffX).admin.customers.get.query({ customerId: "not-a-uuid" }),
    ]) {
      const error = await clientError(call());
      expect(error.message).toBe("Customer not found");
      expect(error.data?.httpStatus).toBe(404);
    }
    const anonymous = await clientError(ui.clientAs().admin.customers.signInLink.mutate({ customerId }));
    expect(anonymous.data?.httpStatus).toBe(401);
    expect(await testDb.db.auditEntry.count({ where: { targetId: customerId } })).toBe(0);
    expect(await testDb.db.magicLinkToken.count({ where: { portalUser: { customerId } } })).toBe(0);
  });
  it("shows the directory connection's state, last error and counts, never its secret", async () => {
    const customerId = await createTestCustomer(testDb.db, orgX.partner.id, { companyName: "Directory Ltd" });
    expect((await asX().get({ customerId })).directory).toBeNull();
    const secret = "a-client-secret-never-shown";
    await connectDirectory(testDb.db, orgX.partner.id, customerId, {
      provider: "microsoft365",
      tenantId: "contoso.onmicrosoft.com",
      clientId: "0f8fad5b-d9cb-469f-a165-70867728950e",
      clientSecret: secret,
    });
    await testDb.db.directoryConnection.update({
      where: { customerId },
      data: { state: "failing", lastError: "admin consent missing for User.Read.All" },
    });
    const view = await asX().get({ customerId });
    expect(view.directory).toMatchObject({
      provider: "microsoft365",
      tenantId: "contoso.onmicrosoft.com",
      state: "failing",
      lastError: "admin consent missing for User.Read.All",
      activeUsers: 0,
      inactiveUsers: 0,
      mailboxCount: 0,
    });
    expect(JSON.stringify(view)).not.toContain(secret);
  });
});

describe("the customer's reports in the admin UI", () => {
  it("downloads the executive report, or a prospect's exposure check; another distributor's staff find neither", async () => {
    const customerId = await createTestCustomer(testDb.db, orgX.partner.id, { companyName: "Report Ltd", localeCode: "da-DK" });
    const executive = await asX().report({ customerId, kind: "executive", from: "2026-01-01", to: "2026-03-31" });
    expect(executive.filename).toBe("exposure-report-2026-01-01-2026-03-31.pdf");
    const text = await pdfToText(Buffer.from(executive.base64, "base64"));
    expect(text).toContain("Eksponeringsrapport til ledelsen");
    expect(text).toContain("Report Ltd");
    const prospectId = await createTestCustomer(testDb.db, orgX.partner.id, { status: "prospect" });
    const check = await asX().report({ customerId: prospectId, kind: "prospect" });
    expect(await pdfToText(Buffer.from(check.base64, "base64"))).toContain("Exposure check");
    const wrongKind = await clientError(ui.clientAs(staffX).admin.customers.report.query({ customerId: prospectId, kind: "executive" }));
    expect(wrongKind.data?.httpStatus).toBe(422);
    const other = await clientError(ui.clientAs(staffY).admin.customers.report.query({ customerId, kind: "executive" }));
    expect([other.message, other.data?.httpStatus]).toEqual(["Customer not found", 404]);
  });
});
