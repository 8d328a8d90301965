import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stealerLogSteps } from "../../server/breaches/catalogue/texts";
import { importStealerLogs } from "../../server/breaches/exposure-index/stealer-log-import";
import { DEFAULT_BRAND } from "../../server/brand/brand";
import { customerDomain } from "../../server/domains/domains";
import { markDomainVerified } from "../../server/domains/verify";
import { LOCALE_CODES } from "../../server/i18n/locales";
import { notificationTexts } from "../../server/i18n/translations";
import { renderNotification } from "../../server/notifications/render";
import { closeMailTransports } from "../../server/notifications/transport";
import type { CustomerNotificationContent } from "../../server/notifications/types";
import { hibpBreach, seedExposures, writeTempFile } from "../helpers/breach-fixtures";
import { createTestCustomer } from "../helpers/customers";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { runJobsUntilIdle } from "../helpers/jobs";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp";

/**
 * The breach alert of a stealer-log finding (docs/notifications.md): it names the websites
 * malware captured for the addresses and gives the stealer-log steps, device first, instead of
 * the steps of its data classes; a prospect's redacted alert names none of it. Sent through a
 * real SMTP server.
 */
let testDb: TestDatabase;
let org: TestOrg;
let smtp: TestSmtpServer;

beforeAll(async () => {
  testDb = await createTestDatabase();
  org = await createTestOrg(testDb.db, "Stealer mail", { domainPolicy: "verified" });
  await testDb.db.partner.update({ where: { id: org.partner.id }, data: { name: "Northwind IT" } });
  await seedExposures(
    testDb.db,
    [hibpBreach("StealerMail", { Title: "Stealer logs", IsStealerLog: true, DataClasses: ["Email addresses", "Passwords", "URLs"] })],
    {},
  );
  smtp = await startSmtpServer();
  process.env.SMTP_URL = smtp.url;
  process.env.MAIL_FROM = "Exposure monitoring <alerts@monitor.example>";
});
afterAll(async () => {
  closeMailTransports();
  await smtp?.close();
  await testDb?.close();
});

/** A customer of its own domain, verified before its first scan, with captures for two of its addresses. */
async function onboardWithCaptures(status: "active" | "prospect", localeCode = "en-GB") {
  const domain = `s${randomUUID().slice(0, 8)}.example`;
  const file = await writeTempFile(
    `alert-${domain}.csv`,
    [
      "email,website_domain,captured_at",
      `ceo@${domain},netflix.com,2025-03-01`,
      `ceo@${domain},bank.example,2025-03-04`,
      `cfo@${domain},mail.example,`,
    ].join("\n"),
  );
  await importStealerLogs(testDb.db, { breachName: "StealerMail", file });
  const customerId = await createTestCustomer(testDb.db, org.partner.id, {
    companyName: "Acme Ltd",
    contactEmail: `it@${domain}`,
    assetsDomains: [domain],
    assetsEmails: [],
    alertRecipients: [`security@${domain}`],
    localeCode,
    ...(status === "prospect" && { status: "prospect" as const, shouldReceiveBreachAlerts: true }),
  });
  const row = await customerDomain(testDb.db, customerId, domain);
  await markDomainVerified(testDb.db, row.id, { method: "staff", by: "Test staff" });
  await runJobsUntilIdle(testDb.db);
  const alert = smtp.received.find((mail) => mail.envelopeTo.includes(`security@${domain}`));
  if (!alert) throw new Error(`no alert reached security@${domain}`);
  return { domain, alert };
}

describe("the breach alert of a stealer-log finding", () => {
  it("names the captured websites and gives the stealer-log steps, device first", async () => {
    const { domain, alert } = await onboardWithCaptures("active");
    const text = alert.parsed.text ?? "";
    expect(text).toContain("Malware on a device captured the passwords for these sites");
    for (const website of ["bank.example", "mail.example", "netflix.com"]) expect(text).toContain(website);
    expect(text).toContain(`ceo@${domain}`);
    const steps = stealerLogSteps("en-GB");
    expect(steps[0]).toMatch(/^First clean or replace the infected device/);
    const positions = steps.map((step) => text.indexOf(step));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    // Not the steps of its data classes (passwords: a password manager).
    expect(text).not.toContain("Use a password manager");
    expect(alert.parsed.html).toContain("netflix.com");
  });

  it("is written in the customer's locale", async () => {
    const { alert } = await onboardWithCaptures("active", "nl-NL");
    const text = alert.parsed.text ?? "";
    expect(text).toContain(notificationTexts("nl-NL").alert.capturedSites);
    expect(text).toContain(stealerLogSteps("nl-NL")[0]);
    expect(text).toContain("netflix.com");
  });

  it("a prospect's redacted alert names no website", async () => {
    const { domain, alert } = await onboardWithCaptures("prospect");
    const text = `${alert.parsed.text}\n${alert.parsed.html}`;
    expect(text).toContain(`ceo@${domain}`);
    expect(text).not.toMatch(/netflix\.com|bank\.example|mail\.example|Malware on a device/);
  });

  it("has its label, a cut of long website lists and its steps in all six locales", async () => {
    const websiteDomains = Array.from({ length: 25 }, (_, i) => `site${String(i).padStart(2, "0")}.example`);
    const content: CustomerNotificationContent = {
      kind: "breach_alert",
      data: {
        companyName: "Acme Ltd",
        redacted: false,
        breaches: [
          {
            name: "StealerMail",
            title: "Stealer logs",
            breachDate: "2025-03-01",
            pwnCount: 1000,
            dataClasses: ["Email addresses", "Passwords"],
            emails: ["ceo@acme.example"],
            websiteDomains,
          },
        ],
      },
    };
    const english = notificationTexts("en-GB").alert;
    for (const locale of LOCALE_CODES) {
      const texts = notificationTexts(locale).alert;
      if (locale !== "en-GB") {
        expect(texts.capturedSites, locale).not.toBe(english.capturedSites);
        expect(stealerLogSteps(locale), locale).not.toEqual(stealerLogSteps("en-GB"));
      }
      const { text } = await renderNotification(content, {
        locale,
        brand: { ...DEFAULT_BRAND, name: "Northwind IT" },
        unsubscribeUrl: "https://monitor.example/unsubscribe?token=T",
      });
      expect(text, locale).toContain(texts.capturedSites);
      expect(text, locale).toContain("site19.example");
      expect(text, locale).not.toContain("site20.example");
      expect(text, locale).toContain(texts.moreSites(5));
      for (const step of stealerLogSteps(locale)) expect(text, locale).toContain(step);
    }
  });
});
