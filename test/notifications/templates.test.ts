import { PDFParse } from "pdf-parse";
import { describe, expect, it, vi } from "vitest";
import { DEFAULT_BRAND } from "../../server/brand/brand";
import { LOCALE_CODES, type LocaleCode } from "../../server/i18n/locales";
import { renderNotification, renderOrganizationNotification, type RenderContext } from "../../server/notifications/render";
import { notificationSubject } from "../../server/notifications/subjects";
import type {
  CustomerNotificationContent,
  MonthlyReportData,
  OrganizationNotificationContent,
  WebhookHealthEndpoint,
} from "../../server/notifications/types";

const context = (locale: LocaleCode): RenderContext => ({
  locale,
  brand: { ...DEFAULT_BRAND, name: "Northwind IT", replyTo: "help@northwind.example" },
  unsubscribeUrl: "https://monitor.example/unsubscribe?token=TOKEN",
});

const report: MonthlyReportData = {
  companyName: "Acme Ltd",
  period: "2026-10",
  threatScore: 42,
  previous: { period: "2026-09", threatScore: 37 },
  newBreaches: {
    count: 2,
    listed: [
      { title: "Canva", breachDate: "2019-05-24", emails: ["ceo@acme.example", "cfo@acme.example"] },
      { title: "Adobe", breachDate: "2013-10-04", emails: ["ceo@acme.example"] },
    ],
  },
  openBreaches: 3,
  fixedBreaches: 1,
  domains: ["acme.co.uk", "acme.example"],
  emailCount: 12,
  openListed: [
    { title: "Canva", breachDate: "2019-05-24", emails: ["ceo@acme.example", "cfo@acme.example"] },
    { title: "Adobe", breachDate: "2013-10-04", emails: ["ceo@acme.example"] },
  ],
  fixedListed: [{ title: "Dropbox", breachDate: "2012-07-01", resolvedAt: "2026-10-12", emails: ["cfo@acme.example"] }],
  directoryEmailCount: 5,
};

const CONTENT: Record<string, CustomerNotificationContent> = {
  welcome: { kind: "welcome", data: { companyName: "Acme Ltd", domains: ["acme.example"], emails: ["ceo@acme.example"] } },
  alert: {
    kind: "breach_alert",
    data: {
      companyName: "Acme Ltd",
      redacted: false,
      breaches: [
        {
          name: "Canva",
          title: "Canva",
          breachDate: "2019-05-24",
          pwnCount: 137272116,
          dataClasses: ["Email addresses", "Names", "Passwords", "Usernames"],
          emails: ["ceo@acme.example", "cfo@acme.example"],
        },
        {
          name: "Adobe",
          title: "Adobe",
          breachDate: "2013-10-04",
          pwnCount: 152445165,
          dataClasses: ["Email addresses", "Passwords"],
          emails: ["ceo@acme.example"],
        },
      ],
    },
  },
  redactedAlert: {
    kind: "breach_alert",
    data: { companyName: "Acme Ltd", redacted: true, count: 2, emails: ["ceo@acme.example", "cfo@acme.example"] },
  },
  report: { kind: "monthly_report", data: report },
};

describe("rendered messages (snapshots of the plain-text part)", () => {
  for (const locale of ["en-GB", "sv-SE"] as const) {
    for (const [name, content] of Object.entries(CONTENT)) {
      it(`${name} in ${locale}`, async () => {
        const rendered = await renderNotification(content, context(locale));
        expect(rendered.subject).toBe(notificationSubject(content, locale));
        expect(rendered.text).toMatchSnapshot();
        // Both parts say the same; the HTML is in the locale's language and loads nothing from elsewhere.
        expect(rendered.html).toContain(`lang="${locale}"`);
        expect(rendered.html).not.toMatch(/<(img|script|link)\b/);
        expect(rendered.html).toContain('href="https://monitor.example/unsubscribe?token=TOKEN"');
      });
    }
  }

  it("the active customer's alert gives each breach's summary, data, addresses and next steps; the redacted one none of them", async () => {
    const full = await renderNotification(CONTENT.alert!, context("en-GB"));
    expect(full.text).toContain("In May 2019, Canva suffered a data breach affecting 137,272,116 accounts.");
    expect(full.text).toContain("Exposed data: Email addresses, Names, Passwords, Usernames");
    expect(full.text).toContain("Turn on multi-factor authentication wherever it is offered.");
    const redacted = await renderNotification(CONTENT.redactedAlert!, context("en-GB"));
    for (const withheld of ["Canva", "Adobe", "Passwords", "2019", "multi-factor"])
      expect(redacted.html + redacted.text).not.toContain(withheld);
  });

  it("tells the newest breaches in full and the rest by title, and cuts long address lists, staying under the clipping size", async () => {
    const emails = Array.from({ length: 30 }, (_, index) => `user${String(index).padStart(2, "0")}@acme.example`);
    const breaches = Array.from({ length: 40 }, (_, index) => ({
      name: `Breach${index}`,
      title: `Breach number ${index}`,
      breachDate: `${2025 - index}-01-15`,
      pwnCount: 1000,
      dataClasses: ["Email addresses", "Passwords", "Phone numbers", "Physical addresses"],
      emails,
    }));
    const rendered = await renderNotification(
      { kind: "breach_alert", data: { companyName: "Acme Ltd", redacted: false, breaches } },
      context("en-GB"),
    );
    expect(rendered.subject).toBe("40 new data breaches found for Acme Ltd");
    expect(rendered.text.match(/^BREACH NUMBER \d+$/gm)).toEqual(Array.from({ length: 10 }, (_, index) => `BREACH NUMBER ${index}`));
    expect(rendered.text).toContain("ALSO FOUND\n\n * Breach number 10 (15 Jan 2015)\n * Breach number 11 (15 Jan 2014)");
    expect(rendered.text).toContain(" * Breach number 39 (15 Jan 1986)");
    expect(rendered.text).toContain(" * user19@acme.example\n * and 10 more addresses");
    expect(rendered.text).not.toContain("user20@acme.example");
    expect(Buffer.byteLength(rendered.html)).toBeLessThan(100_000);
  });

  it("says when a reply reaches the partner only when the partner has a reply-to address", async () => {
    const withReply = await renderNotification(CONTENT.welcome!, context("en-GB"));
    const without = await renderNotification(CONTENT.welcome!, {
      ...context("en-GB"),
      brand: { ...context("en-GB").brand, replyTo: null },
    });
    expect(withReply.text).toContain("Questions? Reply to this e-mail to reach Northwind IT.");
    expect(without.text).not.toContain("Reply to this e-mail");
  });
});

describe("webhook health messages to an endpoint's owner (en-GB: organizations have no locale)", () => {
  const endpoint: WebhookHealthEndpoint = {
    id: "6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b",
    url: "https://hooks.northwind.example/exposure",
    protocol: "current",
    apiPath: "/api/v1/integrations/webhooks/6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b",
    adminPath: null,
  };
  const messages: Record<string, OrganizationNotificationContent> = {
    failing: {
      kind: "webhook_failing",
      data: {
        organizationName: "Northwind IT",
        endpoint,
        failingSince: "2026-11-25T14:03:00.000Z",
        consecutiveFailures: 1,
        lastError: "HTTP 503",
        lastSuccessAt: "2026-11-25T12:00:00.000Z",
        recoverSince: "2026-11-25T13:01:00.000Z",
        disableAfter: 20,
      },
    },
    disabled: {
      kind: "webhook_disabled",
      data: {
        organizationName: "Northwind IT",
        endpoint: { ...endpoint, protocol: "legacy", apiPath: `/api/integrations/webhooks/${endpoint.id}` },
        disabledKind: "failing",
        disabledReason: "Disabled after 20 failed deliveries in a row; last error: HTTP 503",
        disabledAt: "2026-11-25T18:03:00.000Z",
        lastSuccessAt: null,
        recoverSince: "2026-11-25T13:01:00.000Z",
      },
    },
  };
  for (const [name, content] of Object.entries(messages)) {
    it(name, async () => {
      vi.stubEnv("APP_URL", "https://monitor.example");
      try {
        const rendered = await renderOrganizationNotification(content, "en-GB");
        expect(rendered.subject).toBe(notificationSubject(content, "en-GB"));
        expect(rendered.text).toMatchSnapshot();
        expect(rendered.html).not.toMatch(/<(img|script|link)\b/);
        expect(rendered.html).not.toContain("unsubscribe?token");
      } finally {
        vi.unstubAllEnvs();
      }
    });
  }
});

describe("subject lines", () => {
  it("are written in all six locales", () => {
    const subjects = Object.fromEntries(
      LOCALE_CODES.map((locale) => [
        locale,
        Object.fromEntries(Object.entries(CONTENT).map(([name, content]) => [name, notificationSubject(content, locale)])),
      ]),
    );
    expect(subjects).toEqual({
      "sv-SE": {
        welcome: "Intrångsbevakningen är nu aktiv för Acme Ltd",
        alert: "2 nya dataintrång hittade för Acme Ltd",
        redactedAlert: "2 nya dataintrång hittade för Acme Ltd",
        report: "Intrångsrapport för Acme Ltd: oktober 2026",
      },
      "nb-NO": {
        welcome: "Overvåking av datainnbrudd er nå aktiv for Acme Ltd",
        alert: "2 nye datainnbrudd funnet for Acme Ltd",
        redactedAlert: "2 nye datainnbrudd funnet for Acme Ltd",
        report: "Innbruddsrapport for Acme Ltd: oktober 2026",
      },
      "fi-FI": {
        welcome: "Tietomurtojen valvonta on nyt käytössä: Acme Ltd",
        alert: "2 uutta tietomurtoa löytyi: Acme Ltd",
        redactedAlert: "2 uutta tietomurtoa löytyi: Acme Ltd",
        report: "Tietomurtoraportti: Acme Ltd, lokakuu 2026",
      },
      "da-DK": {
        welcome: "Overvågning af databrud er nu aktiv for Acme Ltd",
        alert: "2 nye databrud fundet for Acme Ltd",
        redactedAlert: "2 nye databrud fundet for Acme Ltd",
        report: "Rapport om databrud for Acme Ltd: oktober 2026",
      },
      "en-GB": {
        welcome: "Breach monitoring is now active for Acme Ltd",
        alert: "2 new data breaches found for Acme Ltd",
        redactedAlert: "2 new data breaches found for Acme Ltd",
        report: "Breach report for Acme Ltd: October 2026",
      },
      "nl-NL": {
        welcome: "Bewaking op datalekken is nu actief voor Acme Ltd",
        alert: "2 nieuwe datalekken gevonden voor Acme Ltd",
        redactedAlert: "2 nieuwe datalekken gevonden voor Acme Ltd",
        report: "Rapport datalekken voor Acme Ltd: oktober 2026",
      },
    });
  });

  it("use one breach's own wording", () => {
    const one: CustomerNotificationContent = {
      kind: "breach_alert",
      data: { companyName: "Acme Ltd", redacted: true, count: 1, emails: ["a@acme.example"] },
    };
    expect(LOCALE_CODES.map((locale) => notificationSubject(one, locale))).toEqual([
      "Nytt dataintrång hittat för Acme Ltd",
      "Nytt datainnbrudd funnet for Acme Ltd",
      "Uusi tietomurto löytyi: Acme Ltd",
      "Nyt databrud fundet for Acme Ltd",
      "New data breach found for Acme Ltd",
      "Nieuw datalek gevonden voor Acme Ltd",
    ]);
  });
});

describe("the monthly report", () => {
  async function pdfText(
    content: CustomerNotificationContent,
    locale: LocaleCode,
  ): Promise<{ text: string; pages: number; filename: string }> {
    const [attachment, ...others] = (await renderNotification(content, context(locale))).attachments;
    expect(others).toEqual([]);
    expect(attachment!.contentType).toBe("application/pdf");
    const parser = new PDFParse({ data: new Uint8Array(attachment!.content) });
    try {
      const parsed = await parser.getText();
      return { text: parsed.text, pages: parsed.total, filename: attachment!.filename };
    } finally {
      await parser.destroy();
    }
  }

  it("carries a PDF of the same report that opens and says what the e-mail says", async () => {
    const email = await renderNotification(CONTENT.report!, context("en-GB"));
    const pdf = await pdfText(CONTENT.report!, "en-GB");
    expect(pdf.filename).toBe("breach-report-2026-10.pdf");
    expect(pdf.pages).toBe(1);
    const lines = [
      "Breach report for October 2026",
      "Acme Ltd",
      "42 of 97",
      "Up 5 since the report for September 2026",
      "New breaches",
      "Open breaches",
      "Fixed breaches",
      "Canva (24 May 2019): ceo@acme.example, cfo@acme.example",
      "Still open",
      "and 1 more",
      "Resolved this month",
      "Dropbox: resolved on 12 Oct 2026 (cfo@acme.example)",
      "12 active mailboxes, 5 of them from your directory",
      "2 domains, 12 e-mail addresses",
      "acme.co.uk",
    ];
    // Headings are upper-case in the plain-text part.
    const flat = (text: string) => text.replace(/\s+/g, " ").toLowerCase();
    for (const line of lines) {
      expect(flat(pdf.text)).toContain(line.toLowerCase());
      expect(flat(email.text)).toContain(line.toLowerCase());
    }
  });

  it("is written in the customer's language, PDF included", async () => {
    const pdf = await pdfText(CONTENT.report!, "da-DK");
    expect(pdf.text).toContain("Rapport om databrud for oktober 2026");
    expect(pdf.text).toContain("Trusselsscore");
    expect(pdf.text).toContain("Op 5 siden rapporten for september 2026");
  });

  it("says when it is the first report, lists at most the listed breaches, and draws what its fonts can", async () => {
    const first: CustomerNotificationContent = {
      kind: "monthly_report",
      data: {
        ...report,
        companyName: "Ääkkönen Oy 東京",
        previous: null,
        newBreaches: { count: 25, listed: report.newBreaches.listed },
        domains: [],
      },
    };
    const email = await renderNotification(first, context("fi-FI"));
    expect(email.text).toContain("Tämä on ensimmäinen raportti.");
    expect(email.text).toContain("ja 23 muuta");
    const pdf = await pdfText(first, "fi-FI");
    expect(pdf.text).toContain("Ääkkönen Oy ??");
    expect(pdf.text).toContain("ja 23 muuta");
  });
});
