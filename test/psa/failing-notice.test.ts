import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { Db } from "../../server/db/client";
import { closeMailTransports } from "../../server/notifications/transport";
import { getPsaConnection, mapCustomerToPsaCompany, savePsaConnection, testPsaConnection } from "../../server/psa/connections";
import { runPsaSync } from "../../server/psa/jobs";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { runJobsUntilIdle } from "../helpers/jobs";
import { FakeConnectWise } from "../helpers/psa-fakes";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp";
import { connectionIdOf, customerWithBreach } from "./support";

/**
 * The partner's contact is told when its PSA refuses the credentials (issue 41 item 2: "401/403
 * mark the connection failing, visible in the admin UI and by e-mail to the partner's contact, as
 * endpoint health is today"): one e-mail per failing episode, over a real SMTP server, however
 * often the sync, the poll or a test meet the refusal again; a new episode after a recovery is
 * told again. Against the stateful ConnectWise fake.
 */
const credentials = { companyId: "acme_msp", publicKey: "pub-key-1", privateKey: `priv-${randomUUID()}`, clientId: randomUUID() };
let testDb: TestDatabase;
let db: Db;
let psa: FakeConnectWise;
let smtp: TestSmtpServer;
let org: TestOrg;
let contact: string;

beforeAll(async () => {
  testDb = await createTestDatabase();
  db = testDb.db;
  psa = await new FakeConnectWise(credentials).start();
  smtp = await startSmtpServer();
  vi.stubEnv("WEBHOOK_ALLOW_PRIVATE_URLS", "true");
  vi.stubEnv("APP_URL", "https://monitor.example");
  vi.stubEnv("SMTP_URL", smtp.url);
  vi.stubEnv("MAIL_FROM", "");
});
afterAll(async () => {
  vi.unstubAllEnvs();
  closeMailTransports();
  await smtp?.close();
  await psa?.close();
  await testDb?.close();
});
beforeEach(async () => {
  org = await createTestOrg(db, `Notice ${randomUUID().slice(0, 6)}`);
  contact = `ops-${randomUUID().slice(0, 6)}@msp.example`;
  await db.partner.update({ where: { id: org.partner.id }, data: { contactEmail: contact } });
  psa.credentials = credentials;
  await savePsaConnection(db, org.partner.id, { provider: "connectwise", site: psa.baseUrl, ...credentials, boardId: psa.boardId });
  const found = await customerWithBreach(db, org.partner.id);
  await mapCustomerToPsaCompany(db, org.partner.id, found.customerId, "250");
});

async function sync() {
  await runPsaSync(db, await connectionIdOf(db, org.partner.id));
}
const noticesOf = (partnerId: string) =>
  db.notification.findMany({ where: { partnerId, kind: "psa_failing" }, orderBy: { createdAt: "asc" } });

describe("the PSA refuses the credentials", () => {
  it("the partner's contact gets one e-mail per failing episode, with what the PSA answered and the steps back", async () => {
    psa.credentials = { ...credentials, privateKey: "rotated" };
    await sync();
    expect(await getPsaConnection(db, org.partner.id)).toMatchObject({ state: "failing" });
    // The refusal met again: a test, another run, the queued jobs.
    expect(await testPsaConnection(db, org.partner.id)).toMatchObject({ ok: false, error: expect.stringContaining("401") });
    await sync();
    await runJobsUntilIdle(db);

    const [notice, ...more] = await noticesOf(org.partner.id);
    expect(more).toEqual([]);
    expect(notice).toMatchObject({ recipient: contact, status: "sent", subject: "Your PSA refused our credentials: ConnectWise PSA" });
    const mails = smtp.to(contact);
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.parsed.subject).toBe("Your PSA refused our credentials: ConnectWise PSA");
    expect(mail.header("list-unsubscribe")).toBeUndefined();
    const text = mail.parsed.text!;
    const partner = await db.partner.findUniqueOrThrow({ where: { id: org.partner.id }, select: { name: true } });
    for (const fact of [
      partner.name,
      psa.baseUrl,
      "ConnectWise answered 401",
      "PUT https://monitor.example/api/v1/integrations/psa",
      "POST https://monitor.example/api/v1/integrations/psa/test",
      "while the connection stays failing no further message is sent",
    ]) {
      expect(text).toContain(fact);
    }
    for (const secret of [credentials.privateKey, credentials.publicKey, "rotated"]) expect(mail.raw).not.toContain(secret);

    // Fixed: the test succeeds and the connection works; refused again later, a new episode is told again.
    psa.credentials = credentials;
    expect(await testPsaConnection(db, org.partner.id)).toEqual({ ok: true, error: null });
    await runJobsUntilIdle(db);
    expect(smtp.to(contact)).toHaveLength(1);
    psa.credentials = { ...credentials, publicKey: "revoked" };
    await testPsaConnection(db, org.partner.id);
    await runJobsUntilIdle(db);
    const notices = await noticesOf(org.partner.id);
    expect(notices).toHaveLength(2);
    expect(notices[1]!.cause).not.toBe(notices[0]!.cause);
    expect(smtp.to(contact)).toHaveLength(2);
  });

  it("a partner without a contact address: the connection is failing, and nothing is sent", async () => {
    await db.partner.update({ where: { id: org.partner.id }, data: { contactEmail: null } });
    psa.credentials = { ...credentials, privateKey: "rotated" };
    await sync();
    await runJobsUntilIdle(db);
    expect(await getPsaConnection(db, org.partner.id)).toMatchObject({ state: "failing" });
    expect(await noticesOf(org.partner.id)).toEqual([]);
  });

  it("a refusal that is not about credentials (500) tells nobody", async () => {
    psa.server.fail("POST /service/tickets", { status: 500, body: { code: "InternalError", message: "boom" } });
    await sync();
    await runJobsUntilIdle(db);
    expect(psa.server.count("POST /service/tickets")).toBeGreaterThan(0);
    expect(await getPsaConnection(db, org.partner.id)).toMatchObject({ state: "ok" });
    expect(await noticesOf(org.partner.id)).toEqual([]);
  });
});
