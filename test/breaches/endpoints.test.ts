import { beforeAll, describe, expect, it } from "vitest";
import { issueApiKey } from "../../server/auth/api-keys";
import { scanCustomer } from "../../server/findings/scanner";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { restTestBed } from "../helpers/rest";
import { createBreachTestCustomer, hibpBreach, seedExposures } from "../helpers/breach-fixtures";

const { testDb, server } = restTestBed();
let org: TestOrg;
let otherOrg: TestOrg;
let breachIds: Map<string, string>;
let active: { id: string; reference: string };
let prospect: { id: string; reference: string };
let foreign: { id: string };

const ALPHA = hibpBreach("Alpha", {
  Title: "Alpha Social",
  BreachDate: "2024-03-01",
  AddedDate: "2024-04-02T08:30:00Z",
  PwnCount: 1234567,
  Description: 'In March 2024, <a href="https://alpha.example">Alpha Social</a> was breached &amp; data leaked.',
  DataClasses: ["Email addresses", "Passwords", "Phone numbers", "Religions"],
});
const BETA = hibpBreach("Beta", { Title: "Beta Shop", BreachDate: "2015-06-01", DataClasses: ["Email addresses", "Usernames"] });

beforeAll(async () => {
  org = await createTestOrg(testDb.db, "Alpha");
  otherOrg = await createTestOrg(testDb.db, "Beta");
  breachIds = await seedExposures(testDb.db, [ALPHA, BETA], {
    "ceo@acme.example": ["Alpha", "Beta"],
    "cto@acme.example": ["Beta"],
  });
  active = await createBreachTestCustomer(testDb.db, org.partner.id, { domains: ["acme.example"] });
  prospect = await createBreachTestCustomer(testDb.db, org.partner.id, { status: "prospect", emails: ["ceo@acme.example"] });
  foreign = await createBreachTestCustomer(testDb.db, otherOrg.partner.id, { emails: ["ceo@acme.example"] });
  for (const customer of [active, prospect, foreign]) await scanCustomer(testDb.db, customer.id, "onboard");
});

async function instanceId(customerId: string, breachName: string): Promise<string> {
  const row = await testDb.db.customerBreach.findFirstOrThrow({ where: { customerId, breach: { name: breachName } } });
  return row.id;
}

const NO_HEADERS = { status: 401, body: { success: false, error: "Partner ID and API key are required in headers" } };
const BAD_KEY = { status: 401, body: { success: false, error: "Failed to verify org API key" } };

describe("GET breach-categories", () => {
  it("lists every category with its fields", async () => {
    const res = await server.api.get("/api/v1/integrations/breach-categories", org.partner.headers);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.breachCategories.length).toBeGreaterThanOrEqual(148);
    expect(res.body.breachCategories.find((category: { name: string }) => category.name === "Passwords")).toEqual({
      id: expect.any(Number),
      name: "Passwords",
      description: expect.stringMatching(/^Passwords exposed in a breach\./),
      tooltip: "Sign-in secrets: change them now",
      link: "/kb/breach-categories/passwords",
      isBlacklist: false,
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    });
    expect(res.body.breachCategories.find((category: { name: string }) => category.name === "Religions").isBlacklist).toBe(true);
  });

  it("requires credentials", async () => {
    const res = await server.api.get("/api/v1/integrations/breach-categories");
    expect({ status: res.status, body: res.body }).toEqual(NO_HEADERS);
  });
});

describe("GET breach", () => {
  const expected = () => ({
    uuid: breachIds.get("Alpha"),
    name: "Alpha",
    title: "Alpha Social",
    addedDate: "2024-04-02T08:30:00.000Z",
    breachCategories: ["Email addresses", "Passwords", "Phone numbers"],
    description: "In March 2024, Alpha Social was breached & data leaked.",
    nextSteps: [
      "Change the password of this account and of every other account that used the same password.",
      "Turn on multi-factor authentication wherever it is offered.",
      "Use a password manager so that every account has its own strong password.",
      "Beware of smishing: text messages and calls that claim to come from trusted organisations. Never share codes or passwords on request.",
      "Expect phishing e-mails that quote this breach; verify unexpected requests for payments or sign-ins through another channel.",
    ],
  });

  it("finds a breach by name (any case) and by uuid, with the blacklisted category left out", async () => {
    const byName = await server.api.get("/api/v1/integrations/breach?name=alpha", org.partner.headers);
    expect(byName.status).toBe(200);
    expect(byName.body).toEqual({ success: true, breach: expected() });
    const byUuid = await server.api.get(`/api/v1/integrations/breach?uuid=${breachIds.get("Alpha")}`, org.partner.headers);
    expect(byUuid.body).toEqual({ success: true, breach: expected() });
  });

  it("writes the next steps in the requested locale, under both prefixes", async () => {
    const res = await server.api.get("/api/integrations/breach?name=Alpha&localeCode=nb-NO", org.partner.headers);
    expect(res.status).toBe(200);
    expect(res.body.breach.nextSteps[0]).toBe("Bytt passord for denne kontoen og for alle andre kontoer som brukte det samme passordet.");
    expect(res.body.breach.title).toBe("Alpha Social");
  });

  it.each([
    ["neither name nor uuid", "", "Invalid query parameters: Either name or uuid must be provided"],
    ["an empty name", "?name=", "Invalid query parameters: Either name or uuid must be provided"],
    ["both", "?name=Alpha&uuid=550e8400-e29b-41d4-a716-446655440000", "Invalid query parameters: Provide either name or uuid, not both"],
    ["a malformed uuid", "?uuid=123", "Invalid query parameters: uuid must be a valid UUID"],
    [
      "an unknown locale",
      "?name=Alpha&localeCode=de-DE",
      "Invalid query parameters: localeCode must be one of sv-SE, nb-NO, fi-FI, da-DK, en-GB, nl-NL",
    ],
  ])("refuses %s with 400", async (_name, query, message) => {
    const res = await server.api.get(`/api/v1/integrations/breach${query}`, org.partner.headers);
    expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { success: false, error: message } });
  });

  it.each([
    ["an unknown name", "?name=NoSuchBreach"],
    ["a name with LIKE wildcards", "?name=Alph_"],
    ["a bare wildcard", "?name=%25"],
    ["an unknown uuid", "?uuid=550e8400-e29b-41d4-a716-446655440000"],
  ])("answers 404 for %s", async (_name, query) => {
    const res = await server.api.get(`/api/v1/integrations/breach${query}`, org.partner.headers);
    expect({ status: res.status, body: res.body }).toEqual({ status: 404, body: { success: false, error: "Breach not found" } });
  });

  it("requires a partner key", async () => {
    expect((await server.api.get("/api/v1/integrations/breach?name=Alpha")).status).toBe(401);
    const res = await server.api.get("/api/v1/integrations/breach?name=Alpha", org.onBehalfHeaders);
    expect({ status: res.status, body: res.body }).toEqual(BAD_KEY);
  });
});

describe("POST breach/retrieve", () => {
  it("returns the address's breaches, newest first, in the locale, with the partner's resolved flag", async () => {
    const res = await server.api.post(
      "/api/v1/integrations/breach/retrieve",
      { email: " CEO@Acme.example ", localeCode: "da-DK" },
      org.partner.headers,
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      email: "ceo@acme.example",
      breaches: [
        {
          title: "Alpha Social",
          description: "In March 2024, Alpha Social was breached & data leaked.",
          breachDate: "2024-03-01",
          breachCategories: ["Email addresses", "Passwords", "Phone numbers"],
          nextSteps: expect.arrayContaining(["Slå totrinsbekræftelse til overalt, hvor det tilbydes."]),
          resolvedStatus: false,
        },
        {
          title: "Beta Shop",
          description: "In January 2024, Beta suffered a breach & lost data.",
          breachDate: "2015-06-01",
          breachCategories: ["Email addresses", "Usernames"],
          nextSteps: [
            "Tjek de andre tjenester, hvor det samme brugernavn bruges, for aktivitet, du ikke genkender.",
            "Forvent phishing-mails, der henviser til bruddet; bekræft uventede anmodninger om betaling eller login via en anden kanal.",
          ],
          resolvedStatus: false,
        },
      ],
    });
  });

  it("reports resolvedStatus from the caller's own instances only", async () => {
    for (const customer of [active, prospect]) {
      await testDb.db.customerBreach.update({ where: { id: await instanceId(customer.id, "Alpha") }, data: { resolved: true } });
    }
    try {
      const mine = await server.api.post("/api/v1/integrations/breach/retrieve", { email: "ceo@acme.example" }, org.partner.headers);
      expect(mine.body.breaches.map((entry: { resolvedStatus: boolean }) => entry.resolvedStatus)).toEqual([true, false]);
      const theirs = await server.api.post("/api/v1/integrations/breach/retrieve", { email: "ceo@acme.example" }, otherOrg.partner.headers);
      expect(theirs.body.breaches.map((entry: { resolvedStatus: boolean }) => entry.resolvedStatus)).toEqual([false, false]);
    } finally {
      await testDb.db.customerBreach.updateMany({ data: { resolved: false } });
    }
  });

  it("answers an empty list for an address in no breach", async () => {
    const res = await server.api.post("/api/v1/integrations/breach/retrieve", { email: "nobody@nowhere.example" }, org.partner.headers);
    expect(res.body).toEqual({ success: true, email: "nobody@nowhere.example", breaches: [] });
  });

  it.each([
    ["invalid JSON", "{nope", "Request body must be valid JSON"],
    ["no e-mail", {}, "Validation failed: email: Email is required"],
    ["a malformed e-mail", { email: "not-an-address" }, "Validation failed: email: Invalid email address"],
    [
      "an unknown locale",
      { email: "ceo@acme.example", localeCode: "xx-XX" },
      "Validation failed: localeCode: localeCode must be one of sv-SE, nb-NO, fi-FI, da-DK, en-GB, nl-NL",
    ],
  ])("refuses %s with 400", async (_name, body, message) => {
    const res = await server.api.post("/api/v1/integrations/breach/retrieve", body, org.partner.headers);
    expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { success: false, error: message } });
  });

  it("requires credentials", async () => {
    const res = await server.api.post("/api/v1/integrations/breach/retrieve", { email: "ceo@acme.example" });
    expect({ status: res.status, body: res.body }).toEqual(NO_HEADERS);
  });
});

describe("POST breach/check", () => {
  it("says whether the address is in a breach, with the optional resolved filter", async () => {
    const check = async (body: object) => (await server.api.post("/api/v1/integrations/breach/check", body, org.partner.headers)).body;
    expect(await check({ email: "ceo@acme.example" })).toEqual({ success: true, breach: true });
    expect(await check({ email: "nobody@nowhere.example" })).toEqual({ success: true, breach: false });
    expect(await check({ email: "ceo@acme.example", resolved: true })).toEqual({ success: true, breach: false });
    expect(await check({ email: "ceo@acme.example", resolved: false })).toEqual({ success: true, breach: true });

    const alpha = await instanceId(active.id, "Alpha");
    const beta = await instanceId(active.id, "Beta");
    const prospectAlpha = await instanceId(prospect.id, "Alpha");
    const prospectBeta = await instanceId(prospect.id, "Beta");
    await testDb.db.customerBreach.updateMany({ where: { id: { in: [alpha, beta, prospectAlpha] } }, data: { resolved: true } });
    // The prospect's Beta instance is still unresolved: the address counts as unresolved there.
    expect(await check({ email: "ceo@acme.example", resolved: false })).toEqual({ success: true, breach: true });
    await testDb.db.customerBreach.update({ where: { id: prospectBeta }, data: { resolved: true } });
    try {
      expect(await check({ email: "ceo@acme.example", resolved: true })).toEqual({ success: true, breach: true });
      expect(await check({ email: "ceo@acme.example", resolved: false })).toEqual({ success: true, breach: false });
      // Another partner's flags are its own.
      const theirs = await server.api.post(
        "/api/v1/integrations/breach/check",
        { email: "ceo@acme.example", resolved: false },
        otherOrg.partner.headers,
      );
      expect(theirs.body).toEqual({ success: true, breach: true });
    } finally {
      await testDb.db.customerBreach.updateMany({ data: { resolved: false } });
    }
  });

  it.each([
    ["invalid JSON", "[1,", 400, "Request body must be valid JSON"],
    ["a malformed e-mail", { email: 42 }, 400, "Validation failed: email: Email is required"],
    [
      "a string for resolved",
      { email: "ceo@acme.example", resolved: "false" },
      400,
      "Validation failed: resolved: resolved must be a boolean",
    ],
  ])("refuses %s", async (_name, body, status, message) => {
    const res = await server.api.post("/api/v1/integrations/breach/check", body, org.partner.headers);
    expect({ status: res.status, body: res.body }).toEqual({ status, body: { success: false, error: message } });
  });

  it("answers 429 with Retry-After past the per-key limit, per key, and recovers in the next window", async () => {
    const previous = process.env.BREACH_CHECK_RATE_LIMIT;
    process.env.BREACH_CHECK_RATE_LIMIT = "3";
    try {
      const key = await issueApiKey(testDb.db, { partnerId: org.partner.id });
      const headers = { "SW-PARTNER-ID": org.partner.id, "SW-API-KEY": key.apiKey };
      const otherKey = await issueApiKey(testDb.db, { partnerId: org.partner.id });
      const call = (h: Record<string, string>) => server.api.post("/api/v1/integrations/breach/check", { email: "ceo@acme.example" }, h);
      for (let i = 0; i < 3; i++) expect((await call(headers)).status).toBe(200);
      const limited = await call(headers);
      expect({ status: limited.status, body: limited.body }).toEqual({ status: 429, body: { success: false, error: "Too many requests" } });
      const retryAfter = Number(limited.headers.get("retry-after"));
      expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);
      // Other keys have their own budget.
      expect((await call({ "SW-PARTNER-ID": org.partner.id, "SW-API-KEY": otherKey.apiKey })).status).toBe(200);
      // The window ends (moved back here instead of waiting a minute): requests pass again.
      await testDb.db.rateLimitCounter.update({
        where: { key: `breach-check:${key.id}` },
        data: { windowStart: new Date(Date.now() - 61_000) },
      });
      const recovered = await call(headers);
      expect({ status: recovered.status, body: recovered.body }).toEqual({ status: 200, body: { success: true, breach: true } });
    } finally {
      if (previous === undefined) delete process.env.BREACH_CHECK_RATE_LIMIT;
      else process.env.BREACH_CHECK_RATE_LIMIT = previous;
    }
  });

  it("requires credentials", async () => {
    const res = await server.api.post(
      "/api/v1/integrations/breach/check",
      { email: "ceo@acme.example" },
      { "SW-PARTNER-ID": org.partner.id },
    );
    expect({ status: res.status, body: res.body }).toEqual(NO_HEADERS);
  });
});

describe("POST breach/status", () => {
  const post = (body: unknown, headers = org.partner.headers) => server.api.post("/api/v1/integrations/breach/status", body, headers);

  it("changes the flag, emits one event per change and updates the threat score", async () => {
    const breachId = await instanceId(active.id, "Alpha");
    const scoreBefore = (await testDb.db.customer.findUniqueOrThrow({ where: { id: active.id } })).threatScore;
    const eventsBefore = await testDb.db.outboxEvent.count({ where: { customerId: active.id } });

    const resolved = await post({ breachId, customerId: active.id, resolved: true });
    expect({ status: resolved.status, body: resolved.body }).toEqual({ status: 200, body: { success: true, resolved: true } });
    expect((await testDb.db.customerBreach.findUniqueOrThrow({ where: { id: breachId } })).resolvedAt).not.toBeNull();
    expect((await testDb.db.customer.findUniqueOrThrow({ where: { id: active.id } })).threatScore).toBeLessThan(scoreBefore);

    expect((await post({ breachId, resolved: true })).body).toEqual({ success: true, resolved: true });
    const unresolved = await post({ breachId, resolved: false });
    expect(unresolved.body).toEqual({ success: true, resolved: false });
    expect((await testDb.db.customer.findUniqueOrThrow({ where: { id: active.id } })).threatScore).toBe(scoreBefore);

    const events = await testDb.db.outboxEvent.findMany({
      where: { customerId: active.id },
      orderBy: { createdAt: "asc" },
      skip: eventsBefore,
    });
    const customer = await testDb.db.customer.findUniqueOrThrow({ where: { id: active.id } });
    const summary = {
      customer: { uuid: active.id, name: customer.companyName, reference: customer.reference },
      breaches: [{ uuid: breachId, name: "Alpha", emails: ["ceo@acme.example"] }],
    };
    expect(events.map((event) => [event.type, event.payload])).toEqual([
      ["customer.breach.resolved", summary],
      ["customer.breach.unresolved", summary],
    ]);
  });

  it.each([
    ["another partner's breach", async () => ({ breachId: await instanceId(foreign.id, "Alpha"), resolved: true })],
    ["an unknown breach", async () => ({ breachId: "550e8400-e29b-41d4-a716-446655440000", resolved: true })],
    ["the wrong customer", async () => ({ breachId: await instanceId(active.id, "Alpha"), customerId: prospect.id, resolved: true })],
    ["a catalogue breach id instead of an instance", async () => ({ breachId: breachIds.get("Alpha")!, resolved: true })],
  ])("answers 404 for %s", async (_name, body) => {
    const res = await post(await body());
    expect({ status: res.status, body: res.body }).toEqual({
      status: 404,
      body: { success: false, error: "Breach not found or does not belong to partner" },
    });
  });

  it.each([
    ["invalid JSON", "nope", "Request body must be valid JSON"],
    ["no breachId", { resolved: true }, "Validation failed: breachId: Breach ID must be a valid UUID"],
    ["a malformed breachId", { breachId: "abc", resolved: true }, "Validation failed: breachId: Breach ID must be a valid UUID"],
    [
      "a malformed customerId",
      { breachId: "550e8400-e29b-41d4-a716-446655440000", customerId: "x", resolved: true },
      "Validation failed: customerId: Customer ID must be a valid UUID",
    ],
    ["no resolved flag", { breachId: "550e8400-e29b-41d4-a716-446655440000" }, "Validation failed: resolved: resolved must be a boolean"],
    [
      "a string flag",
      { breachId: "550e8400-e29b-41d4-a716-446655440000", resolved: "true" },
      "Validation failed: resolved: resolved must be a boolean",
    ],
  ])("refuses %s with 400", async (_name, body, message) => {
    const res = await post(body);
    expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { success: false, error: message } });
  });

  it("refuses a distributor key", async () => {
    const res = await post({ breachId: "550e8400-e29b-41d4-a716-446655440000", resolved: true }, org.onBehalfHeaders);
    expect({ status: res.status, body: res.body }).toEqual(BAD_KEY);
  });
});

const WITHHELD_KEYS = [
  "title",
  "breachName",
  "name",
  "breachDate",
  "breachCategories",
  "description",
  "generatedDescription",
  "nextSteps",
  "dataClasses",
];

function keysDeep(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysDeep);
  if (value && typeof value === "object") return Object.entries(value).flatMap(([key, child]) => [key, ...keysDeep(child)]);
  return [];
}

describe("GET customer/{customerId}/breaches", () => {
  it("gives active customers full entries, newest breach first", async () => {
    const res = await server.api.get(`/api/v1/integrations/customer/${active.id}/breaches?localeCode=fi-FI`, org.partner.headers);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      breachStatus: true,
      count: 2,
      breaches: [
        {
          id: await instanceId(active.id, "Alpha"),
          breachName: "Alpha",
          title: "Alpha Social",
          emails: ["ceo@acme.example"],
          breachDate: "2024-03-01T00:00:00+00:00",
          breachCategories: ["Email addresses", "Passwords", "Phone numbers"],
          resolved: false,
          generatedDescription: expect.stringMatching(
            /^Alpha Social joutui tietomurron kohteeksi \(ajankohta: maaliskuu 2024\), ja murto koski 1\s234\s567 tiliä\./,
          ),
          nextSteps: expect.arrayContaining(["Ota monivaiheinen tunnistautuminen käyttöön kaikkialla, missä se on mahdollista."]),
        },
        {
          id: await instanceId(active.id, "Beta"),
          breachName: "Beta",
          title: "Beta Shop",
          emails: ["ceo@acme.example", "cto@acme.example"],
          breachDate: "2015-06-01T00:00:00+00:00",
          breachCategories: ["Email addresses", "Usernames"],
          resolved: false,
          generatedDescription: expect.any(String),
          nextSteps: expect.any(Array),
        },
      ],
    });
  });

  it("writes the texts in the customer's own locale unless localeCode says otherwise", async () => {
    const path = `/api/v1/integrations/customer/${active.id}/breaches`;
    const alpha = (body: { breaches: Array<{ breachName: string; generatedDescription: string }> }) =>
      body.breaches.find((entry) => entry.breachName === "Alpha")!.generatedDescription;
    const english = alpha((await server.api.get(path, org.partner.headers)).body);
    expect(english).toMatch(/Alpha Social suffered/);
    expect(english).not.toMatch(/tietomurron/);
    try {
      expect(
        (await server.api.patch(`/api/v1/integrations/customer/${active.id}/info`, { localeCode: "fi-FI" }, org.partner.headers)).status,
      ).toBe(200);
      expect(alpha((await server.api.get(path, org.partner.headers)).body)).toMatch(/tietomurron/);
      expect(alpha((await server.api.get(`${path}?localeCode=en-GB`, org.partner.headers)).body)).toBe(english);
    } finally {
      await testDb.db.customer.update({ where: { id: active.id }, data: { localeCode: "en-GB" } });
    }
  });

  it("gives prospects the redacted envelope with none of the withheld fields anywhere", async () => {
    const res = await server.api.get(`/api/integrations/customer/${prospect.id}/breaches`, org.partner.headers);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      breachStatus: true,
      count: 2,
      breaches: [
        { id: await instanceId(prospect.id, "Alpha"), emails: ["ceo@acme.example"], resolved: false },
        { id: await instanceId(prospect.id, "Beta"), emails: ["ceo@acme.example"], resolved: false },
      ],
    });
    expect(keysDeep(res.body).filter((key) => WITHHELD_KEYS.includes(key))).toEqual([]);
    const text = JSON.stringify(res.body);
    for (const leak of ["Alpha Social", "Beta Shop", '"Alpha"', '"Beta"', "2024-03-01", "Passwords"]) expect(text).not.toContain(leak);
  });

  it("answers an empty list for a customer without breaches", async () => {
    const clean = await createBreachTestCustomer(testDb.db, org.partner.id, { emails: ["clean@clean.example"] });
    const res = await server.api.get(`/api/v1/integrations/customer/${clean.id}/breaches`, org.partner.headers);
    expect(res.body).toEqual({ success: true, breachStatus: false, count: 0, breaches: [] });
  });

  it.each([
    [
      "another partner's customer",
      () => `/api/v1/integrations/customer/${foreign.id}/breaches`,
      404,
      "Customer not found or does not belong to partner",
    ],
    [
      "an unknown customer",
      () => "/api/v1/integrations/customer/550e8400-e29b-41d4-a716-446655440000/breaches",
      404,
      "Customer not found or does not belong to partner",
    ],
    [
      "a malformed customer id",
      () => "/api/v1/integrations/customer/not-a-uuid/breaches",
      400,
      "Invalid route parameters: Customer ID must be a valid UUID",
    ],
    [
      "an unknown locale",
      () => `/api/v1/integrations/customer/${active.id}/breaches?localeCode=en-US`,
      400,
      "Invalid query parameters: localeCode must be one of sv-SE, nb-NO, fi-FI, da-DK, en-GB, nl-NL",
    ],
  ])("refuses %s", async (_name, path, status, message) => {
    const res = await server.api.get(path(), org.partner.headers);
    expect({ status: res.status, body: res.body }).toEqual({ status, body: { success: false, error: message } });
  });

  it("requires credentials", async () => {
    const res = await server.api.get(`/api/v1/integrations/customer/${active.id}/breaches`, {
      "SW-PARTNER-ID": org.partner.id,
      "SW-API-KEY": "sk_live_" + "x".repeat(40),
    });
    expect({ status: res.status, body: res.body }).toEqual(BAD_KEY);
  });
});
