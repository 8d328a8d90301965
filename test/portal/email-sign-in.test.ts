import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { transitionCustomer } from "../../server/customers/lifecycle";
import { closeMailTransports } from "../../server/notifications/transport";
import { requestSignInLink } from "../../server/portal/auth-routes";
import {
  requestEmailSignIn,
  SIGN_IN_MAILS_PER_ADDRESS,
  SIGN_IN_REQUESTS_PER_ADDRESS_AND_CLIENT,
  SIGN_IN_REQUESTS_PER_CLIENT,
} from "../../server/portal/email-sign-in";
import { consumeMagicLink } from "../../server/portal/magic-links";
import { createTestCustomer } from "../helpers/customers";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp";

let testDb: TestDatabase;
let org: TestOrg;
let smtp: TestSmtpServer;
const ORIGIN = "http://localhost:3000";

beforeAll(async () => {
  testDb = await createTestDatabase();
  org = await createTestOrg(testDb.db, "Email sign-in");
  smtp = await startSmtpServer();
  process.env.SMTP_URL = smtp.url;
});
afterAll(async () => {
  closeMailTransports();
  delete process.env.SMTP_URL;
  await smtp?.close();
  await testDb?.close();
});

let clientCounter = 0;
/** A client address of its own per request, so only the per-address limit is in play unless a test wants the client's. */
const freshClient = () => `198.51.100.${++clientCounter}`;

/** Asks for a link and runs what the route runs after answering; returns how many e-mails went out. */
async function ask(email: string, clientAddress = freshClient()): Promise<number> {
  const request = await requestEmailSignIn(testDb.db, { email, clientAddress });
  if (!request.ok) throw new Error(`refused: ${request.reason}`);
  return request.deliver();
}

/** The sign-in URL in the last e-mail to the address. */
function linkIn(address: string): string {
  const mail = smtp.to(address).at(-1);
  if (!mail) throw new Error(`no e-mail to ${address}`);
  const url = mail.parsed.text?.match(/http:\/\/\S+\/auth\/confirm\?token_hash=[A-Za-z0-9_-]{43}&type=magiclink/)?.[0];
  if (!url) throw new Error("no sign-in link in the e-mail");
  return url;
}

describe("sign-in link by e-mail", () => {
  it("e-mails the contact a link that signs in, in the customer's locale", async () => {
    const customerId = await createTestCustomer(testDb.db, org.partner.id, {
      companyName: "Svensk AB",
      contactEmail: "It@Svensk.example",
      localeCode: "sv-SE",
      alertRecipients: ["larm@svensk.example"],
    });
    expect(await ask("  it@SVENSK.example ")).toBe(1);
    const mail = smtp.to("it@svensk.example").at(-1)!;
    expect(mail.parsed.subject).toBe("Din inloggningslänk för Svensk AB");
    expect(mail.parsed.html).toContain('lang="sv-SE"');
    const url = linkIn("it@svensk.example");
    const signIn = await consumeMagicLink(testDb.db, new URL(url).searchParams.get("token_hash")!);
    expect(signIn.ok && signIn.signIn.customerId).toBe(customerId);
  });

  it("e-mails an alert recipient too", async () => {
    const customerId = await createTestCustomer(testDb.db, org.partner.id, {
      contactEmail: "owner@recipient.example",
      alertRecipients: ["soc@recipient.example"],
    });
    expect(await ask("soc@recipient.example")).toBe(1);
    const signIn = await consumeMagicLink(testDb.db, new URL(linkIn("soc@recipient.example")).searchParams.get("token_hash")!);
    expect(signIn.ok && signIn.signIn.customerId).toBe(customerId);
  });

  it("sends nothing for an unknown address or an offboarded customer, and answers the same", async () => {
    const customerId = await createTestCustomer(testDb.db, org.partner.id, { contactEmail: "gone@offboarded.example" });
    await transitionCustomer(testDb.db, org.partner.id, customerId, "offboard");
    const before = smtp.received.length;
    const unknown = await requestEmailSignIn(testDb.db, { email: "nobody@unknown.example", clientAddress: freshClient() });
    const offboarded = await requestEmailSignIn(testDb.db, { email: "gone@offboarded.example", clientAddress: freshClient() });
    expect(Object.keys(unknown)).toEqual(["ok", "deliver"]);
    expect(Object.keys(offboarded)).toEqual(["ok", "deliver"]);
    expect(unknown.ok && (await unknown.deliver())).toBe(0);
    expect(offboarded.ok && (await offboarded.deliver())).toBe(0);
    expect(smtp.received.length).toBe(before);
  });

  it("refuses what is not an e-mail address", async () => {
    expect(await requestEmailSignIn(testDb.db, { email: "not an address", clientAddress: freshClient() })).toEqual({
      ok: false,
      reason: "invalid-email",
    });
  });

  it("limits requests per address and client, known or not, to that client only", async () => {
    await createTestCustomer(testDb.db, org.partner.id, { contactEmail: "limited@known.example" });
    for (const address of ["limited@known.example", "limited@unknown.example"]) {
      const client = freshClient();
      for (let i = 0; i < SIGN_IN_REQUESTS_PER_ADDRESS_AND_CLIENT; i++) {
        expect((await requestEmailSignIn(testDb.db, { email: address, clientAddress: client })).ok).toBe(true);
      }
      expect(await requestEmailSignIn(testDb.db, { email: address, clientAddress: client })).toMatchObject({
        ok: false,
        reason: "rate-limited",
      });
      expect((await requestEmailSignIn(testDb.db, { email: address, clientAddress: freshClient() })).ok).toBe(true);
    }
  });

  it("never refuses the owner: strangers spend the address's e-mails, the owner gets the same answer and the last link still signs in", async () => {
    const customerId = await createTestCustomer(testDb.db, org.partner.id, { contactEmail: "owner@flooded.example" });
    // strangers from many clients, more requests than the address gets e-mails
    for (let i = 0; i < SIGN_IN_MAILS_PER_ADDRESS + 5; i++) await ask("owner@flooded.example");
    expect(smtp.to("owner@flooded.example")).toHaveLength(SIGN_IN_MAILS_PER_ADDRESS);
    const owner = await requestEmailSignIn(testDb.db, { email: "owner@flooded.example", clientAddress: freshClient() });
    expect(Object.keys(owner)).toEqual(["ok", "deliver"]);
    expect(owner.ok && (await owner.deliver())).toBe(0);
    const signIn = await consumeMagicLink(testDb.db, new URL(linkIn("owner@flooded.example")).searchParams.get("token_hash")!);
    expect(signIn.ok && signIn.signIn.customerId).toBe(customerId);
  });

  it("limits requests per client address", async () => {
    const client = "203.0.113.77";
    for (let i = 0; i < SIGN_IN_REQUESTS_PER_CLIENT; i++) {
      expect((await requestEmailSignIn(testDb.db, { email: `someone${i}@client.example`, clientAddress: client })).ok).toBe(true);
    }
    expect(await requestEmailSignIn(testDb.db, { email: "one-more@client.example", clientAddress: client })).toMatchObject({
      ok: false,
      reason: "rate-limited",
    });
    expect((await requestEmailSignIn(testDb.db, { email: "one-more@client.example", clientAddress: "203.0.113.78" })).ok).toBe(true);
  });

  it("counts an IPv6 client by its /64: a new address per request in the same network buys nothing", async () => {
    for (let i = 0; i < SIGN_IN_REQUESTS_PER_CLIENT; i++) {
      const clientAddress = `2001:db8:77:1::${(i + 1).toString(16)}`;
      expect((await requestEmailSignIn(testDb.db, { email: `v6-${i}@client.example`, clientAddress })).ok).toBe(true);
    }
    expect(await requestEmailSignIn(testDb.db, { email: "v6-more@client.example", clientAddress: "2001:db8:77:1:ffff::1" })).toMatchObject({
      ok: false,
      reason: "rate-limited",
    });
    expect((await requestEmailSignIn(testDb.db, { email: "v6-more@client.example", clientAddress: "2001:db8:77:2::1" })).ok).toBe(true);
  });
});

describe("POST /auth/sign-in", () => {
  const post = (body: Record<string, string>, headers: Record<string, string> = {}) =>
    requestSignInLink(
      testDb.db,
      new Request(`${ORIGIN}/auth/sign-in`, {
        method: "POST",
        body: new URLSearchParams(body),
        headers: { "sec-fetch-site": "same-origin", "x-forwarded-for": freshClient(), ...headers },
      }),
    );

  it("answers 303 to the page with the same status for a known and an unknown address; only the known one gets a link", async () => {
    await createTestCustomer(testDb.db, org.partner.id, { contactEmail: "known@route.example", localeCode: "nl-NL" });
    const known = await post({ email: "known@route.example", lang: "nl-NL" });
    const unknown = await post({ email: "unknown@route.example", lang: "nl-NL" });
    for (const { response } of [known, unknown]) {
      expect(response.status).toBe(303);
      expect(response.headers.get("location")).toBe("/portal/sign-in?status=sent&lang=nl-NL");
      expect(response.headers.get("cache-control")).toBe("no-store");
    }
    expect(await known.deliver!()).toBe(1);
    expect(await unknown.deliver!()).toBe(0);
    expect(smtp.to("known@route.example").at(-1)!.parsed.subject).toBe("Uw aanmeldlink voor Acme Ltd");
  });

  it("says so for a malformed address, and refuses a cross-site post", async () => {
    const malformed = await post({ email: "nope" });
    expect(malformed.response.headers.get("location")).toBe("/portal/sign-in?status=invalid-email");
    expect(malformed.deliver).toBeUndefined();
    const crossSite = await post({ email: "known@route.example" }, { "sec-fetch-site": "cross-site" });
    expect(crossSite.response.status).toBe(403);
    expect(crossSite.deliver).toBeUndefined();
  });
});
