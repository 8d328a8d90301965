import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { LOCALE_MESSAGE } from "../../server/api/procedures/breach/schemas";
import { threatScore } from "../../server/customers/threat-score";
import { executiveReportFacts } from "../../server/findings/customer-reports";
import { executiveReportPdf } from "../../server/notifications/customer-report-pdf";
import { DEFAULT_REPORT_COLOR } from "../../server/notifications/report-brand";
import { hibpBreach, seedExposures } from "../helpers/breach-fixtures";
import { createTestCustomer } from "../helpers/customers";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { pdfToImages, pdfToText } from "../helpers/pdf";
import { solidPng } from "../helpers/png";
import { restTestBed } from "../helpers/rest";

const { testDb, server } = restTestBed();
let org: TestOrg;
let breachIds: Map<string, string>;

const ALPHA = { DataClasses: ["Email addresses", "Passwords"], BreachDate: "2025-11-01" };
const BETA = { DataClasses: ["Email addresses", "Names"], BreachDate: "2024-06-01" };
const GAMMA = { DataClasses: ["Email addresses", "Phone numbers"], BreachDate: "2021-01-01" };

beforeAll(async () => {
  org = await createTestOrg(testDb.db);
  await testDb.db.partner.update({ where: { id: org.partner.id }, data: { name: "Northwind IT" } });
  breachIds = await seedExposures(
    testDb.db,
    [
      hibpBreach("Alpha", { Title: "Alpha Forum", ...ALPHA }),
      hibpBreach("Beta", { Title: "Beta Shop", ...BETA }),
      hibpBreach("Gamma", { Title: "Gamma Games", ...GAMMA }),
    ],
    {},
  );
});

const reportPath = (customerId: string, query = "") => `/api/v1/integrations/customer/${customerId}/report${query}`;

async function download(path: string, headers = org.partner.headers) {
  const response = await fetch(server.baseUrl + path, { headers });
  return { status: response.status, headers: response.headers, bytes: new Uint8Array(await response.arrayBuffer()) };
}

async function customerWithFindings(overrides: Parameters<typeof createTestCustomer>[2] = {}) {
  const domain = `c${randomUUID().slice(0, 8)}.example`;
  const customerId = await createTestCustomer(testDb.db, org.partner.id, {
    companyName: "Acme Ltd",
    assetsDomains: [domain],
    assetsEmails: [`ceo@${domain}`, `cfo@${domain}`, `it@${domain}`],
    ...overrides,
  });
  const instance = (breach: string, emails: string[], createdAt: string, resolvedAt?: string) =>
    testDb.db.customerBreach.create({
      data: {
        customerId,
        breachId: breachIds.get(breach)!,
        emails,
        createdAt: new Date(createdAt),
        resolved: resolvedAt !== undefined,
        resolvedAt: resolvedAt ? new Date(resolvedAt) : null,
      },
    });
  // Found in the period and open; found before it and resolved in it; found before it and open.
  await instance("Alpha", [`ceo@${domain}`, `cfo@${domain}`], "2026-02-10T09:00:00Z");
  await instance("Beta", [`ceo@${domain}`], "2026-01-15T09:00:00Z", "2026-02-20T09:00:00Z");
  await instance("Gamma", [`it@${domain}`], "2025-12-01T09:00:00Z");
  return { customerId, domain };
}

const exposure = (breach: { DataClasses: string[]; BreachDate: string }, emailCount: number) => ({
  dataClasses: breach.DataClasses,
  breachDate: new Date(`${breach.BreachDate}T00:00:00Z`),
  emailCount,
});

describe("the executive report", () => {
  it("answers a PDF with the period's figures: the score over time, new and resolved findings, the riskiest mailboxes and breaches", async () => {
    const { customerId, domain } = await customerWithFindings();
    const answer = await download(reportPath(customerId, "?from=2026-02-01&to=2026-02-28"));
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("application/pdf");
    expect(answer.headers.get("content-disposition")).toBe('attachment; filename="exposure-report-2026-02-01-2026-02-28.pdf"');
    const text = await pdfToText(answer.bytes);

    // The score at the end of the first day (Beta and Gamma open) and of the last (Alpha and Gamma).
    const start = threatScore([exposure(BETA, 1), exposure(GAMMA, 1)], new Date("2026-02-02T00:00:00Z"));
    const end = threatScore([exposure(ALPHA, 2), exposure(GAMMA, 1)], new Date("2026-03-01T00:00:00Z"));
    expect(start).not.toBe(end);
    for (const line of [
      "Executive exposure report",
      "Acme Ltd · 1 Feb 2026 to 28 Feb 2026",
      "Threat score over time",
      `At the start ${start} 1 Feb 2026`,
      `At the end ${end} 28 Feb 2026`,
      "New findings 1",
      "Resolved findings 1",
      "Open at the end 2",
      "Active mailboxes 3",
      `Alpha Forum (1 Nov 2025): ceo@${domain}, cfo@${domain}`,
      `Beta Shop: resolved on 20 Feb 2026 (ceo@${domain})`,
      "Half of them were resolved within 36 days of being found.",
      `ceo@${domain}: 1 open breach`,
      `it@${domain}: 1 open breach`,
      "Alpha Forum (1 Nov 2025): 2 addresses",
      "Gamma Games (1 Jan 2021): 1 address",
      "Northwind IT",
    ])
      expect(text).toContain(line);
    // Alpha (passwords, recent) weighs more than Gamma: first among the breaches.
    expect(text.indexOf("Alpha Forum (1 Nov 2025): 2 addresses")).toBeLessThan(text.indexOf("Gamma Games (1 Jan 2021): 1 address"));
    const [page, ...more] = await pdfToImages(answer.bytes);
    expect(more).toHaveLength(0);
    expect(page!.count("#1f2933")).toBeGreaterThan(200);
  });

  it("is written in the customer's locale, or the one asked for", async () => {
    const { customerId, domain } = await customerWithFindings({ localeCode: "sv-SE" });
    const swedish = await pdfToText((await download(reportPath(customerId, "?from=2026-02-01&to=2026-02-28"))).bytes);
    for (const line of [
      "Exponeringsrapport för ledningen",
      "1 feb. 2026 till 28 feb. 2026",
      "Hotpoäng över tid",
      "Nya fynd 1",
      "Åtgärdade fynd 1",
      `Beta Shop: åtgärdat 20 feb. 2026 (ceo@${domain})`,
      `ceo@${domain}: 1 öppet intrång`,
      "De mest riskfyllda öppna intrången",
    ])
      expect(swedish).toContain(line);
    const dutch = await pdfToText((await download(reportPath(customerId, "?from=2026-02-01&to=2026-02-28&localeCode=nl-NL"))).bytes);
    expect(dutch).toContain("Managementrapport blootstelling");
    expect(dutch).toContain("1 feb 2026 tot en met 28 feb 2026");
    expect(dutch).toContain(`Beta Shop: opgelost op 20 feb 2026 (ceo@${domain})`);
  });

  it("says so when a period has nothing new and nothing resolved", async () => {
    const { customerId } = await customerWithFindings();
    const text = await pdfToText((await download(reportPath(customerId, "?from=2026-03-01&to=2026-03-31"))).bytes);
    expect(text).toContain("No new exposures in this period.");
    expect(text).toContain("No finding was resolved in this period.");
    expect(text).toContain("Open at the end 2");
  });

  it("carries a brand: its logo, its colour on the title, headings and chart, and its name", async () => {
    const { customerId } = await customerWithFindings();
    const facts = await executiveReportFacts(
      testDb.db,
      { id: customerId, companyName: "Acme Ltd" },
      { from: "2026-01-01", to: "2026-03-31" },
    );
    const brand = { name: "Contoso Secure", logoPng: solidPng(120, 40, "#00c853"), primaryColor: "#b3261e" };
    const branded = await executiveReportPdf(facts, { locale: "en-GB", brand });
    const plain = await executiveReportPdf(facts, { locale: "en-GB", brand: { name: "Northwind IT", primaryColor: DEFAULT_REPORT_COLOR } });
    expect(await pdfToText(branded)).toContain("Contoso Secure");
    expect(await pdfToText(branded)).not.toContain("Northwind IT");
    const [brandedPage] = await pdfToImages(branded);
    const [plainPage] = await pdfToImages(plain);
    // The logo: 120 x 40 points at 50 dpi is about 83 x 28 pixels of its green.
    expect(brandedPage!.count("#00c853", 8)).toBeGreaterThan(1500);
    expect(plainPage!.count("#00c853", 8)).toBe(0);
    expect(brandedPage!.count("#b3261e", 16)).toBeGreaterThan(150);
    expect(plainPage!.count("#b3261e", 16)).toBe(0);
  });
});

describe("the prospect report", () => {
  it("shows what the API shows a prospect: the exposed addresses and the number of breach instances, and what an upgrade adds", async () => {
    const { customerId, domain } = await customerWithFindings({ status: "prospect" });
    await testDb.db.customer.update({ where: { id: customerId }, data: { firstScannedAt: new Date("2026-12-01T10:00:00Z") } });
    const answer = await download(reportPath(customerId, "?kind=prospect"));
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("application/pdf");
    expect(answer.headers.get("content-disposition")).toBe('attachment; filename="exposure-check.pdf"');
    const text = await pdfToText(answer.bytes);
    for (const line of [
      "Exposure check",
      "made on 1 Dec 2026",
      "Breach instances 3",
      "Exposed mailboxes 3",
      `ceo@${domain}: in 2 breaches`,
      `cfo@${domain}: in 1 breach`,
      `it@${domain}: in 1 breach`,
      "What full monitoring adds",
      "Which breaches these are, when they happened and what data they exposed",
      "Ask Northwind IT about full monitoring.",
    ])
      expect(text).toContain(line);
    // The API's count is the same.
    const listed = await server.api.get(`/api/v1/integrations/customer/${customerId}/breaches`, org.partner.headers);
    expect(listed.body.count).toBe(3);
    for (const withheld of [
      "Alpha",
      "Beta",
      "Gamma",
      "Forum",
      "Shop",
      "Games",
      "Passwords",
      "Phone",
      "Names",
      "2025",
      "2024",
      "2021",
      "Nov",
      "Jun",
      "Jan",
    ])
      expect(text).not.toContain(withheld);
  });

  it("is in the prospect's locale", async () => {
    const { customerId, domain } = await customerWithFindings({ status: "prospect", localeCode: "fi-FI" });
    const text = await pdfToText((await download(reportPath(customerId, "?kind=prospect"))).bytes);
    expect(text).toContain("Paljastumatarkistus");
    expect(text).toContain("Esiintymät tietomurroissa 3");
    expect(text).toContain(`ceo@${domain}: 2 tietomurrossa`);
    expect(text).toContain("Mitä täysi valvonta tuo lisää");
  });
});

describe("bad requests", () => {
  it("answer the envelope with what is wrong", async () => {
    const { customerId } = await customerWithFindings();
    const prospect = (await customerWithFindings({ status: "prospect" })).customerId;
    const other = await createTestOrg(testDb.db);
    const cases: Array<[string, number, string, Record<string, string>?]> = [
      [reportPath(customerId, "?from=2026-02-30"), 400, "from must be a date (YYYY-MM-DD)"],
      [reportPath(customerId, "?to=yesterday"), 400, "to must be a date (YYYY-MM-DD)"],
      [reportPath(customerId, "?from=2026-03-01&to=2026-02-01"), 400, "from must not be later than to"],
      [reportPath(customerId, "?from=2025-01-01&to=2026-02-01"), 400, "The period may be at most 366 days"],
      [reportPath(customerId, "?to=2999-01-01"), 400, "to must not be later than today (UTC)"],
      [reportPath(customerId, "?kind=weekly"), 400, "kind must be executive or prospect"],
      [reportPath(customerId, "?localeCode=xx-XX"), 400, `Invalid query parameters: ${LOCALE_MESSAGE}`],
      [reportPath("abc"), 400, "Invalid route parameters: Customer ID must be a valid UUID"],
      [reportPath(randomUUID()), 404, "Customer not found or does not belong to partner"],
      [reportPath(customerId), 404, "Customer not found or does not belong to partner", other.partner.headers],
      [reportPath(prospect), 422, "Customer is a prospect: its report is kind=prospect"],
      [reportPath(customerId, "?kind=prospect"), 422, "Customer is not a prospect: kind=prospect is the one-time check of a prospect"],
    ];
    for (const [path, status, error, headers] of cases) {
      const answer = await server.api.get(path, headers ?? org.partner.headers);
      expect([path, answer.status, answer.body]).toEqual([path, status, { success: false, error }]);
    }
    // A year, leap day included, is allowed; the default period is the last 90 days.
    expect((await download(reportPath(customerId, "?from=2024-01-01&to=2024-12-31"))).status).toBe(200);
    const defaulted = await download(reportPath(customerId));
    expect(defaulted.status).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    const from = new Date(Date.now() - 89 * 86_400_000).toISOString().slice(0, 10);
    expect(defaulted.headers.get("content-disposition")).toBe(`attachment; filename="exposure-report-${from}-${today}.pdf"`);
  });
});
