import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { authenticateStaff, createStaffUser } from "../../server/auth/staff";
import {
  createStaffPasswordResetLink,
  requestStaffPasswordReset,
  RESET_LINK_EXPIRED,
  RESET_LINK_INVALID,
  RESET_LINK_USED,
  RESET_MAILS_PER_EMAIL,
  RESET_RATE_LIMITED,
  RESET_REQUESTED,
  resetLinkState,
  resetStaffPassword,
} from "../../server/auth/staff-password-reset";
import { PASSWORD_TOO_SHORT } from "../../server/auth/staff-passwords";
import { hashSecretToken } from "../../server/secret-tokens";
import { closeMailTransports } from "../../server/notifications/transport";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp";
import { clientError, startUiServer } from "../helpers/ui";

let testDb: TestDatabase;
let org: TestOrg;
let smtp: TestSmtpServer;
let ui: Awaited<ReturnType<typeof startUiServer>>;
const PASSWORD = "a long staff password";
const APP_URL = "https://monitor.example";
let counter = 0;

beforeAll(async () => {
  testDb = await createTestDatabase();
  org = await createTestOrg(testDb.db, "Resets");
  smtp = await startSmtpServer();
  ui = await startUiServer(testDb.db);
  process.env.APP_URL = APP_URL;
  process.env.MAIL_FROM = "Exposure monitoring <no-reply@monitor.example>";
});
afterAll(async () => {
  closeMailTransports();
  await ui?.close();
  await smtp?.close();
  await testDb?.close();
});
beforeEach(() => {
  process.env.SMTP_URL = smtp.url;
});

async function newStaff(): Promise<string> {
  const email = `staff-${++counter}@resets.example`;
  await createStaffUser(testDb.db, { distributorId: org.distributor.id, email, password: PASSWORD });
  return email;
}

/** A client address of its own per test, so the per-client limit of one test does not reach another. */
const client = () => `198.51.100.${++counter}`;

const tokenOf = (url: string) => new URL(url).searchParams.get("token")!;

describe("forgot password: the e-mailed link", () => {
  it("arrives at the SMTP server with a link that sets a new password once", async () => {
    const email = await newStaff();
    const { message, delivery } = await requestStaffPasswordReset(testDb.db, {
      email: ` ${email.toUpperCase()} `,
      clientAddress: client(),
    });
    expect(message).toBe(RESET_REQUESTED);
    await delivery;

    const [mail, ...more] = smtp.to(email);
    expect(more).toEqual([]);
    expect(mail!.parsed.subject).toBe("Reset your admin password");
    expect(mail!.header("from")).toContain("no-reply@monitor.example");
    const url = mail!.parsed.text!.match(/https:\/\/monitor\.example\/admin\/reset-password\?token=[A-Za-z0-9_-]{43}/)?.[0];
    expect(url).toBeDefined();
    expect(mail!.parsed.html).toContain(url!);
    // only the hash is stored
    const token = tokenOf(url!);
    expect(await testDb.db.staffPasswordReset.count({ where: { tokenHash: token } })).toBe(0);
    expect(await testDb.db.staffPasswordReset.count({ where: { tokenHash: hashSecretToken(token) } })).toBe(1);

    expect(await resetLinkState(testDb.db, token)).toBe("valid");
    await resetStaffPassword(testDb.db, { token, newPassword: "the new staff passphrase" });
    expect(await authenticateStaff(testDb.db, { email, password: "the new staff passphrase", clientAddress: client() })).toMatchObject({
      ok: true,
    });
    expect(await authenticateStaff(testDb.db, { email, password: PASSWORD, clientAddress: client() })).toMatchObject({ ok: false });

    // a second use is refused and changes nothing
    await expect(resetStaffPassword(testDb.db, { token, newPassword: "yet another passphrase" })).rejects.toThrow(RESET_LINK_USED);
    expect(await authenticateStaff(testDb.db, { email, password: "the new staff passphrase", clientAddress: client() })).toMatchObject({
      ok: true,
    });
  });

  it("expires after an hour", async () => {
    const email = await newStaff();
    const { url } = await createStaffPasswordResetLink(testDb.db, email);
    const token = tokenOf(url);
    await testDb.db
      .$executeRaw`UPDATE staff_password_resets SET expires_at = now() - interval '1 second' WHERE token_hash = ${hashSecretToken(token)}`;
    expect(await resetLinkState(testDb.db, token)).toBe("expired");
    await expect(resetStaffPassword(testDb.db, { token, newPassword: "the new staff passphrase" })).rejects.toThrow(RESET_LINK_EXPIRED);
    expect(await authenticateStaff(testDb.db, { email, password: PASSWORD, clientAddress: client() })).toMatchObject({ ok: true });
  });

  it("is one hour from its creation", async () => {
    const { expiresAt } = await createStaffPasswordResetLink(testDb.db, await newStaff());
    const [row] = await testDb.db.$queryRaw<Array<{ createdAt: Date }>>`
      SELECT created_at AS "createdAt" FROM staff_password_resets WHERE expires_at = ${expiresAt}`;
    expect(expiresAt.getTime() - row!.createdAt.getTime()).toBe(60 * 60 * 1000);
  });

  it("an unknown or malformed token is refused", async () => {
    await expect(resetStaffPassword(testDb.db, { token: "A".repeat(43), newPassword: "the new staff passphrase" })).rejects.toThrow(
      RESET_LINK_INVALID,
    );
    await expect(resetStaffPassword(testDb.db, { token: "../../etc", newPassword: "the new staff passphrase" })).rejects.toThrow(
      RESET_LINK_INVALID,
    );
  });

  it("a refused new password leaves the link usable", async () => {
    const email = await newStaff();
    const token = tokenOf((await createStaffPasswordResetLink(testDb.db, email)).url);
    await expect(resetStaffPassword(testDb.db, { token, newPassword: "short" })).rejects.toThrow(PASSWORD_TOO_SHORT);
    expect(await resetLinkState(testDb.db, token)).toBe("valid");
  });

  it("a reset spends the staff member's other links", async () => {
    const email = await newStaff();
    const first = tokenOf((await createStaffPasswordResetLink(testDb.db, email)).url);
    const second = tokenOf((await createStaffPasswordResetLink(testDb.db, email)).url);
    await resetStaffPassword(testDb.db, { token: second, newPassword: "the new staff passphrase" });
    expect(await resetLinkState(testDb.db, first)).toBe("used");
  });

  it("of simultaneous uses of one link exactly one succeeds", async () => {
    const email = await newStaff();
    const token = tokenOf((await createStaffPasswordResetLink(testDb.db, email)).url);
    const outcomes = await Promise.allSettled(
      ["first passphrase here", "second passphrase here", "third passphrase here"].map((newPassword) =>
        resetStaffPassword(testDb.db, { token, newPassword }),
      ),
    );
    expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
    for (const outcome of outcomes.filter((outcome) => outcome.status === "rejected")) {
      expect(String((outcome as PromiseRejectedResult).reason)).toContain(RESET_LINK_USED);
    }
  });
});

describe("forgot password: what the form answers (over /api/trpc)", () => {
  it("is identical for an account and for an unknown address, and only the account gets an e-mail", async () => {
    const known = await newStaff();
    const unknown = `nobody-${++counter}@resets.example`;
    const answer = async (email: string) => {
      const response = await fetch(`${ui.baseUrl}/api/trpc/staffPassword.requestReset`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-for": client() },
        body: JSON.stringify({ email }),
      });
      return { status: response.status, body: await response.text() };
    };
    const forKnown = await answer(known);
    const forUnknown = await answer(unknown);
    expect(forKnown).toEqual(forUnknown);
    expect(JSON.parse(forKnown.body)).toEqual({ result: { data: { message: RESET_REQUESTED } } });
    await vi.waitFor(() => expect(smtp.to(known)).toHaveLength(1), { timeout: 10_000, interval: 50 });

    // the service's own delivery for an unknown address sends nothing
    const { delivery } = await requestStaffPasswordReset(testDb.db, { email: unknown, clientAddress: client() });
    await delivery;
    expect(smtp.to(unknown)).toEqual([]);
  });

  it("refuses a malformed address at its field", async () => {
    const error = await clientError(ui.clientAs(undefined).staffPassword.requestReset.mutate({ email: "not an address" }));
    expect(error.data?.httpStatus).toBe(400);
    expect((error.data as { fieldErrors?: Record<string, string> }).fieldErrors).toEqual({ email: "Enter a valid e-mail address" });
  });

  it("limits requests per address and client (5 an hour), the same for an account and an unknown address, to that client only", async () => {
    for (const email of [await newStaff(), `nobody-${++counter}@resets.example`]) {
      const address = client();
      for (let request = 0; request < 5; request++) {
        await (
          await requestStaffPasswordReset(testDb.db, { email, clientAddress: address })
        ).delivery;
      }
      await expect(requestStaffPasswordReset(testDb.db, { email, clientAddress: address })).rejects.toThrow(RESET_RATE_LIMITED);
      expect((await requestStaffPasswordReset(testDb.db, { email, clientAddress: client() })).message).toBe(RESET_REQUESTED);
    }
  });

  it("never refuses the owner: strangers spend the address's e-mails, the owner gets the same answer and the last link still works", async () => {
    const email = await newStaff();
    for (let request = 0; request < RESET_MAILS_PER_EMAIL + 5; request++) {
      await (
        await requestStaffPasswordReset(testDb.db, { email, clientAddress: client() })
      ).delivery;
    }
    expect(smtp.to(email)).toHaveLength(RESET_MAILS_PER_EMAIL);
    const owner = await requestStaffPasswordReset(testDb.db, { email, clientAddress: client() });
    expect(owner.message).toBe(RESET_REQUESTED);
    await owner.delivery;
    expect(smtp.to(email)).toHaveLength(RESET_MAILS_PER_EMAIL);
    const lastLink = smtp
      .to(email)
      .at(-1)!
      .parsed.text!.match(/https:\/\/\S+reset-password\?token=[A-Za-z0-9_-]{43}/)![0];
    await resetStaffPassword(testDb.db, { token: tokenOf(lastLink), newPassword: "the owner's new passphrase" });
    expect(await authenticateStaff(testDb.db, { email, password: "the owner's new passphrase", clientAddress: client() })).toMatchObject({
      ok: true,
    });
  });

  it("limits requests per client (20 an hour), whatever the addresses", async () => {
    const address = client();
    for (let request = 0; request < 20; request++) {
      await (
        await requestStaffPasswordReset(testDb.db, { email: `someone-${++counter}@resets.example`, clientAddress: address })
      ).delivery;
    }
    const refused = await requestStaffPasswordReset(testDb.db, {
      email: `someone-${++counter}@resets.example`,
      clientAddress: address,
    }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 429, message: RESET_RATE_LIMITED, headers: { "Retry-After": expect.stringMatching(/^\d+$/) } });
  });

  it("sets the new password over /api/trpc with the token, and says when a link is spent", async () => {
    const email = await newStaff();
    const token = tokenOf((await createStaffPasswordResetLink(testDb.db, email)).url);
    const anonymous = ui.clientAs(undefined);
    const weak = await clientError(anonymous.staffPassword.reset.mutate({ token, newPassword: "password1234" }));
    expect((weak.data as { fieldErrors?: Record<string, string> }).fieldErrors).toEqual({
      newPassword: "This password is on a list of the most common passwords; choose another",
    });
    expect(await anonymous.staffPassword.reset.mutate({ token, newPassword: "the new staff passphrase" })).toEqual({ reset: true });
    const again = await clientError(anonymous.staffPassword.reset.mutate({ token, newPassword: "the new staff passphrase" }));
    expect({ status: again.data?.httpStatus, message: again.message }).toEqual({ status: 400, message: RESET_LINK_USED });
  });
});
