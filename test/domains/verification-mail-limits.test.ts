import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { LINKS_PER_PARTNER_PER_DAY, TOO_MANY_PARTNER_LINKS } from "../../server/domains/email-link";
import { onboardBody } from "../helpers/customers";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { runJobsUntilIdle } from "../helpers/jobs";
import { restTestBed } from "../helpers/rest";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp";

// Issue 39, item 5: free prospects must not multiply the verification mails one partner can send.
const { testDb, server } = restTestBed();
let smtp: TestSmtpServer;
let sender: TestOrg;
let other: TestOrg;

beforeAll(async () => {
  smtp = await startSmtpServer();
  vi.stubEnv("SMTP_URL", smtp.url);
  sender = await createTestOrg(testDb.db, "Sender", { domainPolicy: "verified" });
  other = await createTestOrg(testDb.db, "Other", { domainPolicy: "verified" });
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await smtp?.close();
});

async function onboardProspect(org: TestOrg, domains: string[]): Promise<string> {
  const body = onboardBody({ status: "prospect", assetsDomains: domains, assetsEmails: [] });
  const res = await server.api.post("/api/v1/integrations/customer/onboard", body, org.partner.headers);
  expect(res.status).toBe(200);
  return res.body.customerId;
}

const requestMail = (org: TestOrg, customerId: string, domain: string) =>
  server.api.post(
    `/api/v1/integrations/customer/${customerId}/domains/${domain}/verify`,
    { method: "email", mailbox: "security" },
    org.partner.headers,
  );

describe("the per-partner limit of verification e-mails", () => {
  it(`sends ${LINKS_PER_PARTNER_PER_DAY} across a partner's customers, refuses the next with 429, and leaves another partner alone`, async () => {
    expect(LINKS_PER_PARTNER_PER_DAY).toBe(20);
    // 21 domains, one mail each (far below the per-domain limit), across three prospects of one partner.
    const domains = Array.from({ length: 21 }, (_, i) => `target${i + 1}.example`);
    const requests: Array<{ customerId: string; domain: string }> = [];
    for (let first = 0; first < domains.length; first += 7) {
      const batch = domains.slice(first, first + 7);
      const customerId = await onboardProspect(sender, batch);
      requests.push(...batch.map((domain) => ({ customerId, domain })));
    }
    await runJobsUntilIdle(testDb.db);

    const answers: number[] = [];
    for (const { customerId, domain } of requests.slice(0, 20)) answers.push((await requestMail(sender, customerId, domain)).status);
    expect(answers).toEqual(Array(20).fill(200));

    const last = requests[20]!;
    const refused = await requestMail(sender, last.customerId, last.domain);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ success: false, error: TOO_MANY_PARTNER_LINKS });
    expect(TOO_MANY_PARTNER_LINKS).toBe("At most 20 verification e-mails per partner in 24 hours; try again later");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(23 * 3600);
    expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(24 * 3600);
    expect(smtp.to(`security@${last.domain}`)).toHaveLength(0);
    for (const domain of domains.slice(0, 20)) expect(smtp.to(`security@${domain}`)).toHaveLength(1);

    // Another partner's customer, even at the refused domain, still gets its mail sent.
    const elsewhere = await onboardProspect(other, [last.domain]);
    await runJobsUntilIdle(testDb.db);
    expect((await requestMail(other, elsewhere, last.domain)).status).toBe(200);
    expect(smtp.to(`security@${last.domain}`)).toHaveLength(1);
  });
});
