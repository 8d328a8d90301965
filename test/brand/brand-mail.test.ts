import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { putBrandSettings } from "../../server/brand/settings";
import { customerDomain } from "../../server/domains/domains";
import { sendVerificationLink } from "../../server/domains/email-link";
import { queueMonthlyReport } from "../../server/notifications/monthly-reports";
import { closeMailTransports } from "../../server/notifications/transport";
import { requestEmailSignIn } from "../../server/portal/email-sign-in";
import { createMagicLink } from "../../server/portal/magic-links";
import { requestSignInLink } from "../../server/portal/auth-routes";
import { createTestCustomer } from "../helpers/customers";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { runJobsUntilIdle } from "../helpers/jobs";
import { startSmtpServer, type ReceivedMail, type TestSmtpServer } from "../helpers/smtp";
import { pngLogo } from "./fixtures";

const run = promisify(execFile);
let testDb: TestDatabase;
let org: TestOrg;
let smtp: TestSmtpServer;
const MAIL_FROM = "Exposure monitoring <alerts@monitor.example>";
const LOGO_COLOR = [0x7e, 0x22, 0xce] as const;
const PERIOD = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 1)).toISOString().slice(0, 7);
let plainPartnerId: string;

beforeAll(async () => {
  vi.stubEnv("APP_URL", "https://monitor.example");
  vi.stubEnv("MAIL_FROM", MAIL_FROM);
  testDb = await createTestDatabase();
  org = await createTestOrg(testDb.db);
  await putBrandSettings(
    testDb.db,
    { partnerId: org.partner.id },
    {
      name: "Acme IT",
      logo: await pngLogo("#7e22ce", 240, 80),
      primaryColor: "#0b5394",
      supportEmail: "help@acme.example",
      supportPhone: "+44 20 7946 0000",
      supportUrl: "https://help.acme.example",
      senderName: "Acme IT Security",
      replyTo: "service@acme.example",
      portalHost: "portal.acme.test",
    },
  );
  plainPartnerId = (await createTestOrg(testDb.db)).partner.id;
  smtp = await startSmtpServer();
  vi.stubEnv("SMTP_URL", smtp.url);
});
afterAll(async () => {
  closeMailTransports();
  vi.unstubAllEnvs();
  await smtp?.close();
  await testDb?.close();
});

async function onboard(partnerId: string) {
  const domain = `c${Math.random().toString(36).slice(2, 10)}.example`;
  const customerId = await createTestCustomer(testDb.db, partnerId, {
    companyName: "Contoso Ltd",
    contactEmail: `it@${domain}`,
    assetsDomains: [domain],
    assetsEmails: [],
    alertRecipients: [`security@${domain}`],
    localeCode: "en-GB",
  });
  return { customerId, domain };
}

const mailTo = (address: string, pick: (mail: ReceivedMail) => boolean = () => true) =>
  smtp.received.filter((mail) => mail.envelopeTo.includes(address) && pick(mail));
const linksIn = (mail: ReceivedMail) =>
  [...`${mail.parsed.html ?? ""} ${mail.parsed.text ?? ""}`.matchAll(/https?:\/\/[^\s"'<>)]+/g)].map((m) => m[0]);
/** The links the service made (not the brand's support address, not the HTML's DOCTYPE). */
const ownLinks = (mail: ReceivedMail) =>
  linksIn(mail).filter((link) => !link.startsWith("https://help.acme.example") && !link.startsWith("http://www.w3.org/"));

function expectBranded(mail: ReceivedMail) {
  expect(mail.parsed.from).toMatchObject({ name: "Acme IT Security", address: "alerts@monitor.example" });
  expect(mail.header("reply-to")).toBe("service@acme.example");
  expect(mail.parsed.html).toContain('alt="Acme IT"');
  expect(mail.parsed.text).toContain("Acme IT: help@acme.example · +44 20 7946 0000 · https://help.acme.example");
  const logo = mail.parsed.attachments.find((part) => part.filename === "logo.png");
  expect(logo?.contentId).toBeTruthy();
  expect(mail.parsed.html).toContain(`cid:${logo!.contentId!.replace(/[<>]/g, "")}`);
  const links = ownLinks(mail);
  expect(links.length).toBeGreaterThan(0);
  for (const link of links) expect(link, link).toMatch(/^https:\/\/portal\.acme\.test\//);
}

describe("e-mails to a branded partner's customers", () => {
  it("the welcome: sender name, reply-to, logo, contacts, links on the portal host", async () => {
    const { domain } = await onboard(org.partner.id);
    await runJobsUntilIdle(testDb.db);
    const [welcome] = mailTo(`it@${domain}`);
    expect(welcome).toBeDefined();
    expectBranded(welcome!);
    expect(welcome!.parsed.text).toContain("Acme IT");
    expect(welcome!.header("list-unsubscribe")).toMatch(/^<https:\/\/portal\.acme\.test\/api\/unsubscribe\?token=/);
  });

  it("the monthly report: branded e-mail, and a PDF with the brand's name, contacts and logo", async () => {
    const { customerId, domain } = await onboard(org.partner.id);
    expect(await queueMonthlyReport(testDb.db, customerId, PERIOD)).toHaveLength(1);
    await runJobsUntilIdle(testDb.db);
    const [report] = mailTo(`security@${domain}`, (mail) => mail.parsed.attachments.some((part) => part.mimeType === "application/pdf"));
    expectBranded(report!);
    const pdf = report!.parsed.attachments.find((part) => part.mimeType === "application/pdf")!;
    const { text, logoPixels } = await readPdf(Buffer.from(pdf.content as ArrayBuffer));
    expect(text).toContain("Acme IT");
    expect(text).toContain("help@acme.example");
    expect(text).toContain("+44 20 7946 0000");
    expect(logoPixels).toBeGreaterThan(500);
  });

  it("the sign-in link by e-mail and the REST magic link point at the portal host", async () => {
    const { customerId, domain } = await onboard(org.partner.id);
    const request = await requestEmailSignIn(testDb.db, { email: `it@${domain}` });
    expect(request.ok && (await request.deliver())).toBe(1);
    const [mail] = mailTo(`it@${domain}`, (candidate) => candidate.parsed.subject?.includes("sign-in link") ?? false);
    expectBranded(mail!);
    expect(ownLinks(mail!).some((link) => link.startsWith("https://portal.acme.test/auth/confirm?token_hash="))).toBe(true);
    const { url } = await createMagicLink(testDb.db, org.partner.id, customerId);
    expect(url).toMatch(/^https:\/\/portal\.acme\.test\/auth\/confirm\?token_hash=/);
  });

  it("the domain verification e-mail", async () => {
    const { customerId, domain } = await onboard(org.partner.id);
    await sendVerificationLink(testDb.db, await customerDomain(testDb.db, customerId, domain), "postmaster");
    const [mail] = mailTo(`postmaster@${domain}`);
    expectBranded(mail!);
    expect(ownLinks(mail!).some((link) => link.startsWith("https://portal.acme.test/verify-domain?token="))).toBe(true);
  });
});

describe("a partner without a brand, and request Host headers", () => {
  it("keeps today's look: the service's sender, the partner's name, APP_URL links, no logo", async () => {
    const { customerId, domain } = await onboard(plainPartnerId);
    expect(await queueMonthlyReport(testDb.db, customerId, PERIOD)).toHaveLength(1);
    await runJobsUntilIdle(testDb.db);
    const mails = mailTo(`it@${domain}`).concat(mailTo(`security@${domain}`));
    expect(mails.length).toBe(2);
    for (const mail of mails) {
      expect(mail.header("from")).toBe(MAIL_FROM);
      expect(mail.parsed.attachments.some((part) => part.filename === "logo.png")).toBe(false);
      for (const link of ownLinks(mail)) expect(link).toMatch(/^https:\/\/monitor\.example\//);
    }
    const pdf = mails.flatMap((mail) => mail.parsed.attachments).find((part) => part.mimeType === "application/pdf")!;
    expect((await readPdf(Buffer.from(pdf.content as ArrayBuffer))).logoPixels).toBe(0);
  });

  it("never puts a request's Host into a link: unregistered or another partner's host", async () => {
    const branded = await onboard(org.partner.id);
    const plain = await onboard(plainPartnerId);
    for (const host of ["evil.example", "portal.acme.test", "monitor.example"]) {
      for (const { domain } of [branded, plain]) {
        const before = smtp.received.length;
        const request = new Request(`http://${host}/auth/sign-in`, {
          method: "POST",
          headers: { host, origin: `https://${host}`, "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ email: `it@${domain}` }),
        });
        const { response, deliver } = await requestSignInLink(testDb.db, request);
        expect(response.status, host).toBe(303);
        expect(await deliver!()).toBe(1);
        const mail = smtp.received.slice(before).find((candidate) => candidate.envelopeTo.includes(`it@${domain}`))!;
        const links = ownLinks(mail);
        expect(links.length).toBeGreaterThan(0);
        const expected = domain === branded.domain ? "https://portal.acme.test/" : "https://monitor.example/";
        for (const link of links) expect(link, `${host} ${link}`).toMatch(new RegExp(`^${expected.replace(/\./g, "\\.")}`));
        expect(mail.raw).not.toContain("evil.example");
      }
    }
  });
});

/** The PDF's text (pdftotext) and the pixels of the logo's colour on its first page (pdftoppm). */
async function readPdf(pdf: Buffer): Promise<{ text: string; logoPixels: number }> {
  const dir = await mkdtemp(path.join(tmpdir(), "brand-pdf-"));
  try {
    const file = path.join(dir, "report.pdf");
    await writeFile(file, pdf);
    await run("pdftotext", ["-layout", file, path.join(dir, "report.txt")]);
    await run("pdftoppm", ["-png", "-r", "72", "-f", "1", "-l", "1", "-singlefile", file, path.join(dir, "page")]);
    const { data, info } = await sharp(await readFile(path.join(dir, "page.png")))
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    let logoPixels = 0;
    for (let offset = 0; offset < data.length; offset += info.channels) {
      if (LOGO_COLOR.every((value, index) => Math.abs(data[offset + index]! - value) <= 6)) logoPixels++;
    }
    return { text: await readFile(path.join(dir, "report.txt"), "utf8"), logoPixels };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
