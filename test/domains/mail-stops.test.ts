import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { POST as postStop } from "../../app/api/verify-domain/stop/route";
import StopVerificationMailsPage from "../../app/verify-domain/stop/page";
import { MAIL_STOPPED } from "../../server/domains/mail-stops";
import { onboardBody } from "../helpers/customers";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { runJobsUntilIdle } from "../helpers/jobs";
import { restTestBed } from "../helpers/rest";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp";

// The page and its route read the server's database; here it is the test's.
vi.mock("@/server/db/instance", () => ({ getAppDb: async () => testDb.db }));

const { testDb, server } = restTestBed();
let smtp: TestSmtpServer;
let stopped: TestOrg;
let other: TestOrg;

beforeAll(async () => {
  smtp = await startSmtpServer();
  vi.stubEnv("SMTP_URL", smtp.url);
  stopped = await createTestOrg(testDb.db, "Stopped", { domainPolicy: "verified" });
  other = await createTestOrg(testDb.db, "Unrelated", { domainPolicy: "verified" });
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await smtp?.close();
});

async function onboard(org: TestOrg, domain: string): Promise<string> {
  const res = await server.api.post("/api/v1/integrations/customer/onboard", onboardBody({ assetsDomains: [domain] }), org.partner.headers);
  expect(res.status).toBe(200);
  await runJobsUntilIdle(testDb.db);
  return res.body.customerId;
}

const requestMail = (org: TestOrg, customerId: string, domain: string) =>
  server.api.post(
    `/api/v1/integrations/customer/${customerId}/domains/${domain}/verify`,
    { method: "email", mailbox: "security" },
    org.partner.headers,
  );

const page = async (token: string | string[] | undefined) =>
  renderToStaticMarkup(await StopVerificationMailsPage({ searchParams: Promise.resolve({ token }) }));

const submit = (token: string) => {
  const form = new FormData();
  form.set("token", token);
  return postStop(new Request("http://localhost/api/verify-domain/stop", { method: "POST", body: form }));
};

describe('a verification e-mail\'s "not us: stop" link', () => {
  it("asks first, stops that partner's e-mails to the domain on POST, and leaves other partners alone", async () => {
    const first = await onboard(stopped, "stop.example");
    expect((await requestMail(stopped, first, "stop.example")).status).toBe(200);
    const [mail] = smtp.to("security@stop.example");
    const stopLink = /\/verify-domain\/stop\?token=([A-Za-z0-9_.-]+)/.exec(mail!.parsed.text ?? "");
    expect(stopLink).not.toBeNull();
    expect(mail!.parsed.html).toContain("/verify-domain/stop?token=");
    const token = stopLink![1]!;

    // Opening the page only asks (mail scanners open links too).
    const asked = await page(token);
    expect(asked).toContain("Stop the e-mails in which Stopped partner, a partner of Stopped distributor, asks to confirm stop.example?");
    expect(asked).toContain('action="/api/verify-domain/stop"');
    expect(await testDb.db.domainMailStop.count()).toBe(0);

    const answer = await submit(token);
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toContain(`/verify-domain/stop?token=${encodeURIComponent(token)}`);
    expect(await page(token)).toContain("Done: Stopped partner sends no more verification e-mails for stop.example.");
    expect((await submit(token)).status).toBe(303); // idempotent

    // The same partner, for this customer or another, is refused and sends nothing.
    const second = await onboard(stopped, "stop.example");
    for (const customerId of [first, second]) {
      const refused = await requestMail(stopped, customerId, "stop.example");
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ success: false, error: MAIL_STOPPED });
    }
    expect(smtp.to("security@stop.example")).toHaveLength(1);

    // Another partner's request to the same domain still goes out, and so do the partner's to other domains.
    const unrelated = await onboard(other, "stop.example");
    expect((await requestMail(other, unrelated, "stop.example")).status).toBe(200);
    expect(smtp.to("security@stop.example")).toHaveLength(2);
    const elsewhere = await onboard(stopped, "elsewhere.example");
    expect((await requestMail(stopped, elsewhere, "elsewhere.example")).status).toBe(200);
  });

  it('shows the page\'s "not valid" state for a bad, forged or NUL-containing token, and stops nothing', async () => {
    const [mail] = smtp.to("security@elsewhere.example");
    const token = /\/verify-domain\/stop\?token=([A-Za-z0-9_.-]+)/.exec(mail!.parsed.text ?? "")![1]!;
    const [payload, signature] = token.split(".") as [string, string];
    const forged = `${Buffer.from(JSON.stringify(["1", other.partner.id, "elsewhere.example", "en-GB"])).toString("base64url")}.${signature}`;
    const before = await testDb.db.domainMailStop.count();
    for (const bad of [
      "",
      "nonsense",
      "a\u0000b",
      `${token}\u0000`,
      `${payload}.${"A".repeat(43)}`,
      forged,
      "x".repeat(5_000),
      ["a\u0000b", token],
    ]) {
      const html = await page(bad);
      expect(html).toContain("This link is not valid.");
      expect(html).not.toContain("<form");
      if (typeof bad === "string") expect((await submit(bad)).status).toBe(303);
    }
    expect(await testDb.db.domainMailStop.count()).toBe(before);
  });
});
