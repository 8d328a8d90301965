import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { scanCustomer } from "../../server/findings/scanner";
import { insertExposures } from "../../server/breaches/exposure-index/exposures";
import { queueBreachAlert } from "../../server/notifications/breach-alerts";
import { sendNotificationJob } from "../../server/notifications/jobs";
import { SEND_ATTEMPTS } from "../../server/notifications/messages";
import { closeMailTransports } from "../../server/notifications/transport";
import { optOut } from "../../server/notifications/unsubscribe";
import { createTestCustomer } from "../helpers/customers";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { hibpBreach, seedExposures } from "../helpers/breach-fixtures";
import { makeWaitingJobsDue, quietly, runJobsUntilIdle } from "../helpers/jobs";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp";

let testDb: TestDatabase;
let org: TestOrg;
let smtp: TestSmtpServer;
let breachIds: Map<string, string>;
const MAIL_FROM = "Exposure monitoring <alerts@monitor.example>";

beforeAll(async () => {
  testDb = await createTestDatabase();
  org = await createTestOrg(testDb.db);
  await testDb.db.partner.update({ where: { id: org.partner.id }, data: { name: "Northwind IT", replyToEmail: "help@northwind.example" } });
  breachIds = await seedExposures(
    testDb.db,
    [
      hibpBreach("Alpha", { Title: "Alpha Forum", BreachDate: "2024-03-01", DataClasses: ["Email addresses", "Passwords"] }),
      hibpBreach("Beta", { Title: "Beta Shop", BreachDate: "2021-06-01", DataClasses: ["Email addresses", "Phone numbers"] }),
    ],
    {},
  );
  smtp = await startSmtpServer();
  process.env.SMTP_URL = smtp.url;
  process.env.MAIL_FROM = MAIL_FROM;
});
afterAll(async () => {
  closeMailTransports();
  await smtp?.close();
  await testDb?.close();
});
beforeEach(() => {
  process.env.SMTP_URL = smtp.url;
});

/** A domain of its own for each customer, with one exposed address in the given breaches. */
async function exposedDomain(breaches: string[]): Promise<{ domain: string; exposed: string }> {
  const domain = `c${randomUUID().slice(0, 8)}.example`;
  const exposed = `ceo@${domain}`;
  await insertExposures(
    testDb.db,
    breaches.map((name) => ({ email: exposed, breachId: breachIds.get(name)! })),
  );
  return { domain, exposed };
}

async function onboard(overrides: Parameters<typeof createTestCustomer>[2] & { breaches?: string[] } = {}, partnerId = org.partner.id) {
  const { breaches = ["Alpha"], ...fields } = overrides;
  const { domain, exposed } = await exposedDomain(breaches);
  const customerId = await createTestCustomer(testDb.db, partnerId, {
    companyName: "Acme Ltd",
    contactEmail: `it@${domain}`,
    assetsDomains: [domain],
    assetsEmails: [],
    alertRecipients: [`security@${domain}`, `boss@${domain}`],
    localeCode: "en-GB",
    ...fields,
  });
  return { customerId, domain, exposed };
}

const messagesOf = (customerId: string) =>
  testDb.db.notification.findMany({ where: { customerId }, orderBy: [{ kind: "asc" }, { recipient: "asc" }] });

describe("who gets what", () => {
  it("an active customer: a welcome to the contact e-mail, a full breach alert to each alert recipient", async () => {
    const { customerId, domain, exposed } = await onboard();
    await runJobsUntilIdle(testDb.db);

    const [welcome, ...others] = smtp.to(`it@${domain}`);
    expect(others).toEqual([]);
    expect(welcome!.parsed.subject).toBe("Breach monitoring is now active for Acme Ltd");
    expect(welcome!.parsed.from).toEqual({ name: "Exposure monitoring", address: "alerts@monitor.example" });
    expect(welcome!.parsed.replyTo).toEqual([{ name: "", address: "help@northwind.example" }]);
    expect(welcome!.envelopeFrom).toBe("alerts@monitor.example");
    expect(welcome!.parsed.text).toContain(`* ${domain}`);
    expect(welcome!.parsed.text).toContain("ask Northwind IT for a sign-in link");
    expect(welcome!.parsed.html).toContain('<html dir="ltr" lang="en-GB">');
    expect(welcome!.header("list-unsubscribe")).toMatch(/^<http:\/\/localhost:3000\/api\/unsubscribe\?token=[\w-]+\.[\w-]+>$/);
    expect(welcome!.header("list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");

    for (const recipient of [`security@${domain}`, `boss@${domain}`]) {
      const [alert, ...more] = smtp.to(recipient);
      expect(more).toEqual([]);
      expect(alert!.parsed.subject).toBe("New data breach found for Acme Ltd");
      expect(alert!.parsed.text).toContain("ALPHA FORUM");
      expect(alert!.parsed.text).toContain(`* ${exposed}`);
      expect(alert!.parsed.text).toContain("Change the password of this account");
      expect(alert!.parsed.text).toContain("Stop breach alerts to this address http://localhost:3000/unsubscribe?token=");
    }

    const rows = await messagesOf(customerId);
    expect(rows.map((row) => [row.kind, row.recipient, row.status, row.attempts, row.cause === "onboard"])).toEqual([
      ["welcome", `it@${domain}`, "sent", 1, true],
      ["breach_alert", `boss@${domain}`, "sent", 1, false],
      ["breach_alert", `security@${domain}`, "sent", 1, false],
    ]);
    expect(rows[0]!.providerMessageId).toBe(welcome!.parsed.messageId);
    expect(welcome!.parsed.messageId).toBe(`<${rows[0]!.id}@monitor.example>`);
    const foundEvent = await testDb.db.outboxEvent.findFirstOrThrow({ where: { customerId, type: "customer.breach.found" } });
    expect(rows[1]!.cause).toBe(foundEvent.id);
  });

  it("a prospect gets nothing unless alerts were enabled at onboarding, and then only the redacted facts", async () => {
    const silent = await onboard({ status: "prospect" });
    const alerted = await onboard({ status: "prospect", shouldReceiveBreachAlerts: true, breaches: ["Alpha", "Beta"] });
    await runJobsUntilIdle(testDb.db);

    expect(await messagesOf(silent.customerId)).toEqual([]);
    expect(smtp.received.filter((mail) => mail.envelopeTo.some((to) => to.endsWith(silent.domain)))).toEqual([]);

    const rows = await messagesOf(alerted.customerId);
    expect(rows.map((row) => [row.kind, row.recipient])).toEqual([
      ["breach_alert", `boss@${alerted.domain}`],
      ["breach_alert", `security@${alerted.domain}`],
    ]);
    expect(rows[0]!.data).toEqual({ companyName: "Acme Ltd", redacted: true, count: 2, emails: [alerted.exposed] });
    const [alert] = smtp.to(`security@${alerted.domain}`);
    expect(alert!.parsed.subject).toBe("2 new data breaches found for Acme Ltd");
    expect(alert!.parsed.text).toContain("found 2 data breaches that expose the addresses below");
    expect(alert!.parsed.text).toContain(`* ${alerted.exposed}`);
    const withoutLinks = `${alert!.parsed.text} ${alert!.parsed.html}`.replace(/https?:\/\/[^\s"]+/g, "");
    for (const withheld of ["Alpha", "Beta", "Passwords", "Phone numbers", "Change the password"]) {
      expect(withoutLinks).not.toContain(withheld);
    }
  });

  it("an active customer that turned alerts off gets only the welcome; an opted-out recipient is left out", async () => {
    const quiet = await onboard({ shouldReceiveBreachAlerts: false });
    await runJobsUntilIdle(testDb.db);
    expect((await messagesOf(quiet.customerId)).map((row) => row.kind)).toEqual(["welcome"]);

    const { domain, exposed } = await exposedDomain(["Alpha"]);
    const customerId = await createTestCustomer(testDb.db, org.partner.id, {
      contactEmail: `it@${domain}`,
      assetsDomains: [domain],
      assetsEmails: [],
      alertRecipients: [`security@${domain}`, `boss@${domain}`],
    });
    await optOut(testDb.db, { customerId, kind: "breach_alert", email: `Boss@${domain}` });
    await runJobsUntilIdle(testDb.db);
    expect((await messagesOf(customerId)).map((row) => [row.kind, row.recipient])).toEqual([
      ["welcome", `it@${domain}`],
      ["breach_alert", `security@${domain}`],
    ]);
    expect(smtp.to(`boss@${domain}`)).toEqual([]);
    expect(smtp.to(`security@${domain}`)[0]!.parsed.text).toContain(exposed);
  });

  it("the partner's switches: no welcome without send_customer_welcome_emails, no alerts without send_transactional_emails", async () => {
    const noWelcome = await createTestOrg(testDb.db, "No welcome");
    await testDb.db.partner.update({ where: { id: noWelcome.partner.id }, data: { sendCustomerWelcomeEmails: false } });
    const noTransactional = await createTestOrg(testDb.db, "No transactional");
    await testDb.db.partner.update({ where: { id: noTransactional.partner.id }, data: { sendTransactionalEmails: false } });

    const first = await onboard({}, noWelcome.partner.id);
    const second = await onboard({}, noTransactional.partner.id);
    await runJobsUntilIdle(testDb.db);

    expect((await messagesOf(first.customerId)).map((row) => [row.kind, row.recipient])).toEqual([
      ["breach_alert", `boss@${first.domain}`],
      ["breach_alert", `security@${first.domain}`],
    ]);
    expect(smtp.to(`it@${first.domain}`)).toEqual([]);
    expect((await messagesOf(second.customerId)).map((row) => [row.kind, row.recipient])).toEqual([["welcome", `it@${second.domain}`]]);
    expect(smtp.to(`security@${second.domain}`)).toEqual([]);
    // The reply-to is the partner's own; without one, there is none and the footer does not offer replies.
    expect(smtp.to(`it@${second.domain}`)[0]!.parsed.replyTo).toBeUndefined();
    expect(smtp.to(`it@${second.domain}`)[0]!.parsed.text).not.toContain("Reply to this e-mail");
  });
});

describe("nothing is sent twice", () => {
  it("not on a rescan, a repeated alert for the same event, or a send job run again", async () => {
    const { customerId, domain } = await onboard();
    await runJobsUntilIdle(testDb.db);
    const before = smtp.received.length;
    const rows = await messagesOf(customerId);
    expect(rows).toHaveLength(3);

    expect(await scanCustomer(testDb.db, customerId, "daily")).toMatchObject({ scanned: true, newBreaches: 0 });
    const alert = rows.find((row) => row.kind === "breach_alert")!;
    const instance = await testDb.db.customerBreach.findFirstOrThrow({ where: { customerId } });
    await testDb.db.$transaction((tx) =>
      queueBreachAlert(tx, {
        customerId,
        eventId: alert.cause,
        findings: [{ breachId: instance.breachId, emails: instance.emails }],
      }),
    );
    for (const row of rows) await sendNotificationJob.enqueue(testDb.db, { notificationId: row.id });
    await runJobsUntilIdle(testDb.db);

    expect(smtp.received.length).toBe(before);
    expect(await messagesOf(customerId)).toEqual(rows);
    expect(smtp.to(`security@${domain}`)).toHaveLength(1);
  });

  it("a new breach later is a new alert with only the new breach", async () => {
    const { customerId, domain, exposed } = await onboard();
    await runJobsUntilIdle(testDb.db);
    await insertExposures(testDb.db, [{ email: exposed, breachId: breachIds.get("Beta")! }]);
    expect(await scanCustomer(testDb.db, customerId, "daily")).toMatchObject({ newBreaches: 1 });
    await runJobsUntilIdle(testDb.db);
    const alerts = smtp.to(`security@${domain}`);
    expect(alerts.map((mail) => mail.parsed.subject)).toEqual(["New data breach found for Acme Ltd", "New data breach found for Acme Ltd"]);
    expect(alerts[1]!.parsed.text).toContain("BETA SHOP");
    expect(alerts[1]!.parsed.text).not.toContain("ALPHA FORUM");
  });
});

describe("failures", () => {
  it("a temporary SMTP failure is retried and the message arrives once", async () => {
    smtp.rejectNext(1);
    const { customerId, domain } = await onboard({ assetsDomains: [`quiet${randomUUID().slice(0, 6)}.example`] });
    await quietly(() => runJobsUntilIdle(testDb.db));
    const [pending] = await messagesOf(customerId);
    expect(pending).toMatchObject({ kind: "welcome", status: "pending", attempts: 1 });
    expect(pending!.lastError).toContain("451");
    expect(smtp.to(`it@${domain}`)).toEqual([]);

    await makeWaitingJobsDue(testDb.db);
    await runJobsUntilIdle(testDb.db);
    expect(await messagesOf(customerId)).toMatchObject([{ status: "sent", attempts: 2, lastError: null }]);
    expect(smtp.to(`it@${domain}`)).toHaveLength(1);
  });

  it("with the SMTP server down, every attempt is made and the message is then recorded as failed", async () => {
    const down = await startSmtpServer();
    await down.close();
    process.env.SMTP_URL = down.url;
    const { customerId } = await onboard({ assetsDomains: [`down${randomUUID().slice(0, 6)}.example`] });
    for (let attempt = 1; attempt <= SEND_ATTEMPTS; attempt++) {
      await quietly(() => runJobsUntilIdle(testDb.db));
      const [message] = await messagesOf(customerId);
      expect(message).toMatchObject({ attempts: attempt, status: attempt < SEND_ATTEMPTS ? "pending" : "failed" });
      expect(message!.lastError).toContain("ECONNREFUSED");
      await makeWaitingJobsDue(testDb.db);
    }
    const [message] = await messagesOf(customerId);
    const job = await testDb.db.job.findFirstOrThrow({
      where: { kind: "notifications.send", payload: { equals: { notificationId: message!.id } } },
    });
    expect(job).toMatchObject({ status: "failed", attempts: SEND_ATTEMPTS });
    expect(await runJobsUntilIdle(testDb.db)).toBe(0);
  });
});

describe("languages", () => {
  it("writes subjects in the customer's locale: the six locales, its language's locale, else en-GB", async () => {
    const expected: Record<string, string> = {
      "en-GB": "Breach monitoring is now active for Acme Ltd",
      "sv-SE": "Intrångsbevakningen är nu aktiv för Acme Ltd",
      "nb-NO": "Overvåking av datainnbrudd er nå aktiv for Acme Ltd",
      "da-DK": "Overvågning af databrud er nu aktiv for Acme Ltd",
      "fi-FI": "Tietomurtojen valvonta on nyt käytössä: Acme Ltd",
      "nl-NL": "Bewaking op datalekken is nu actief voor Acme Ltd",
      "sv-FI": "Intrångsbevakningen är nu aktiv för Acme Ltd",
      "de-DE": "Breach monitoring is now active for Acme Ltd",
    };
    const contacts = new Map<string, string>();
    for (const localeCode of Object.keys(expected)) {
      const { domain } = await onboard({ localeCode, assetsDomains: [`l${randomUUID().slice(0, 8)}.example`] });
      contacts.set(localeCode, `it@${domain}`);
    }
    await runJobsUntilIdle(testDb.db);
    for (const [localeCode, subject] of Object.entries(expected)) {
      const [welcome] = smtp.to(contacts.get(localeCode)!);
      expect({ localeCode, subject: welcome!.parsed.subject }).toEqual({ localeCode, subject });
    }
  });
});
