import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { restTestBed } from "../helpers/rest";

const { testDb, server } = restTestBed();
let org: TestOrg;
let otherOrg: TestOrg;

const V1 = "/api/v1/integrations/webhooks";
const LEGACY = "/api/integrations/webhooks";
const DISTRIBUTOR = "/api/v1/distributors/webhooks";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const PUBLIC_URL = "https://93.184.216.34/hooks/exposure";
const SCHEME_ERROR = 'signatureScheme must be one of "x-signature", "standard-webhooks"';

beforeAll(async () => {
  org = await createTestOrg(testDb.db, "Alpha");
  otherOrg = await createTestOrg(testDb.db, "Beta");
});
afterEach(() => {
  vi.unstubAllEnvs();
});

describe("current-protocol endpoints (partner)", () => {
  it("creates an endpoint and returns the organization's new signing token once", async () => {
    const org = await createTestOrg(testDb.db);
    const res = await server.api.post(
      V1,
      { url: PUBLIC_URL, eventTypes: ["customer.created", "customer.breach.found"] },
      org.partner.headers,
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      webhook: {
        id: expect.stringMatching(UUID),
        url: PUBLIC_URL,
        eventTypes: ["customer.created", "customer.breach.found"],
        enabled: true,
        maxAttempts: 3,
        signatureScheme: "x-signature",
        lastSuccessAt: null,
        consecutiveFailures: 0,
        failingSince: null,
        disabledKind: null,
        disabledReason: null,
        disabledAt: null,
        createdAt: expect.stringMatching(ISO),
        updatedAt: expect.stringMatching(ISO),
        secret: expect.stringMatching(UUID),
      },
    });
    const secrets = await server.api.get(`${V1}/secrets`, org.partner.headers);
    expect(secrets.body.secrets).toEqual([{ id: expect.stringMatching(UUID), status: "active", createdAt: expect.stringMatching(ISO) }]);

    const second = await server.api.post(
      V1,
      { url: PUBLIC_URL, eventTypes: ["customer.deleted"], maxAttempts: 1, enabled: false },
      org.partner.headers,
    );
    expect(second.body.webhook).toMatchObject({
      maxAttempts: 1,
      enabled: false,
      disabledKind: "manual",
      disabledReason: null,
      secret: res.body.webhook.secret,
    });
    expect(second.body.webhook.disabledAt).toMatch(ISO);
    expect((await server.api.get(`${V1}/secrets`, org.partner.headers)).body.secrets).toHaveLength(1);

    const list = await server.api.get(V1, org.partner.headers);
    expect(list.body.webhooks.map((w: { id: string }) => w.id)).toEqual([second.body.webhook.id, res.body.webhook.id]);
    expect(JSON.stringify(list.body)).not.toContain(res.body.webhook.secret);
  });

  it("stores the token encrypted, never in clear", async () => {
    const org = await createTestOrg(testDb.db);
    const res = await server.api.post(V1, { url: PUBLIC_URL, eventTypes: ["customer.created"] }, org.partner.headers);
    const rows = await testDb.db.webhookSecret.findMany({ where: { partnerId: org.partner.id } });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenCiphertext).toMatch(/^v1\./);
    expect(rows[0]!.tokenCiphertext).not.toContain(res.body.webhook.secret);
  });

  it.each([
    [{ eventTypes: ["customer.created"] }, "Validation failed: url: URL is required"],
    [{ url: PUBLIC_URL }, "Validation failed: eventTypes: eventTypes is required"],
    [{ url: PUBLIC_URL, eventTypes: [] }, "Validation failed: eventTypes: At least one event type is required"],
    [
      { url: PUBLIC_URL, eventTypes: ["breach.new"] },
      expect.stringMatching(/^Validation failed: eventTypes\.0: Unknown event type; expected one of customer\.created, /),
    ],
    [
      { url: PUBLIC_URL, eventTypes: ["customer.created"], maxAttempts: 4 },
      "Validation failed: maxAttempts: maxAttempts must be an integer from 1 to 3",
    ],
    [
      { url: PUBLIC_URL, eventTypes: ["customer.created"], maxAttempts: 0 },
      "Validation failed: maxAttempts: maxAttempts must be an integer from 1 to 3",
    ],
    [
      { url: PUBLIC_URL, eventTypes: ["customer.created"], maxAttempts: 1.5 },
      "Validation failed: maxAttempts: maxAttempts must be an integer from 1 to 3",
    ],
    [{ url: "not a url", eventTypes: ["customer.created"] }, "Validation failed: url: Invalid URL"],
    [
      { url: "https://user:pw@93.184.216.34/", eventTypes: ["customer.created"] },
      "Validation failed: url: URL must not contain a user name or password",
    ],
    [{ url: PUBLIC_URL, eventTypes: ["customer.created"], signatureScheme: "hmac" }, `Validation failed: signatureScheme: ${SCHEME_ERROR}`],
    [
      { url: PUBLIC_URL, eventTypes: ["customer.created"], signatureScheme: "standard_webhooks" },
      `Validation failed: signatureScheme: ${SCHEME_ERROR}`,
    ],
    [{ url: PUBLIC_URL, eventTypes: ["customer.created"], signatureScheme: null }, `Validation failed: signatureScheme: ${SCHEME_ERROR}`],
  ])("refuses %j with 400 %s", async (body, message) => {
    const res = await server.api.post(V1, body, org.partner.headers);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: message });
  });

  it("refuses invalid JSON", async () => {
    const res = await server.api.post(V1, "{nope", org.partner.headers);
    expect(res).toMatchObject({ status: 400, body: { success: false, error: "Invalid JSON in request body" } });
  });

  it("gets, updates and deletes an endpoint", async () => {
    const created = (await server.api.post(V1, { url: PUBLIC_URL, eventTypes: ["customer.created"] }, org.partner.headers)).body.webhook;
    const got = await server.api.get(`${V1}/${created.id}`, org.partner.headers);
    const { secret: _secret, ...record } = created;
    expect(got.body).toEqual({ success: true, webhook: record });

    const patched = await server.api.patch(
      `${V1}/${created.id}`,
      { eventTypes: ["customer.deleted", "customer.deleted"], maxAttempts: 2, enabled: false },
      org.partner.headers,
    );
    expect(patched.status).toBe(200);
    expect(patched.body.webhook).toMatchObject({
      id: created.id,
      url: PUBLIC_URL,
      eventTypes: ["customer.deleted"],
      maxAttempts: 2,
      enabled: false,
    });
    expect(patched.body.webhook.secret).toBeUndefined();

    const none = await server.api.patch(`${V1}/${created.id}`, {}, org.partner.headers);
    expect(none).toMatchObject({
      status: 400,
      body: {
        success: false,
        error: "Validation failed: At least one of url, eventTypes, enabled, maxAttempts or signatureScheme is required",
      },
    });

    expect((await server.api.delete(`${V1}/${created.id}`, org.partner.headers)).body).toEqual({ success: true });
    expect(await server.api.get(`${V1}/${created.id}`, org.partner.headers)).toMatchObject({
      status: 404,
      body: { success: false, error: "Webhook not found" },
    });
    expect((await server.api.delete(`${V1}/${created.id}`, org.partner.headers)).status).toBe(404);
  });

  it.each([
    ["partner", V1, (o: TestOrg) => o.partner.headers],
    ["distributor", DISTRIBUTOR, (o: TestOrg) => o.distributor.headers],
  ])("%s: opts into Standard Webhooks on create or update, and refuses other schemes", async (_name, base, headersOf) => {
    const headers = headersOf(org);
    const created = await server.api.post(
      base,
      { url: PUBLIC_URL, eventTypes: ["customer.created"], signatureScheme: "standard-webhooks" },
      headers,
    );
    expect(created.status).toBe(200);
    expect(created.body.webhook.signatureScheme).toBe("standard-webhooks");
    const id = created.body.webhook.id;
    expect((await server.api.get(`${base}/${id}`, headers)).body.webhook.signatureScheme).toBe("standard-webhooks");
    expect((await server.api.get(base, headers)).body.webhooks.find((w: { id: string }) => w.id === id).signatureScheme).toBe(
      "standard-webhooks",
    );

    const back = await server.api.patch(`${base}/${id}`, { signatureScheme: "x-signature" }, headers);
    expect(back.status).toBe(200);
    expect(back.body.webhook).toMatchObject({ signatureScheme: "x-signature", eventTypes: ["customer.created"], enabled: true });
    const refused = await server.api.patch(`${base}/${id}`, { signatureScheme: "Standard-Webhooks" }, headers);
    expect(refused).toMatchObject({ status: 400, body: { success: false, error: `Validation failed: signatureScheme: ${SCHEME_ERROR}` } });
    expect((await server.api.get(`${base}/${id}`, headers)).body.webhook.signatureScheme).toBe("x-signature");
    // the other fields leave the scheme alone
    await server.api.patch(`${base}/${id}`, { signatureScheme: "standard-webhooks" }, headers);
    expect((await server.api.patch(`${base}/${id}`, { maxAttempts: 1 }, headers)).body.webhook.signatureScheme).toBe("standard-webhooks");
    expect((await testDb.db.webhookEndpoint.findUniqueOrThrow({ where: { id } })).signatureScheme).toBe("standard_webhooks");
  });

  it("records a manual disable and clears every trace of a disable when enabled again", async () => {
    const created = (await server.api.post(V1, { url: PUBLIC_URL, eventTypes: ["customer.created"] }, org.partner.headers)).body.webhook;
    const before = Date.now();
    const disabled = (await server.api.patch(`${V1}/${created.id}`, { enabled: false }, org.partner.headers)).body.webhook;
    expect(disabled).toMatchObject({ enabled: false, disabledKind: "manual", disabledReason: null });
    expect(Date.parse(disabled.disabledAt)).toBeGreaterThanOrEqual(before - 1_000);
    // disabling again keeps the first disable
    const again = (await server.api.patch(`${V1}/${created.id}`, { enabled: false }, org.partner.headers)).body.webhook;
    expect(again).toMatchObject({ disabledKind: "manual", disabledAt: disabled.disabledAt });

    // as the delivery engine leaves an endpoint it disabled
    const failingSince = new Date(Date.now() - 60_000);
    await testDb.db.webhookEndpoint.update({
      where: { id: created.id },
      data: { disabledKind: "gone", disabledReason: "The receiver answered 410 Gone", consecutiveFailures: 4, failingSince },
    });
    const gone = (await server.api.get(`${V1}/${created.id}`, org.partner.headers)).body.webhook;
    expect(gone).toMatchObject({
      enabled: false,
      disabledKind: "gone",
      disabledReason: "The receiver answered 410 Gone",
      consecutiveFailures: 4,
      failingSince: failingSince.toISOString(),
    });

    const enabled = (await server.api.patch(`${V1}/${created.id}`, { enabled: true }, org.partner.headers)).body.webhook;
    expect(enabled).toMatchObject({
      enabled: true,
      disabledKind: null,
      disabledReason: null,
      disabledAt: null,
      consecutiveFailures: 0,
      failingSince: null,
    });
    const row = await testDb.db.webhookEndpoint.findUniqueOrThrow({ where: { id: created.id } });
    expect(row).toMatchObject({
      enabled: true,
      disabledKind: null,
      disabledReason: null,
      disabledAt: null,
      consecutiveFailures: 0,
      failingSince: null,
    });
  });

  it("leaves the failure run of an enabled endpoint alone when enabled: true is sent again", async () => {
    const created = (await server.api.post(V1, { url: PUBLIC_URL, eventTypes: ["customer.created"] }, org.partner.headers)).body.webhook;
    const failingSince = new Date(Date.now() - 60_000);
    const lastSuccessAt = new Date(Date.now() - 120_000);
    await testDb.db.webhookEndpoint.update({ where: { id: created.id }, data: { consecutiveFailures: 3, failingSince, lastSuccessAt } });
    const res = (await server.api.patch(`${V1}/${created.id}`, { enabled: true }, org.partner.headers)).body.webhook;
    expect(res).toMatchObject({
      enabled: true,
      consecutiveFailures: 3,
      failingSince: failingSince.toISOString(),
      lastSuccessAt: lastSuccessAt.toISOString(),
      disabledKind: null,
    });
  });

  it("shows endpoints disabled before the kind was kept as failing (with a reason) or manual (without)", async () => {
    const org = await createTestOrg(testDb.db);
    const byService = (await server.api.post(V1, { url: PUBLIC_URL, eventTypes: ["customer.created"] }, org.partner.headers)).body.webhook;
    const byOwner = (await server.api.post(V1, { url: PUBLIC_URL, eventTypes: ["customer.created"] }, org.partner.headers)).body.webhook;
    const reason = "Disabled after 20 failed deliveries in a row; last error: HTTP 500";
    await testDb.db.webhookEndpoint.update({
      where: { id: byService.id },
      data: { enabled: false, disabledReason: reason, disabledAt: new Date(), consecutiveFailures: 20 },
    });
    await testDb.db.webhookEndpoint.update({ where: { id: byOwner.id }, data: { enabled: false } });
    const kinds = Object.fromEntries(
      (await server.api.get(V1, org.partner.headers)).body.webhooks.map((w: { id: string; disabledKind: string }) => [
        w.id,
        w.disabledKind,
      ]),
    );
    expect(kinds).toEqual({ [byService.id]: "failing", [byOwner.id]: "manual" });
    expect((await server.api.get(`${V1}/${byService.id}`, org.partner.headers)).body.webhook).toMatchObject({
      disabledReason: reason,
      consecutiveFailures: 20,
    });
  });

  it("answers 400 'Invalid webhook ID' for an id that is not a uuid", async () => {
    for (const res of [
      await server.api.get(`${V1}/42`, org.partner.headers),
      await server.api.patch(`${V1}/42`, { enabled: true }, org.partner.headers),
      await server.api.delete(`${V1}/42`, org.partner.headers),
    ]) {
      expect(res).toMatchObject({ status: 400, body: { success: false, error: "Invalid webhook ID" } });
    }
  });

  it("keeps each organization's endpoints to itself", async () => {
    const mine = (await server.api.post(V1, { url: PUBLIC_URL, eventTypes: ["customer.created"] }, org.partner.headers)).body.webhook;
    const theirs = otherOrg.partner.headers;
    expect((await server.api.get(`${V1}/${mine.id}`, theirs)).status).toBe(404);
    expect((await server.api.patch(`${V1}/${mine.id}`, { enabled: false }, theirs)).status).toBe(404);
    expect((await server.api.delete(`${V1}/${mine.id}`, theirs)).status).toBe(404);
    expect((await server.api.get(V1, theirs)).body.webhooks.map((w: { id: string }) => w.id)).not.toContain(mine.id);
    expect((await server.api.get(`${V1}/${mine.id}`, org.partner.headers)).body.webhook.enabled).toBe(true);
  });

  it("requires the partner's own credentials", async () => {
    expect(await server.api.get(V1, {})).toMatchObject({
      status: 401,
      body: { success: false, error: "Partner ID and API key are required in headers" },
    });
    expect(await server.api.get(V1, org.onBehalfHeaders)).toMatchObject({
      status: 401,
      body: { success: false, error: "Failed to verify org API key" },
    });
  });
});

describe.each([
  ["partner v1", V1, () => org.partner.headers],
  ["distributor", DISTRIBUTOR, () => org.distributor.headers],
])("field names on the %s surface", (_surface, base, headers) => {
  it("creates with events and active as the names of eventTypes and enabled", async () => {
    const res = await server.api.post(base, { url: PUBLIC_URL, events: ["customer.created"], active: false }, headers());
    expect(res.status).toBe(200);
    expect(res.body.webhook).toMatchObject({ eventTypes: ["customer.created"], enabled: false, disabledKind: "manual" });
    const both = await server.api.post(
      base,
      { url: PUBLIC_URL, events: ["customer.deleted"], eventTypes: ["customer.deleted"], enabled: true, active: true },
      headers(),
    );
    expect(both.status).toBe(200);
    expect(both.body.webhook).toMatchObject({ eventTypes: ["customer.deleted"], enabled: true });
  });

  it("applies a PATCH {url, events, active: false} whole: the url, the events and the disable", async () => {
    const created = await server.api.post(base, { url: PUBLIC_URL, eventTypes: ["customer.created"] }, headers());
    const id = created.body.webhook.id;
    const res = await server.api.patch(
      `${base}/${id}`,
      { url: "https://93.184.216.35/other", events: ["customer.deleted"], active: false },
      headers(),
    );
    expect(res.status).toBe(200);
    expect(res.body.webhook).toMatchObject({
      url: "https://93.184.216.35/other",
      eventTypes: ["customer.deleted"],
      enabled: false,
      disabledKind: "manual",
    });
    expect((await server.api.get(`${base}/${id}`, headers())).body.webhook).toMatchObject({
      eventTypes: ["customer.deleted"],
      enabled: false,
    });
  });

  it.each([
    [
      "events and eventTypes that differ",
      { events: ["customer.deleted"], eventTypes: ["customer.created"] },
      "Validation failed: events: events and eventTypes name the same field and differ",
    ],
    [
      "active and enabled that differ",
      { active: false, enabled: true },
      "Validation failed: active: active and enabled name the same field and differ",
    ],
    ["a key that is not a field", { secret: "mine" }, "Validation failed: Unknown field secret"],
  ])("refuses %s with 400 and changes nothing", async (_name, fields, error) => {
    const created = await server.api.post(base, { url: PUBLIC_URL, eventTypes: ["customer.created"] }, headers());
    const id = created.body.webhook.id;
    const patched = await server.api.patch(`${base}/${id}`, { url: "https://93.184.216.35/changed", ...fields }, headers());
    expect(patched.status).toBe(400);
    expect(patched.body).toEqual({ success: false, error });
    expect((await server.api.get(`${base}/${id}`, headers())).body.webhook).toMatchObject({
      url: PUBLIC_URL,
      eventTypes: ["customer.created"],
      enabled: true,
    });
    const before = (await server.api.get(base, headers())).body.webhooks.length;
    const posted = await server.api.post(base, { url: PUBLIC_URL, eventTypes: ["customer.created"], ...fields }, headers());
    expect(posted.status).toBe(400);
    expect(posted.body).toEqual({ success: false, error });
    expect((await server.api.get(base, headers())).body.webhooks).toHaveLength(before);
  });

  it("still asks for eventTypes when neither name is sent", async () => {
    const res = await server.api.post(base, { url: PUBLIC_URL }, headers());
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: "Validation failed: eventTypes: eventTypes is required" });
  });
});

describe("webhook URL rules", () => {
  it.each([
    ["http://93.184.216.34/hook", "URL must use https:// (WEBHOOK_ALLOW_PRIVATE_URLS=true allows http:// for local testing)"],
    [
      "https://127.0.0.1/hook",
      "URL must point to a public address: 127.0.0.1 is a loopback address (WEBHOOK_ALLOW_PRIVATE_URLS=true allows private addresses for local testing)",
    ],
    [
      "https://10.1.2.3/hook",
      "URL must point to a public address: 10.1.2.3 is a private address (WEBHOOK_ALLOW_PRIVATE_URLS=true allows private addresses for local testing)",
    ],
    [
      "https://169.254.169.254/latest/meta-data",
      "URL must point to a public address: 169.254.169.254 is a link-local address (WEBHOOK_ALLOW_PRIVATE_URLS=true allows private addresses for local testing)",
    ],
    [
      "https://[::1]/hook",
      "URL must point to a public address: ::1 is a loopback address (WEBHOOK_ALLOW_PRIVATE_URLS=true allows private addresses for local testing)",
    ],
    ["https://[::ffff:127.0.0.1]/hook", expect.stringContaining("is a loopback address")],
    ["https://2130706433/hook", expect.stringContaining("127.0.0.1 is a loopback address")],
    ["https://localhost:8443/hook", expect.stringMatching(/^URL must point to a public address: (127\.0\.0\.1|::1) is a loopback address/)],
  ])("refuses %s", async (url, message) => {
    vi.stubEnv("WEBHOOK_ALLOW_PRIVATE_URLS", "false");
    for (const [path, body] of [
      [V1, { url, eventTypes: ["customer.created"] }],
      [LEGACY, { url, events: ["breach.new"] }],
    ] as const) {
      const res = await server.api.post(path, body, org.partner.headers);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        success: false,
        error: typeof message === "string" ? `Validation failed: url: ${message}` : expect.anything(),
      });
      if (typeof message !== "string") expect(res.body.error.replace("Validation failed: url: ", "")).toEqual(message);
    }
  });

  it("refuses a private URL on update too", async () => {
    const created = (await server.api.post(V1, { url: PUBLIC_URL, eventTypes: ["customer.created"] }, org.partner.headers)).body.webhook;
    const res = await server.api.patch(`${V1}/${created.id}`, { url: "https://192.168.1.10/" }, org.partner.headers);
    expect(res.status).toBe(400);
    expect(res.body.error).toContain("192.168.1.10 is a private address");
  });

  it("accepts http:// and loopback addresses with WEBHOOK_ALLOW_PRIVATE_URLS=true", async () => {
    vi.stubEnv("WEBHOOK_ALLOW_PRIVATE_URLS", "true");
    const res = await server.api.post(V1, { url: "http://127.0.0.1:9/hook#frag", eventTypes: ["customer.created"] }, org.partner.headers);
    expect(res.status).toBe(200);
    expect(res.body.webhook.url).toBe("http://127.0.0.1:9/hook");
  });
});

describe("earlier-protocol endpoints (/api/integrations/webhooks)", () => {
  it("creates, lists, updates and deletes with the earlier shapes and a secret of the endpoint's own", async () => {
    const org = await createTestOrg(testDb.db);
    const created = await server.api.post(LEGACY, { url: PUBLIC_URL, events: ["breach.new", "email.added"] }, org.partner.headers);
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      success: true,
      webhook: {
        id: expect.stringMatching(UUID),
        url: PUBLIC_URL,
        events: ["breach.new", "email.added"],
        active: true,
        created_at: expect.stringMatching(ISO),
        updated_at: expect.stringMatching(ISO),
        last_success_at: null,
        consecutive_failures: 0,
        failing_since: null,
        disabled_kind: null,
        disabled_reason: null,
        disabled_at: null,
        secret: expect.stringMatching(UUID),
      },
    });
    const other = await server.api.post(LEGACY, { url: PUBLIC_URL, events: ["breach.resolved"], active: false }, org.partner.headers);
    expect(other.body.webhook.secret).not.toBe(created.body.webhook.secret);
    expect(other.body.webhook).toMatchObject({ active: false, disabled_kind: "manual", disabled_reason: null });
    // no organization secret is involved in the earlier protocol
    expect(await testDb.db.webhookSecret.count({ where: { partnerId: org.partner.id } })).toBe(0);

    const list = await server.api.get(LEGACY, org.partner.headers);
    expect(list.body.webhooks.map((w: { id: string }) => w.id)).toEqual([other.body.webhook.id, created.body.webhook.id]);
    expect(list.body.webhooks[0].secret).toBeUndefined();

    const patched = await server.api.patch(
      `${LEGACY}/${created.body.webhook.id}`,
      { active: false, events: ["email.removed"] },
      org.partner.headers,
    );
    expect(patched.body.webhook).toMatchObject({
      active: false,
      events: ["email.removed"],
      disabled_kind: "manual",
      disabled_reason: null,
    });
    expect(patched.body.webhook.disabled_at).toMatch(ISO);
    expect(patched.body.webhook.signatureScheme ?? patched.body.webhook.signature_scheme).toBeUndefined();
    expect((await server.api.get(`${LEGACY}/${created.body.webhook.id}`, org.partner.headers)).body.webhook.events).toEqual([
      "email.removed",
    ]);
    const reactivated = await server.api.patch(`${LEGACY}/${created.body.webhook.id}`, { active: true }, org.partner.headers);
    expect(reactivated.body.webhook).toMatchObject({
      active: true,
      disabled_kind: null,
      disabled_reason: null,
      disabled_at: null,
      consecutive_failures: 0,
      failing_since: null,
    });
    expect((await server.api.delete(`${LEGACY}/${created.body.webhook.id}`, org.partner.headers)).body).toEqual({ success: true });
    expect((await server.api.get(LEGACY, org.partner.headers)).body.webhooks).toHaveLength(1);
  });

  it("keeps the two surfaces apart", async () => {
    const org = await createTestOrg(testDb.db);
    const legacy = (await server.api.post(LEGACY, { url: PUBLIC_URL, events: ["breach.new"] }, org.partner.headers)).body.webhook;
    const current = (await server.api.post(V1, { url: PUBLIC_URL, eventTypes: ["customer.created"] }, org.partner.headers)).body.webhook;
    expect((await server.api.get(V1, org.partner.headers)).body.webhooks.map((w: { id: string }) => w.id)).toEqual([current.id]);
    expect((await server.api.get(LEGACY, org.partner.headers)).body.webhooks.map((w: { id: string }) => w.id)).toEqual([legacy.id]);
    expect((await server.api.get(`${V1}/${legacy.id}`, org.partner.headers)).status).toBe(404);
    expect((await server.api.delete(`${LEGACY}/${current.id}`, org.partner.headers)).status).toBe(404);
  });

  it.each([
    [
      { url: PUBLIC_URL, events: ["customer.created"] },
      expect.stringMatching(/^Validation failed: events\.0: Unknown event; expected one of breach\.new, /),
    ],
    [{ url: PUBLIC_URL }, "Validation failed: events: events is required"],
    [{ events: ["breach.new"] }, "Validation failed: url: URL is required"],
  ])("refuses %j", async (body, message) => {
    const res = await server.api.post(LEGACY, body, org.partner.headers);
    expect(res).toMatchObject({ status: 400, body: { success: false, error: message } });
  });

  it("answers the earlier texts for bad ids and empty updates", async () => {
    expect(await server.api.patch(`${LEGACY}/17`, { active: true }, org.partner.headers)).toMatchObject({
      status: 400,
      body: { error: "Invalid webhook ID" },
    });
    expect(await server.api.patch(`${LEGACY}/${crypto.randomUUID()}`, { active: true }, org.partner.headers)).toMatchObject({
      status: 404,
      body: { error: "Webhook not found" },
    });
    expect(await server.api.patch(`${LEGACY}/${crypto.randomUUID()}`, {}, org.partner.headers)).toMatchObject({
      status: 400,
      body: { error: "Validation failed: At least one of url, events or active is required" },
    });
  });

  it("has no signing-secret operations", async () => {
    expect((await server.api.post(`${LEGACY}/secrets`, undefined, org.partner.headers)).status).toBe(405);
  });
});

describe("distributor endpoints", () => {
  it("manages the distributor's own endpoints with the current shapes", async () => {
    const org = await createTestOrg(testDb.db);
    const created = await server.api.post(DISTRIBUTOR, { url: PUBLIC_URL, eventTypes: ["customer.breach.found"] }, org.distributor.headers);
    expect(created.status).toBe(200);
    expect(created.body.webhook).toMatchObject({
      url: PUBLIC_URL,
      eventTypes: ["customer.breach.found"],
      maxAttempts: 3,
      secret: expect.stringMatching(UUID),
    });
    const id = created.body.webhook.id;
    expect((await server.api.get(DISTRIBUTOR, org.distributor.headers)).body.webhooks.map((w: { id: string }) => w.id)).toEqual([id]);
    expect((await server.api.patch(`${DISTRIBUTOR}/${id}`, { enabled: false }, org.distributor.headers)).body.webhook.enabled).toBe(false);
    // the partner's surface does not show the distributor's endpoint, nor the other way round
    expect((await server.api.get(V1, org.partner.headers)).body.webhooks).toEqual([]);
    expect((await server.api.get(`${V1}/${id}`, org.partner.headers)).status).toBe(404);
    expect((await server.api.get(`${DISTRIBUTOR}/${id}`, otherOrg.distributor.headers)).status).toBe(404);
    expect(await testDb.db.webhookSecret.count({ where: { distributorId: org.distributor.id } })).toBe(1);
    expect((await server.api.delete(`${DISTRIBUTOR}/${id}`, org.distributor.headers)).body).toEqual({ success: true });
  });

  it("requires distributor credentials", async () => {
    expect(await server.api.get(DISTRIBUTOR, org.partner.headers)).toMatchObject({
      status: 401,
      body: { error: "Distributor ID and API key are required in headers" },
    });
    expect(await server.api.get(DISTRIBUTOR, { "SW-DISTRIBUTOR-ID": org.distributor.id, "SW-API-KEY": org.partner.apiKey })).toMatchObject({
      status: 401,
      body: { error: "Failed to verify org API key" },
    });
  });
});

describe("signing secrets", () => {
  it.each([
    ["partner", V1, (o: TestOrg) => o.partner.headers],
    ["distributor", DISTRIBUTOR, (o: TestOrg) => o.distributor.headers],
  ])("%s: generate, cycle, deactivate and list without tokens", async (_name, base, headersOf) => {
    const org = await createTestOrg(testDb.db);
    const headers = headersOf(org);
    expect((await server.api.get(`${base}/secrets`, headers)).body).toEqual({ success: true, secrets: [] });

    const first = await server.api.post(`${base}/secrets`, { scope: "distributor" }, headers);
    expect(first.body).toEqual({ success: true, secret: { id: expect.stringMatching(UUID), token: expect.stringMatching(UUID) } });

    const second = (await server.api.post(`${base}/secrets/cycle`, undefined, headers)).body.secret;
    let list = (await server.api.get(`${base}/secrets`, headers)).body.secrets;
    expect(list.map((s: { id: string; status: string }) => [s.id, s.status])).toEqual([
      [second.id, "active"],
      [first.body.secret.id, "fallback"],
    ]);
    expect(JSON.stringify(list)).not.toContain(second.token);

    const third = (await server.api.post(`${base}/secrets/cycle`, undefined, headers)).body.secret;
    list = (await server.api.get(`${base}/secrets`, headers)).body.secrets;
    expect(list.map((s: { id: string; status: string }) => [s.id, s.status])).toEqual([
      [third.id, "active"],
      [second.id, "fallback"],
    ]);

    const replaced = (await server.api.post(`${base}/secrets`, undefined, headers)).body.secret;
    list = (await server.api.get(`${base}/secrets`, headers)).body.secrets;
    expect(list.map((s: { id: string; status: string }) => [s.id, s.status])).toEqual([[replaced.id, "active"]]);

    expect((await server.api.delete(`${base}/secrets/${replaced.id}`, headers)).body).toEqual({ success: true });
    expect((await server.api.get(`${base}/secrets`, headers)).body.secrets).toEqual([]);
    expect(await server.api.delete(`${base}/secrets/${replaced.id}`, headers)).toMatchObject({
      status: 404,
      body: { error: "Signing secret not found" },
    });
    expect(await server.api.delete(`${base}/secrets/nope`, headers)).toMatchObject({
      status: 400,
      body: { error: "Validation failed: id: Invalid secret ID" },
    });
  });

  it("cannot touch another organization's secret", async () => {
    const mine = (await server.api.post(`${V1}/secrets`, undefined, org.partner.headers)).body.secret;
    expect((await server.api.delete(`${V1}/secrets/${mine.id}`, otherOrg.partner.headers)).status).toBe(404);
    expect((await server.api.delete(`${DISTRIBUTOR}/secrets/${mine.id}`, org.distributor.headers)).status).toBe(404);
    expect((await server.api.get(`${V1}/secrets`, org.partner.headers)).body.secrets.map((s: { id: string }) => s.id)).toEqual([mine.id]);
  });

  it("keeps at most one active and one fallback when cycles race", async () => {
    const org = await createTestOrg(testDb.db);
    const results = await Promise.all(
      Array.from({ length: 5 }, () => server.api.post(`${V1}/secrets/cycle`, undefined, org.partner.headers)),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const list = (await server.api.get(`${V1}/secrets`, org.partner.headers)).body.secrets;
    expect(list.map((s: { status: string }) => s.status)).toEqual(["active", "fallback"]);
  });
});
