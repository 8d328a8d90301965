import { randomUUID } from "node:crypto";
import type { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContext } from "../../server/api/context";
import { createUiCaller } from "../../server/api/ui/root";
import { queueMonthlyReport } from "../../server/notifications/monthly-reports";
import { createTestCustomer } from "../helpers/customers";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { createStaffSession } from "../helpers/ui";

let testDb: TestDatabase;
let mine: TestOrg;
let theirs: TestOrg;
let myCustomer: string;
let theirCustomer: string;

beforeAll(async () => {
  testDb = await createTestDatabase();
  mine = await createTestOrg(testDb.db, "Mine");
  theirs = await createTestOrg(testDb.db, "Theirs");
  myCustomer = await createTestCustomer(testDb.db, mine.partner.id, { companyName: "Acme Ltd", contactEmail: "it@acme.example" });
  theirCustomer = await createTestCustomer(testDb.db, theirs.partner.id, { companyName: "Other Co", contactEmail: "it@other.example" });
  await queueMonthlyReport(testDb.db, myCustomer, new Date().toISOString().slice(0, 7));
});
afterAll(async () => {
  await testDb?.close();
});

/** The admin UI's procedures as a signed-in staff member of the distributor (a viewer: the preview only reads) sees them. */
const staffOf = async (org: TestOrg) =>
  createUiCaller(createContext(testDb.db, new Headers(), randomUUID(), await createStaffSession(testDb.db, org.distributor.id, "viewer")))
    .admin.mail;

const appError = (code: string, message: string) =>
  expect.objectContaining({ cause: expect.objectContaining({ code, message }) }) as unknown as TRPCError;

describe("the staff mail preview", () => {
  it("lists the messages of the staff member's distributor's customers, newest first, by kind or status", async () => {
    const list = await (await staffOf(mine)).list({});
    expect(list.pagination).toEqual({ totalCount: 2, page: 1, pageSize: 50, hasNextPage: false });
    expect(list.messages.map((message) => [message.kind, message.recipient, message.status, message.customer?.companyName])).toEqual([
      ["monthly_report", "alerts@acme.example", "pending", "Acme Ltd"],
      ["welcome", "it@acme.example", "pending", "Acme Ltd"],
    ]);
    expect((await (await staffOf(mine)).list({ kind: "welcome" })).messages.map((message) => message.kind)).toEqual(["welcome"]);
    expect((await (await staffOf(mine)).list({ status: "sent" })).pagination.totalCount).toBe(0);
    expect((await (await staffOf(theirs)).list({})).messages.map((message) => message.customer?.companyName)).toEqual(["Other Co"]);
    expect((await (await staffOf(mine)).list({ page: 2 })).messages).toEqual([]);
  });

  it("shows one message as it would be sent: HTML, text and attachments", async () => {
    const [report, welcome] = (await (await staffOf(mine)).list({})).messages;
    const shown = await (await staffOf(mine)).get({ id: welcome!.id });
    expect(shown).toMatchObject({
      id: welcome!.id,
      kind: "welcome",
      subject: "Breach monitoring is now active for Acme Ltd",
      attachments: [],
      sentAt: null,
    });
    expect(shown.createdAt).toBe(welcome!.createdAt);
    expect(new Date(shown.createdAt).toISOString()).toBe(shown.createdAt);
    expect(shown.html).toContain("Welcome to breach monitoring");
    expect(shown.text).toContain("WELCOME TO BREACH MONITORING");
    const period = new Date().toISOString().slice(0, 7);
    const shownReport = await (await staffOf(mine)).get({ id: report!.id });
    expect(shownReport.attachments).toEqual([
      { filename: `breach-report-${period}.pdf`, contentType: "application/pdf", size: expect.any(Number) },
    ]);
    const pdf = await (await staffOf(mine)).attachment({ id: report!.id, filename: `breach-report-${period}.pdf` });
    expect(Buffer.from(pdf.base64, "base64").subarray(0, 5).toString()).toBe("%PDF-");
    await expect((await staffOf(mine)).attachment({ id: report!.id, filename: "other.pdf" })).rejects.toEqual(
      appError("NOT_FOUND", "Attachment not found"),
    );
  });

  it("finds no message of another distributor's customers, nor one by a malformed id, and needs a staff session", async () => {
    const [theirMessage] = (await (await staffOf(theirs)).list({})).messages;
    expect(theirMessage!.customer?.id).toBe(theirCustomer);
    for (const id of [theirMessage!.id, "not-a-uuid", randomUUID()]) {
      await expect((await staffOf(mine)).get({ id })).rejects.toEqual(appError("NOT_FOUND", "Message not found"));
    }
    const anonymous = createUiCaller(createContext(testDb.db, new Headers(), randomUUID())).admin.mail;
    await expect(anonymous.list({})).rejects.toEqual(appError("UNAUTHENTICATED", "Sign in to continue"));
  });
});
