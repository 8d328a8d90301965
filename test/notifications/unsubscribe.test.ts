import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContext } from "../../server/api/context";
import { createUiCaller } from "../../server/api/ui/root";
import { insertExposures } from "../../server/breaches/exposure-index/exposures";
import { scanCustomer } from "../../server/findings/scanner";
import { closeMailTransports } from "../../server/notifications/transport";
import { readUnsubscribeToken, unsubscribeToken } from "../../server/notifications/unsubscribe";
import { handleUnsubscribePost } from "../../server/notifications/unsubscribe-http";
import { createTestCustomer } from "../helpers/customers";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { hibpBreach, seedExposures } from "../helpers/breach-fixtures";
import { serveOnLoopback } from "../helpers/http";
import { runJobsUntilIdle } from "../helpers/jobs";
import { startSmtpServer, type ReceivedMail, type TestSmtpServer } from "../helpers/smtp";

let testDb: TestDatabase;
let org: TestOrg;
let smtp: TestSmtpServer;
let server: { baseUrl: string; close(): Promise<void> };
let breachIds: Map<string, string>;

beforeAll(async () => {
  testDb = await createTestDatabase();
  org = await createTestOrg(testDb.db);
  breachIds = await seedExposures(testDb.db, [hibpBreach("Alpha"), hibpBreach("Beta"), hibpBreach("Gamma")], {});
  smtp = await startSmtpServer();
  process.env.SMTP_URL = smtp.url;
  server = await serveOnLoopback((request) => handleUnsubscribePost(testDb.db, request));
});
afterAll(async () => {
  closeMailTransports();
  await server?.close();
  await smtp?.close();
  await testDb?.close();
});

const status = (token: string) =>
  createUiCaller(createContext(testDb.db, new Headers(), randomUUID())).notifications.unsubscribe({ token });

/** Sends a request for a link of the service (APP_URL) to the test server instead. */
function onTestServer(link: string): string {
  const url = new URL(link);
  return `${server.baseUrl}${url.pathname}${url.search}`;
}

/** The link of the message body and the URL of its List-Unsubscribe header. */
function unsubscribeLinks(mail: ReceivedMail): { page: string; oneClick: string } {
  const page = mail.parsed.text!.match(/http:\/\/localhost:3000\/unsubscribe\?token=[\w.-]+/)![0];
  const oneClick = mail.header("list-unsubscribe")!.replace(/^<|>$/g, "");
  return { page, oneClick };
}

async function customerWithAlert() {
  const domain = `u${randomUUID().slice(0, 8)}.example`;
  await insertExposures(testDb.db, [{ email: `ceo@${domain}`, breachId: breachIds.get("Alpha")! }]);
  const customerId = await createTestCustomer(testDb.db, org.partner.id, {
    companyName: "Acme Ltd",
    contactEmail: `it@${domain}`,
    assetsDomains: [domain],
    assetsEmails: [],
    alertRecipients: [`security@${domain}`, `boss@${domain}`],
    localeCode: "da-DK",
  });
  await runJobsUntilIdle(testDb.db);
  return { customerId, domain };
}

/** A new breach for the customer's exposed address, scanned: the next alert. */
async function nextAlert(customerId: string, domain: string, breach: string) {
  await insertExposures(testDb.db, [{ email: `ceo@${domain}`, breachId: breachIds.get(breach)! }]);
  expect(await scanCustomer(testDb.db, customerId, "daily")).toMatchObject({ newBreaches: 1 });
  await runJobsUntilIdle(testDb.db);
}

describe("unsubscribe tokens", () => {
  it("carry customer, kind and address under a signature; anything altered is refused", () => {
    const target = { customerId: randomUUID(), kind: "breach_alert" as const, email: "a@b.example" };
    const token = unsubscribeToken(target);
    expect(readUnsubscribeToken(token)).toEqual(target);
    const [payload, signature] = token.split(".");
    const forged = Buffer.from(JSON.stringify(["1", target.customerId, "monthly_report", target.email])).toString("base64url");
    for (const bad of [`${forged}.${signature}`, `${payload}.${signature!.slice(0, -2)}AA`, payload!, "", "a.b.c", `${payload}.`]) {
      expect(readUnsubscribeToken(bad)).toBeUndefined();
    }
  });
});

describe("the unsubscribe link of a message", () => {
  it("opens a page that changes nothing; its form turns that kind off for that recipient only", async () => {
    const { customerId, domain } = await customerWithAlert();
    const [alert] = smtp.to(`boss@${domain}`);
    const { page } = unsubscribeLinks(alert!);
    const token = new URL(page).searchParams.get("token")!;

    expect(await status(token)).toEqual({
      valid: true,
      locale: "da-DK",
      kind: "breach_alert",
      email: `boss@${domain}`,
      companyName: "Acme Ltd",
      unsubscribed: false,
    });

    // The page's form: POST /api/unsubscribe with the token in the body; the browser goes back to the page.
    const response = await fetch(`${server.baseUrl}/api/unsubscribe`, {
      method: "POST",
      body: new URLSearchParams({ token }),
      redirect: "manual",
    });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`http://localhost:3000/unsubscribe?token=${token}`);
    expect(await status(token)).toMatchObject({ valid: true, unsubscribed: true });
    expect(await testDb.db.notificationOptOut.findMany({ where: { customerId }, select: { kind: true, email: true } })).toEqual([
      { kind: "breach_alert", email: `boss@${domain}` },
    ]);

    await nextAlert(customerId, domain, "Beta");
    expect(smtp.to(`boss@${domain}`)).toHaveLength(1);
    expect(smtp.to(`security@${domain}`)).toHaveLength(2);

    // A second click is harmless.
    expect(
      (await fetch(`${server.baseUrl}/api/unsubscribe`, { method: "POST", body: new URLSearchParams({ token }), redirect: "manual" }))
        .status,
    ).toBe(303);
  });

  it("answers a mail program's one-click request (RFC 8058) with 200", async () => {
    const { customerId, domain } = await customerWithAlert();
    const [alert] = smtp.to(`security@${domain}`);
    const { oneClick } = unsubscribeLinks(alert!);
    expect(oneClick).toMatch(/^http:\/\/localhost:3000\/api\/unsubscribe\?token=/);
    const response = await fetch(onTestServer(oneClick), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("Unsubscribed.");
    await nextAlert(customerId, domain, "Beta");
    expect(smtp.to(`security@${domain}`)).toHaveLength(1);
    expect(smtp.to(`boss@${domain}`)).toHaveLength(2);
  });

  it("of a welcome message turns every kind off for that address", async () => {
    const { customerId, domain } = await customerWithAlert();
    const [welcome] = smtp.to(`it@${domain}`);
    expect(welcome!.parsed.text).toContain("Stop alle e-mails fra tjenesten til denne adresse");
    const { oneClick } = unsubscribeLinks(welcome!);
    expect(
      (await fetch(onTestServer(oneClick), { method: "POST", body: new URLSearchParams({ "List-Unsubscribe": "One-Click" }) })).status,
    ).toBe(200);
    expect(
      (await testDb.db.notificationOptOut.findMany({ where: { customerId }, select: { kind: true } })).map((row) => row.kind).sort(),
    ).toEqual(["breach_alert", "monthly_report", "welcome"]);
  });

  it("refuses a token that is missing, altered or names an unknown customer", async () => {
    const unknown = unsubscribeToken({ customerId: randomUUID(), kind: "breach_alert", email: "x@y.example" });
    const optOutsBefore = await testDb.db.notificationOptOut.count();
    for (const url of [
      `${server.baseUrl}/api/unsubscribe`,
      `${server.baseUrl}/api/unsubscribe?token=abc.def`,
      `${server.baseUrl}/api/unsubscribe?token=${unknown}`,
    ]) {
      const response = await fetch(url, {
        method: "POST",
        body: "List-Unsubscribe=One-Click",
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
      expect({ url, status: response.status, body: await response.text() }).toEqual({
        url,
        status: 400,
        body: "This unsubscribe link is not valid.",
      });
    }
    expect(await status("abc.def")).toEqual({ valid: false });
    expect(await status(unknown)).toEqual({ valid: false });
    expect(await testDb.db.notificationOptOut.count()).toBe(optOutsBefore);
  });

  it("skips a message already queued when its recipient opts out before it is sent", async () => {
    const domain = `q${randomUUID().slice(0, 8)}.example`;
    const customerId = await createTestCustomer(testDb.db, org.partner.id, {
      contactEmail: `it@${domain}`,
      assetsDomains: [domain],
      assetsEmails: [],
    });
    const welcome = await testDb.db.notification.findFirstOrThrow({ where: { customerId, kind: "welcome" } });
    const token = unsubscribeToken({ customerId, kind: "welcome", email: `it@${domain}` });
    expect((await fetch(`${server.baseUrl}/api/unsubscribe?token=${token}`, { method: "POST", redirect: "manual" })).status).toBe(303);
    await runJobsUntilIdle(testDb.db);
    expect(await testDb.db.notification.findUniqueOrThrow({ where: { id: welcome.id } })).toMatchObject({ status: "skipped", attempts: 0 });
    expect(smtp.to(`it@${domain}`)).toEqual([]);
  });
});
