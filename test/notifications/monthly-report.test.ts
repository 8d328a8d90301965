import { randomUUID } from "node:crypto";
import { PDFParse } from "pdf-parse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createInngestFunctions } from "../../inngest/functions";
import { cronOf, runScheduleIfDue } from "../../server/jobs/schedules";
import { monthlyReportJob, monthlyReportSchedule } from "../../server/notifications/jobs";
import {
  enqueueMonthlyReports,
  MONTHLY_REPORT_JOB,
  periodBounds,
  queueMonthlyReport,
  reportedPeriod,
} from "../../server/notifications/monthly-reports";
import { closeMailTransports } from "../../server/notifications/transport";
import { optOut } from "../../server/notifications/unsubscribe";
import { jobCatalogue } from "../../server/startup/job-catalogue";
import { createTestCustomer } from "../helpers/customers";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { hibpBreach, seedExposures } from "../helpers/breach-fixtures";
import { runJobsUntilIdle } from "../helpers/jobs";
import { pdfToText } from "../helpers/pdf";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp";

let testDb: TestDatabase;
let org: TestOrg;
let smtp: TestSmtpServer;
let breachIds: Map<string, string>;

beforeAll(async () => {
  testDb = await createTestDatabase();
  org = await createTestOrg(testDb.db);
  await testDb.db.partner.update({ where: { id: org.partner.id }, data: { name: "Northwind IT" } });
  breachIds = await seedExposures(
    testDb.db,
    [
      hibpBreach("Alpha", { Title: "Alpha Forum", BreachDate: "2024-03-01" }),
      hibpBreach("Beta", { Title: "Beta Shop", BreachDate: "2022-06-01" }),
      hibpBreach("Gamma", { Title: "Gamma Games", BreachDate: "2020-01-01" }),
    ],
    {},
  );
  smtp = await startSmtpServer();
  process.env.SMTP_URL = smtp.url;
});
afterAll(async () => {
  closeMailTransports();
  await smtp?.close();
  await testDb?.close();
});

/** An active customer with monthly reports whose welcome and scan are done (no e-mails of those kinds). */
async function reportCustomer(overrides: Parameters<typeof createTestCustomer>[2] = {}, partnerId = org.partner.id) {
  const domain = `r${randomUUID().slice(0, 8)}.example`;
  const customerId = await createTestCustomer(testDb.db, partnerId, {
    companyName: "Acme Ltd",
    contactEmail: `it@${domain}`,
    assetsDomains: [domain, `shop.${domain}`],
    assetsEmails: [`ceo@${domain}`, `cfo@${domain}`],
    alertRecipients: [`board@${domain}`],
    sendMonthlyReport: true,
    ...overrides,
  });
  await runJobsUntilIdle(testDb.db);
  await testDb.db.notification.deleteMany({ where: { customerId } });
  return { customerId, domain };
}

async function instance(customerId: string, breach: string, fields: { createdAt: Date; resolvedAt?: Date; emails?: string[] }) {
  await testDb.db.customerBreach.create({
    data: {
      customerId,
      breachId: breachIds.get(breach)!,
      emails: fields.emails ?? ["ceo@x.example"],
      createdAt: fields.createdAt,
      resolved: fields.resolvedAt !== undefined,
      resolvedAt: fields.resolvedAt ?? null,
    },
  });
}

describe("periods", () => {
  it("a slot reports on the month before it", () => {
    expect(reportedPeriod("2026-11")).toBe("2026-10");
    expect(reportedPeriod("2027-01")).toBe("2026-12");
    expect(periodBounds("2026-12")).toEqual({ start: new Date("2026-12-01T00:00:00Z"), end: new Date("2027-01-01T00:00:00Z") });
  });

  it("is a monthly schedule on the 1st at 06:00 UTC that Inngest runs through the generic schedule function", () => {
    expect(monthlyReportSchedule).toMatchObject({ name: "monthly-report", every: "month", hourUtc: 6 });
    expect(cronOf(monthlyReportSchedule)).toBe("0 6 1 * *");
    expect(createInngestFunctions(async () => testDb.db, jobCatalogue).map((fn) => fn.id())).toContain("schedule-monthly-report");
  });
});

describe("the report's facts", () => {
  it("threat score and its change, new, open and fixed breaches in the period, monitored assets", async () => {
    const { customerId, domain } = await reportCustomer();
    await testDb.db.customer.update({ where: { id: customerId }, data: { createdAt: new Date("2026-01-15T00:00:00Z"), threatScore: 30 } });
    await instance(customerId, "Alpha", { createdAt: new Date("2026-02-03T10:00:00Z"), emails: [`ceo@${domain}`] });
    await instance(customerId, "Beta", { createdAt: new Date("2026-01-20T10:00:00Z"), resolvedAt: new Date("2026-02-10T10:00:00Z") });
    await instance(customerId, "Gamma", { createdAt: new Date("2026-01-20T10:00:00Z") });

    const [january] = await queueMonthlyReport(testDb.db, customerId, "2026-01");
    const first = await testDb.db.notification.findUniqueOrThrow({ where: { id: january! } });
    expect(first).toMatchObject({
      kind: "monthly_report",
      cause: "2026-01",
      recipient: `board@${domain}`,
      subject: "Breach report for Acme Ltd: January 2026",
    });
    expect(first.data).toEqual({
      companyName: "Acme Ltd",
      period: "2026-01",
      threatScore: 30,
      previous: null,
      newBreaches: {
        count: 2,
        listed: [
          { title: "Beta Shop", breachDate: "2022-06-01", emails: ["ceo@x.example"] },
          { title: "Gamma Games", breachDate: "2020-01-01", emails: ["ceo@x.example"] },
        ],
      },
      openBreaches: 2,
      fixedBreaches: 0,
      domains: [domain, `shop.${domain}`].sort(),
      emailCount: 2,
      // Open now (the job runs right after the period), newest breach first.
      openListed: [
        { title: "Alpha Forum", breachDate: "2024-03-01", emails: [`ceo@${domain}`] },
        { title: "Gamma Games", breachDate: "2020-01-01", emails: ["ceo@x.example"] },
      ],
      fixedListed: [],
      directoryEmailCount: 0,
    });

    await testDb.db.customer.update({ where: { id: customerId }, data: { threatScore: 24 } });
    const [february] = await queueMonthlyReport(testDb.db, customerId, "2026-02");
    expect((await testDb.db.notification.findUniqueOrThrow({ where: { id: february! } })).data).toMatchObject({
      period: "2026-02",
      threatScore: 24,
      previous: { period: "2026-01", threatScore: 30 },
      newBreaches: { count: 1, listed: [{ title: "Alpha Forum", breachDate: "2024-03-01", emails: [`ceo@${domain}`] }] },
      openBreaches: 2,
      fixedBreaches: 1,
      fixedListed: [{ title: "Beta Shop", breachDate: "2022-06-01", resolvedAt: "2026-02-10", emails: ["ceo@x.example"] }],
    });
    // The same period again writes nothing (one report per period and recipient).
    expect(await queueMonthlyReport(testDb.db, customerId, "2026-02")).toEqual([]);
    expect(await testDb.db.notification.count({ where: { customerId } })).toBe(2);
  });
});

describe("who gets a report", () => {
  it("active customers with sendMonthlyReport whose partner sends transactional e-mails, onboarded before the period ended", async () => {
    const period = new Date().toISOString().slice(0, 7);
    const silentPartner = await createTestOrg(testDb.db, "Silent");
    await testDb.db.partner.update({ where: { id: silentPartner.partner.id }, data: { sendTransactionalEmails: false } });
    const eligible = await reportCustomer();
    const optedOutEverywhere = await reportCustomer();
    await optOut(testDb.db, {
      customerId: optedOutEverywhere.customerId,
      kind: "monthly_report",
      email: `board@${optedOutEverywhere.domain}`,
    });
    const notWanted = await reportCustomer({ sendMonthlyReport: false });
    const prospect = await reportCustomer({ status: "prospect" });
    const offboarded = await reportCustomer();
    await testDb.db.customer.update({ where: { id: offboarded.customerId }, data: { status: "inactive" } });
    const ofSilentPartner = await reportCustomer({}, silentPartner.partner.id);

    await testDb.db.job.deleteMany({ where: { kind: MONTHLY_REPORT_JOB } });
    await enqueueMonthlyReports(testDb.db, period);
    const queued = await testDb.db.job.findMany({ where: { kind: MONTHLY_REPORT_JOB } });
    const queuedFor = queued.map((job) => (job.payload as { customerId: string }).customerId);
    expect(queuedFor).toContain(eligible.customerId);
    expect(queuedFor).toContain(optedOutEverywhere.customerId);
    for (const skipped of [notWanted, prospect, offboarded, ofSilentPartner]) expect(queuedFor).not.toContain(skipped.customerId);
    // Customers onboarded after the period ended wait for the next one.
    await enqueueMonthlyReports(testDb.db, "2020-01");
    expect(await testDb.db.job.count({ where: { kind: MONTHLY_REPORT_JOB, payload: { path: ["period"], equals: "2020-01" } } })).toBe(0);

    await runJobsUntilIdle(testDb.db);
    expect(await testDb.db.notification.count({ where: { customerId: optedOutEverywhere.customerId } })).toBe(0);
    expect(
      await testDb.db.notification.findMany({
        where: { customerId: eligible.customerId },
        select: { kind: true, recipient: true, status: true },
      }),
    ).toEqual([{ kind: "monthly_report", recipient: `board@${eligible.domain}`, status: "sent" }]);
  });
});

describe("the monthly schedule end to end", () => {
  it("claims its slot once, fans out, and sends each recipient the report with its PDF", async () => {
    const { customerId, domain } = await reportCustomer({
      localeCode: "nl-NL",
      alertRecipients: [`board@x${randomUUID().slice(0, 6)}.example`],
    });
    const recipient = (await testDb.db.customer.findUniqueOrThrow({ where: { id: customerId } })).alertRecipients[0]!;
    await instance(customerId, "Alpha", { createdAt: new Date(), emails: [`ceo@${domain}`] });
    const now = new Date();
    const firstOfNextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1, 7));
    const period = now.toISOString().slice(0, 7);

    expect(await runScheduleIfDue(testDb.db, monthlyReportSchedule, firstOfNextMonth)).toBe(true);
    expect(await runScheduleIfDue(testDb.db, monthlyReportSchedule, firstOfNextMonth)).toBe(false);
    // Before 06:00 on the 1st, the new month's slot is not open yet.
    expect(await runScheduleIfDue(testDb.db, monthlyReportSchedule, new Date(firstOfNextMonth.getTime() - 2 * 3_600_000))).toBe(false);
    await runJobsUntilIdle(testDb.db);

    const [mail, ...more] = smtp.to(recipient);
    expect(more).toEqual([]);
    const monthName = new Intl.DateTimeFormat("nl-NL", { month: "long", year: "numeric", timeZone: "UTC" }).format(now);
    expect(mail!.parsed.subject).toBe(`Rapport datalekken voor Acme Ltd: ${monthName}`);
    expect(mail!.parsed.text).toContain("Alpha Forum");
    expect(mail!.parsed.attachments.map((attachment) => [attachment.filename, attachment.mimeType])).toEqual([
      [`breach-report-${period}.pdf`, "application/pdf"],
    ]);
    const parser = new PDFParse({ data: new Uint8Array(mail!.parsed.attachments[0]!.content as ArrayBuffer) });
    const pdf = await parser.getText();
    await parser.destroy();
    expect(pdf.text).toContain(`Rapport datalekken over ${monthName}`);
    expect(pdf.text).toContain("Alpha Forum");
    expect(pdf.text).toContain("Dit is het eerste rapport.");

    // The report job run again for the same customer and month sends nothing more.
    await monthlyReportJob.enqueue(testDb.db, { customerId, period });
    await runJobsUntilIdle(testDb.db);
    expect(smtp.to(recipient)).toHaveLength(1);
  });
});

describe("a month with nothing new", () => {
  it("is reported all the same: no new exposures, what is still open, nothing resolved, the mailboxes monitored", async () => {
    const { customerId, domain } = await reportCustomer({
      localeCode: "sv-SE",
      alertRecipients: [`quiet@q${randomUUID().slice(0, 6)}.example`],
    });
    const recipient = (await testDb.db.customer.findUniqueOrThrow({ where: { id: customerId } })).alertRecipients[0]!;
    // Found before the month reported on, still open.
    await instance(customerId, "Gamma", { createdAt: new Date("2025-06-01T00:00:00Z"), emails: [`ceo@${domain}`] });
    await testDb.db.customer.update({ where: { id: customerId }, data: { createdAt: new Date("2025-05-01T00:00:00Z") } });
    // A directory user's mailbox counts among the active ones; one who left does not.
    await testDb.db.monitoredAsset.createMany({
      data: [
        { customerId, kind: "email", value: `anna@${domain}`, domain, source: "directory" },
        { customerId, kind: "email", value: `left@${domain}`, domain, source: "directory", active: false },
      ],
    });

    await monthlyReportJob.enqueue(testDb.db, { customerId, period: "2026-03" });
    await runJobsUntilIdle(testDb.db);

    const [mail, ...more] = smtp.to(recipient);
    expect(more).toEqual([]);
    expect(mail!.parsed.subject).toBe("Intrångsrapport för Acme Ltd: mars 2026");
    const text = mail!.parsed.text!.replace(/\s+/g, " ");
    const pdf = await pdfToText(new Uint8Array(mail!.parsed.attachments[0]!.content as ArrayBuffer));
    for (const said of [text, pdf]) {
      expect(said).toContain("Inga nya exponeringar den här månaden.");
      expect(said).toMatch(/Fortfarande öppna/i);
      expect(said).toContain(`Gamma Games (1 jan. 2020): ceo@${domain}`);
      expect(said).toContain("Inget intrång åtgärdades den här månaden.");
      expect(said).toContain("3 aktiva brevlådor, varav 1 från er katalog");
    }
    expect(pdf).not.toContain(`left@${domain}`);
  });
});
