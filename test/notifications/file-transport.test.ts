import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import PostalMime from "postal-mime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mailDirectory } from "../../server/notifications/transport";
import { createTestCustomer } from "../helpers/customers";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTestOrg } from "../helpers/fixtures";
import { runJobsUntilIdle } from "../helpers/jobs";

let testDb: TestDatabase;
let dataDir: string;

beforeAll(async () => {
  testDb = await createTestDatabase();
  dataDir = await mkdtemp(path.join(os.tmpdir(), "mail-test-"));
  process.env.DATA_DIR = dataDir;
  delete process.env.SMTP_URL;
  delete process.env.MAIL_FROM;
  process.env.APP_URL = "https://monitor.example";
});
afterAll(async () => {
  await testDb?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe("without SMTP_URL (the embedded default)", () => {
  it("writes each message as an .eml file under DATA_DIR/mail", async () => {
    const org = await createTestOrg(testDb.db);
    const customerId = await createTestCustomer(testDb.db, org.partner.id, { companyName: "Acme Ltd", contactEmail: "IT@Acme.example" });
    await runJobsUntilIdle(testDb.db);

    expect(mailDirectory()).toBe(path.join(dataDir, "mail"));
    const files = await readdir(mailDirectory());
    const message = await testDb.db.notification.findFirstOrThrow({ where: { customerId } });
    expect(files).toEqual([expect.stringMatching(new RegExp(`^\\d{8}T\\d{6}Z-${message.id}\\.eml$`))]);
    const mail = await PostalMime.parse(await readFile(path.join(mailDirectory(), files[0]!)));
    expect(mail.subject).toBe("Breach monitoring is now active for Acme Ltd");
    expect(mail.to).toEqual([{ name: "", address: "it@acme.example" }]);
    expect(mail.from).toEqual({ name: "Exposure monitoring", address: "no-reply@monitor.example" });
    expect(mail.text).toContain("https://monitor.example/unsubscribe?token=");
    expect(message).toMatchObject({ status: "sent", attempts: 1, providerMessageId: mail.messageId });
  });
});
