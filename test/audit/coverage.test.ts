import { randomUUID } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { importCatalogue } from "../../server/breaches/catalogue/catalogue";
import { hibpBreach } from "../helpers/breach-fixtures";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createContext } from "../../server/api/context";
import type { AppMeta } from "../../server/api/meta";
import { createRestDispatcher } from "../../server/api/rest/dispatcher";
import { appRouter } from "../../server/api/root";
import { createUiCaller, uiRouter } from "../../server/api/ui/root";
import type { UiSession } from "../../server/api/ui/session";
import { issueApiKey } from "../../server/auth/api-keys";
import { storedKeyPrefix } from "../../server/auth/key-format";
import { createStaffPasswordResetLink } from "../../server/auth/staff-password-reset";
import { inviteStaff } from "../../server/auth/staff-management";
import { adminCommands, parseAdminCommand } from "../../server/cli/admin";
import { PEER_ADDRESS_HEADER, stampPeerAddress } from "../../server/client-address";
import { transitionCustomer } from "../../server/customers/lifecycle";
import { muteNotices } from "../../server/customers/mutes";
import { connectDirectory } from "../../server/directory/connections";
import { savePsaConnection } from "../../server/psa/connections";
import { createBillingCode } from "../../server/distributors/billing-codes";
import { serveRestRequest } from "../../server/http/rest-node";
import { createChannel } from "../../server/webhooks/channels/channels";
import { sendChannelTest } from "../../server/webhooks/channels/test-send";
import { sendTestEvent } from "../../server/webhooks/delivery-log";
import { createEndpoint } from "../../server/webhooks/endpoints";
import type { WebhookOwner } from "../../server/webhooks/owner";
import { cycleSecret, listSecrets } from "../../server/webhooks/secrets";
import { addCustomerBreach, createTestBreach, createTestCustomer, onboardBody } from "../helpers/customers";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { startDnsServer } from "../helpers/dns-server";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { apiClient, listenOnLoopback, type LoopbackServer } from "../helpers/http";
import { secretOfUri, totp } from "../helpers/totp";
import { createStaffSession } from "../helpers/ui";

/**
 * The audit log covers every change (docs/admin-ui.md, "Audit log"), generated from the routers
 * and the CLI's command table: each mutation states how it is audited (an action, or why it
 * changes nothing), and each audited one, called here successfully, writes exactly one row with
 * its action, actor, client address and target. A mutation added without a call in the tables
 * below fails, so its author states how it succeeds. No row holds any secret the calls handled.
 */

type Procedures = Record<string, { _def: { meta?: AppMeta; type: string } }>;
const restProcedures = appRouter._def.procedures as unknown as Procedures;
const uiProcedures = uiRouter._def.procedures as unknown as Procedures;

/** The customer portal's own mutations are the customer's, not staff's, keys' or the CLI's: outside the log. */
const UI_SCOPE = (procedurePath: string) => !procedurePath.startsWith("portal.") && !procedurePath.startsWith("notifications.");

const mutations = (procedures: Procedures, scope: (path: string) => boolean = () => true) =>
  Object.entries(procedures)
    .filter(([procedurePath, procedure]) => procedure._def.type === "mutation" && scope(procedurePath))
    .map(([procedurePath, procedure]) => ({ procedurePath, audit: procedure._def.meta?.audit }));

let testDb: TestDatabase;
let rest: LoopbackServer;
let api: ReturnType<typeof apiClient>;
let dns: Awaited<ReturnType<typeof startDnsServer>>;
let org: TestOrg;
let dataDir: string;
/** Every secret the calls handled: none may be in any audit row. */
const secrets = new Set<string>();
const keep = (value: unknown) => {
  if (typeof value === "string" && value.length >= 8) secrets.add(value);
  return value;
};

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), "audit-coverage-"));
  vi.stubEnv("DATA_DIR", dataDir);
  vi.stubEnv("WEBHOOK_ALLOW_PRIVATE_URLS", "true");
  dns = await startDnsServer();
  vi.stubEnv("DNS_SERVERS", dns.address);
  testDb = await createTestDatabase();
  rest = await listenOnLoopback(async (req, res) => {
    stampPeerAddress(req);
    await serveRestRequest(createRestDispatcher({ router: appRouter, getDb: () => testDb.db }), req, res);
  });
  api = apiClient(rest.baseUrl);
  org = await createTestOrg(testDb.db);
  for (const key of [org.partner.apiKey, org.distributor.apiKey]) keep(key);
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await rest?.close();
  await dns?.close();
  await testDb?.close();
  await rm(dataDir, { recursive: true, force: true });
});

type As = "partner" | "distributor" | "onBehalf";
interface RestCall {
  as: As;
  method: "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
  body?: unknown;
  /** What the row's target must be. */
  target?: { type: string; id: string | null };
}

const headersOf = (as: As) =>
  as === "partner" ? org.partner.headers : as === "distributor" ? org.distributor.headers : org.onBehalfHeaders;
const customer = (overrides = {}) => createTestCustomer(testDb.db, org.partner.id, overrides);
const connectedCustomer = async () => {
  const id = await customer();
  const clientSecret = keep(`directory-secret-${randomUUID()}`) as string;
  await connectDirectory(testDb.db, org.partner.id, id, {
    provider: "microsoft365",
    tenantId: randomUUID(),
    clientId: randomUUID(),
    clientSecret,
  });
  return id;
};
const HOOK_URL = "http://127.0.0.1:9/hook";
const psaBody = () => ({
  provider: "connectwise" as const,
  site: "http://127.0.0.1:9",
  companyId: "acme",
  publicKey: keep(`psa-public-${randomUUID()}`) as string,
  privateKey: keep(`psa-private-${randomUUID()}`) as string,
  clientId: randomUUID(),
  boardId: 1,
});

async function endpointOf(owner: WebhookOwner, protocol: "current" | "legacy" = "current") {
  const { endpoint, secret } = await createEndpoint(testDb.db, owner, protocol, {
    url: HOOK_URL,
    eventTypes: [protocol === "current" ? "customer.created" : "breach.new"],
  });
  keep(secret);
  return endpoint.id;
}

async function failedDelivery(owner: WebhookOwner, protocol: "current" | "legacy") {
  const id = await endpointOf(owner, protocol);
  const delivery = await sendTestEvent(testDb.db, owner, protocol, id, undefined);
  await testDb.db.webhookDelivery.update({ where: { id: delivery.id }, data: { status: "failed" } });
  return { id, deliveryId: delivery.id };
}

/** The webhook surfaces' calls, one set per surface. */
function webhookCalls(surface: "partner" | "distributor" | "legacy"): Record<string, () => Promise<RestCall>> {
  const base = {
    partner: "/api/v1/integrations/webhooks",
    distributor: "/api/v1/distributors/webhooks",
    legacy: "/api/integrations/webhooks",
  }[surface];
  const as: As = surface === "distributor" ? "distributor" : "partner";
  const owner = (): WebhookOwner => (surface === "distributor" ? { distributorId: org.distributor.id } : { partnerId: org.partner.id });
  const protocol = surface === "legacy" ? "legacy" : "current";
  const prefix = `webhooks.${surface}`;
  const calls: Record<string, () => Promise<RestCall>> = {
    [`${prefix}.create`]: async () => ({
      as,
      method: "POST",
      path: base,
      body: surface === "legacy" ? { url: HOOK_URL, events: ["breach.new"] } : { url: HOOK_URL, eventTypes: ["customer.created"] },
    }),
    [`${prefix}.update`]: async () => {
      const id = await endpointOf(owner(), protocol);
      return {
        as,
        method: "PATCH",
        path: `${base}/${id}`,
        body: surface === "legacy" ? { active: false } : { enabled: false },
        target: { type: "webhook", id },
      };
    },
    [`${prefix}.delete`]: async () => {
      const id = await endpointOf(owner(), protocol);
      return { as, method: "DELETE", path: `${base}/${id}`, target: { type: "webhook", id } };
    },
    [`${prefix}.retryDelivery`]: async () => {
      const { id, deliveryId } = await failedDelivery(owner(), protocol);
      return { as, method: "POST", path: `${base}/${id}/deliveries/${deliveryId}/retry`, target: { type: "webhook", id } };
    },
    [`${prefix}.recoverDeliveries`]: async () => {
      const { id } = await failedDelivery(owner(), protocol);
      return {
        as,
        method: "POST",
        path: `${base}/${id}/recover`,
        body: { since: new Date(Date.now() - 3_600_000).toISOString() },
        target: { type: "webhook", id },
      };
    },
    [`${prefix}.sendTest`]: async () => {
      const id = await endpointOf(owner(), protocol);
      return { as, method: "POST", path: `${base}/${id}/test`, target: { type: "webhook", id } };
    },
  };
  if (surface !== "legacy") {
    Object.assign(calls, {
      [`${prefix}.generateSecret`]: async () => ({ as, method: "POST", path: `${base}/secrets` }),
      [`${prefix}.cycleSecret`]: async () => ({ as, method: "POST", path: `${base}/secrets/cycle` }),
      [`${prefix}.deactivateSecret`]: async () => {
        keep((await cycleSecret(testDb.db, owner())).token);
        keep((await cycleSecret(testDb.db, owner())).token);
        const fallback = (await listSecrets(testDb.db, owner())).find((secret) => secret.status === "fallback")!;
        return { as, method: "DELETE", path: `${base}/secrets/${fallback.id}`, target: { type: "webhook-secret", id: fallback.id } };
      },
    });
  }
  return calls;
}

/** The chat and SIEM channels' calls (their delivery log is the webhook procedures', audited as such). */
function channelCalls(): Record<string, () => Promise<RestCall>> {
  const base = "/api/v1/integrations/channels";
  const channel = async () =>
    (await createChannel(testDb.db, org.partner.id, { type: "slack", url: HOOK_URL, eventTypes: ["customer.created"] })).id;
  const failedTest = async () => {
    const id = await channel();
    const delivery = await sendChannelTest(testDb.db, org.partner.id, id, undefined);
    await testDb.db.webhookDelivery.update({ where: { id: delivery.id }, data: { status: "failed", isTest: false } });
    return { id, deliveryId: delivery.id };
  };
  return {
    "channels.create": async () => ({
      as: "partner",
      method: "POST",
      path: base,
      body: { type: "teams", url: HOOK_URL, eventTypes: ["customer.created"] },
    }),
    "channels.update": async () => {
      const id = await channel();
      return { as: "partner", method: "PATCH", path: `${base}/${id}`, body: { minSeverity: "high" }, target: { type: "channel", id } };
    },
    "channels.delete": async () => {
      const id = await channel();
      return { as: "partner", method: "DELETE", path: `${base}/${id}`, target: { type: "channel", id } };
    },
    "channels.sendTest": async () => {
      const id = await channel();
      return { as: "partner", method: "POST", path: `${base}/${id}/test`, target: { type: "channel", id } };
    },
    "channels.retryDelivery": async () => {
      const { id, deliveryId } = await failedTest();
      return { as: "partner", method: "POST", path: `${base}/${id}/deliveries/${deliveryId}/retry`, target: { type: "webhook", id } };
    },
    "channels.recoverDeliveries": async () => {
      const { id } = await failedTest();
      return {
        as: "partner",
        method: "POST",
        path: `${base}/${id}/recover`,
        body: { since: new Date(Date.now() - 3_600_000).toISOString() },
        target: { type: "webhook", id },
      };
    },
  };
}

const REST_CALLS: Record<string, () => Promise<RestCall>> = {
  "customer.onboard": async () => ({ as: "partner", method: "POST", path: "/api/v1/integrations/customer/onboard", body: onboardBody() }),
  "customer.offboard": async () => {
    const id = await customer();
    return {
      as: "onBehalf",
      method: "POST",
      path: "/api/v1/integrations/customer/offboard",
      body: { customerId: id },
      target: { type: "customer", id },
    };
  },
  "customer.reactivate": async () => {
    const id = await customer();
    await transitionCustomer(testDb.db, org.partner.id, id, "offboard");
    return {
      as: "partner",
      method: "POST",
      path: "/api/v1/integrations/customer/reactivate",
      body: { customerId: id },
      target: { type: "customer", id },
    };
  },
  "customer.upgrade": async () => {
    const id = await customer({ status: "prospect" });
    return {
      as: "partner",
      method: "POST",
      path: "/api/v1/integrations/customer/upgrade",
      body: { customerId: id },
      target: { type: "customer", id },
    };
  },
  "customer.downgrade": async () => {
    const id = await customer();
    return {
      as: "partner",
      method: "POST",
      path: "/api/v1/integrations/customer/downgrade",
      body: { customerId: id },
      target: { type: "customer", id },
    };
  },
  "customer.updateInfo": async () => {
    const id = await customer();
    return {
      as: "partner",
      method: "PATCH",
      path: `/api/v1/integrations/customer/${id}/info`,
      body: { companyName: "Renamed Ltd" },
      target: { type: "customer", id },
    };
  },
  "customer.updateAssets": async () => {
    const id = await customer();
    return {
      as: "partner",
      method: "PATCH",
      path: `/api/v1/integrations/customer/${id}/assets`,
      body: { emails: ["new@acme.example"] },
      target: { type: "customer", id },
    };
  },
  "directory.connect": async () => {
    const id = await customer();
    return {
      as: "partner",
      method: "PUT",
      path: `/api/v1/integrations/customer/${id}/directory`,
      body: {
        provider: "microsoft365",
        tenantId: randomUUID(),
        clientId: randomUUID(),
        clientSecret: keep(`directory-secret-${randomUUID()}`),
      },
      target: { type: "customer", id },
    };
  },
  "directory.sync": async () => {
    const id = await connectedCustomer();
    return { as: "partner", method: "POST", path: `/api/v1/integrations/customer/${id}/directory/sync`, target: { type: "customer", id } };
  },
  "directory.disconnect": async () => {
    const id = await connectedCustomer();
    return { as: "onBehalf", method: "DELETE", path: `/api/v1/integrations/customer/${id}/directory`, target: { type: "customer", id } };
  },
  "mutes.create": async () => {
    const id = await customer();
    return {
      as: "partner",
      method: "POST",
      path: `/api/v1/integrations/customer/${id}/mutes`,
      body: { email: "left@acme.example" },
      target: { type: "customer", id },
    };
  },
  "mutes.delete": async () => {
    const id = await customer();
    const mute = await muteNotices(testDb.db, id, { email: "left@acme.example", mutedBy: "partner" });
    return {
      as: "partner",
      method: "DELETE",
      path: `/api/v1/integrations/customer/${id}/mutes/${mute.id}`,
      target: { type: "customer", id },
    };
  },
  "psa.connect": async () => ({
    as: "partner",
    method: "PUT",
    path: "/api/v1/integrations/psa",
    body: psaBody(),
    target: { type: "psa", id: null },
  }),
  "psa.test": async () => {
    await savePsaConnection(testDb.db, org.partner.id, psaBody());
    return { as: "partner", method: "POST", path: "/api/v1/integrations/psa/test", target: { type: "psa", id: null } };
  },
  "psa.disconnect": async () => {
    await savePsaConnection(testDb.db, org.partner.id, psaBody());
    return { as: "onBehalf", method: "DELETE", path: "/api/v1/integrations/psa", target: { type: "psa", id: null } };
  },
  "psa.mapCustomer": async () => {
    const id = await customer();
    return {
      as: "partner",
      method: "PUT",
      path: `/api/v1/integrations/customer/${id}/psa`,
      body: { companyId: "250" },
      target: { type: "customer", id },
    };
  },
  "customer.createMagicLink": async () => {
    const id = await customer();
    return { as: "partner", method: "POST", path: `/api/v1/integrations/customer/${id}/magic-link`, target: { type: "customer", id } };
  },
  "customer.verifyDomain": async () => {
    const id = await customer();
    return {
      as: "onBehalf",
      method: "POST",
      path: `/api/v1/integrations/customer/${id}/domains/acme.example/verify`,
      body: { method: "dns" },
      target: { type: "domain", id: "acme.example" },
    };
  },
  "distributor.createPartner": async () => ({
    as: "distributor",
    method: "POST",
    path: "/api/v1/distributors/partners",
    body: { name: "New partner" },
  }),
  "distributor.updatePartner": async () => ({
    as: "distributor",
    method: "PATCH",
    path: `/api/v1/distributors/partners/${org.partner.id}`,
    body: { name: `Renamed ${randomUUID().slice(0, 4)}` },
    target: { type: "partner", id: org.partner.id },
  }),
  "distributor.putBrand": async () => ({
    as: "distributor",
    method: "PUT",
    path: "/api/v1/distributors/brand",
    body: { name: "Distribution brand" },
    target: { type: "distributor", id: org.distributor.id },
  }),
  "partner.putBrand": async () => ({
    as: "partner",
    method: "PUT",
    path: "/api/v1/integrations/partner/brand",
    body: { name: "Partner brand", primaryColor: "#0b5394" },
    target: { type: "partner", id: org.partner.id },
  }),
  "distributor.createPartnerApiKey": async () => ({
    as: "distributor",
    method: "POST",
    path: `/api/v1/distributors/partners/${org.partner.id}/api-keys`,
    target: { type: "partner", id: org.partner.id },
  }),
  "distributor.revokePartnerApiKey": async () => {
    const key = await issueApiKey(testDb.db, { partnerId: org.partner.id });
    keep(key.apiKey);
    return {
      as: "distributor",
      method: "DELETE",
      path: `/api/v1/distributors/partners/${org.partner.id}/api-keys/${key.id}`,
      target: { type: "api-key", id: key.id },
    };
  },
  "breach.status": async () => {
    const id = await customer();
    const instance = await addCustomerBreach(testDb.db, id, (await createTestBreach(testDb.db)).id);
    return {
      as: "partner",
      method: "POST",
      path: "/api/v1/integrations/breach/status",
      body: { breachId: instance.id, resolved: true },
      target: { type: "breach-instance", id: instance.id },
    };
  },
  ...webhookCalls("partner"),
  ...channelCalls(),
  ...webhookCalls("distributor"),
  ...webhookCalls("legacy"),
};

/** Every string in an answer (the secrets a call was handed), kept for the final check. */
function keepStrings(value: unknown): void {
  if (typeof value === "string") {
    if (/^(expmon_|sk_live_)/.test(value) || /^[0-9a-f-]{36}$/.test(value) === false) {
      for (const match of value.matchAll(/[?&](?:token|token_hash)=([^&#]+)/g)) keep(match[1]);
      if (/^(expmon_|sk_live_)/.test(value)) keep(value);
    }
  } else if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      // A secret's id (secretId) names it; it is not the secret.
      if (/id$/i.test(key)) continue;
      if (/secret|apiKey|password|recovery/i.test(key) && typeof item === "string") keep(item);
      if (/secret|apiKey|recovery/i.test(key) && Array.isArray(item)) item.forEach(keep);
      keepStrings(item);
    }
  }
}

async function newestRow(action: string, since: Date) {
  const rows = await testDb.db.auditEntry.findMany({ where: { action, createdAt: { gte: since } }, orderBy: { createdAt: "desc" } });
  return rows;
}

describe("every mutation states how it is audited", () => {
  it("the REST API's and the admin UI's mutations each have an audit entry (an action, or why they change nothing)", () => {
    const missing = [...mutations(restProcedures), ...mutations(uiProcedures, UI_SCOPE)]
      .filter(({ audit }) => !audit)
      .map((m) => m.procedurePath);
    expect(missing).toEqual([]);
  });

  it("every CLI command has one", () => {
    expect(
      Object.entries(adminCommands)
        .filter(([, command]) => !command.audit)
        .map(([name]) => name),
    ).toEqual([]);
  });
});

describe("REST: a row for every audited mutation", () => {
  const audited = mutations(restProcedures).filter(({ audit }) => audit && !("skip" in audit));

  it("the table here has a successful call for each audited REST mutation", () => {
    expect(audited.map((m) => m.procedurePath).filter((procedurePath) => !REST_CALLS[procedurePath])).toEqual([]);
  });

  for (const { procedurePath, audit } of audited) {
    const action = audit && "action" in audit ? audit.action : "";
    it(`${procedurePath} writes one ${action} row naming the key, its owner and the client`, async () => {
      const call = await REST_CALLS[procedurePath]!();
      const since = new Date(Date.now() - 5);
      const headers = headersOf(call.as);
      const response = await api.call(call.method, call.path, { headers, body: call.body });
      expect([procedurePath, response.status]).toEqual([procedurePath, expect.toSatisfy((status: number) => status < 300)]);
      keepStrings(response.body);
      const rows = await newestRow(action, since);
      expect(rows).toHaveLength(1);
      const owner = call.as === "partner" ? `partner ${org.partner.id}` : `distributor ${org.distributor.id}`;
      expect(rows[0]).toMatchObject({
        distributorId: org.distributor.id,
        actorKind: "api-key",
        actorLabel: storedKeyPrefix(headers["SW-API-KEY"]!),
        actorOwner: owner,
        clientAddress: "127.0.0.1",
      });
      if (call.target) expect({ type: rows[0]!.targetType, id: rows[0]!.targetId }).toEqual(call.target);
      else expect(rows[0]!.targetId).toEqual(expect.any(String));
    });
  }

  it("a refused change writes no row", async () => {
    const since = new Date(Date.now() - 5);
    const response = await api.call("PATCH", `/api/v1/distributors/partners/${randomUUID()}`, {
      headers: org.distributor.headers,
      body: { name: "x" },
    });
    expect(response.status).toBe(404);
    expect(await newestRow("partner.update", since)).toEqual([]);
  });

  it("an update's row holds the values before and after", async () => {
    const id = await customer();
    const since = new Date(Date.now() - 5);
    await api.call("PATCH", `/api/v1/integrations/customer/${id}/info`, {
      headers: org.partner.headers,
      body: { companyName: "After Ltd" },
    });
    const [row] = await newestRow("customer.update-info", since);
    expect(row!.before).toMatchObject({ companyName: "Acme Ltd" });
    expect(row!.after).toMatchObject({ companyName: "After Ltd" });
  });
});

/** In-process UI calls with the client address the production server stamps (the tests' servers stamp 127.0.0.1). */
function uiCaller(session: UiSession | undefined) {
  stampPeerAddress({ socket: { remoteAddress: "127.0.0.1" }, headers: {}, rawHeaders: [] } as never);
  return createUiCaller(createContext(testDb.db, new Headers({ [PEER_ADDRESS_HEADER]: "127.0.0.1" }), randomUUID(), session));
}

type UiCall = { path: string; input: () => Promise<unknown>; session?: () => Promise<UiSession | undefined> };

let owner: UiSession;
const staffIdOf = (session: UiSession) => (session.kind === "staff" ? session.staffId : "");
const colleague = async (role: "agent" | "owner" = "agent") => staffIdOf(await createStaffSession(testDb.db, org.distributor.id, role));
const billingCode = async () =>
  (await createBillingCode(testDb.db, { distributorId: org.distributor.id, code: `C-${randomUUID().slice(0, 6)}`, price: 5 })).id;
const ownEndpoint = () => endpointOf({ distributorId: org.distributor.id });

const UI_CALLS: Record<string, Omit<UiCall, "path">> = {
  "admin.partners.create": { input: async () => ({ name: "UI partner" }) },
  "admin.partners.update": { input: async () => ({ partnerId: org.partner.id, name: "UI renamed" }) },
  "admin.partners.issueApiKey": { input: async () => ({ partnerId: org.partner.id }) },
  "admin.brand.putDistributor": { input: async () => ({ name: "UI default brand" }) },
  "admin.brand.putPartner": { input: async () => ({ partnerId: org.partner.id, name: "UI partner brand" }) },
  "admin.partners.revokeApiKey": {
    input: async () => ({ partnerId: org.partner.id, keyId: (await issueApiKey(testDb.db, { partnerId: org.partner.id })).id }),
  },
  "admin.channels.create": {
    input: async () => ({ partnerId: org.partner.id, type: "slack", url: HOOK_URL, eventTypes: ["customer.created"] }),
  },
  "admin.channels.sendTest": {
    input: async () => ({
      partnerId: org.partner.id,
      id: (await createChannel(testDb.db, org.partner.id, { type: "teams", url: HOOK_URL, eventTypes: ["customer.created"] })).id,
    }),
  },
  "admin.channels.delete": {
    input: async () => ({
      partnerId: org.partner.id,
      id: (await createChannel(testDb.db, org.partner.id, { type: "teams", url: HOOK_URL, eventTypes: ["customer.created"] })).id,
    }),
  },
  "admin.customers.signInLink": { input: async () => ({ customerId: await customer() }) },
  "admin.customers.mute": { input: async () => ({ customerId: await customer(), email: "someone@acme.example" }) },
  "admin.customers.unmute": {
    input: async () => {
      const customerId = await customer();
      const mute = await muteNotices(testDb.db, customerId, { email: "someone@acme.example", mutedBy: "staff" });
      return { customerId, muteId: mute.id };
    },
  },
  "admin.psa.save": { input: async () => ({ partnerId: org.partner.id, ...psaBody() }) },
  "admin.psa.test": {
    input: async () => {
      await savePsaConnection(testDb.db, org.partner.id, psaBody());
      return { partnerId: org.partner.id };
    },
  },
  "admin.psa.remove": {
    input: async () => {
      await savePsaConnection(testDb.db, org.partner.id, psaBody());
      return { partnerId: org.partner.id };
    },
  },
  "admin.psa.mapCustomer": { input: async () => ({ customerId: await customer(), companyId: "250" }) },
  "admin.billingCodes.create": { input: async () => ({ code: `UI-${randomUUID().slice(0, 6)}`, price: 3 }) },
  "admin.billingCodes.update": { input: async () => ({ id: await billingCode(), price: 7 }) },
  "admin.billingCodes.setRetired": { input: async () => ({ id: await billingCode(), retired: true }) },
  "admin.billingCodes.delete": { input: async () => ({ id: await billingCode() }) },
  "admin.webhooks.create": { input: async () => ({ url: HOOK_URL, eventTypes: ["customer.created"] }) },
  "admin.webhooks.update": { input: async () => ({ id: await ownEndpoint(), enabled: false }) },
  "admin.webhooks.delete": { input: async () => ({ id: await ownEndpoint() }) },
  "admin.webhooks.requeueDelivery": { input: async () => failedDelivery({ distributorId: org.distributor.id }, "current") },
  "admin.webhooks.recover": {
    input: async () => ({
      id: (await failedDelivery({ distributorId: org.distributor.id }, "current")).id,
      since: new Date(Date.now() - 3_600_000).toISOString(),
    }),
  },
  "admin.webhooks.sendTest": { input: async () => ({ id: await ownEndpoint() }) },
  "admin.webhooks.generateSecret": { input: async () => undefined },
  "admin.webhooks.cycleSecret": { input: async () => undefined },
  "admin.webhooks.deactivateSecret": {
    input: async () => {
      const ownerRef = { distributorId: org.distributor.id };
      keep((await cycleSecret(testDb.db, ownerRef)).token);
      keep((await cycleSecret(testDb.db, ownerRef)).token);
      return { secretId: (await listSecrets(testDb.db, ownerRef)).find((secret) => secret.status === "fallback")!.id };
    },
  },
  "admin.account.changePassword": {
    input: async () => ({ currentPassword: keep("a long staff password"), newPassword: keep("another long staff password") }),
    session: () => createStaffSession(testDb.db, org.distributor.id, "viewer"),
  },
  "admin.account.signOutEverywhere": { input: async () => ({}) },
  "admin.domains.attest": { input: async () => ({ customerId: await customer(), domain: "acme.example", note: "Checked by phone" }) },
  "admin.staff.invite": { input: async () => ({ email: `invitee-${randomUUID().slice(0, 6)}@admin.example`, role: "viewer" }) },
  "admin.staff.withdrawInvitation": {
    input: async () => {
      const invitation = await inviteStaff(testDb.db, {
        distributorId: org.distributor.id,
        invitedBy: { id: staffIdOf(owner), email: owner.email },
        email: `withdrawn-${randomUUID().slice(0, 6)}@admin.example`,
        role: "agent",
      });
      keep(new URL(invitation.url).searchParams.get("token"));
      return { invitationId: invitation.id };
    },
  },
  "admin.staff.changeRole": { input: async () => ({ staffId: await colleague(), role: "billing" }) },
  "admin.staff.setBreakGlass": { input: async () => ({ staffId: await colleague("owner"), breakGlass: true }) },
  "admin.staff.resetMfa": { input: async () => ({ staffId: await colleague() }) },
  "admin.staff.remove": { input: async () => ({ staffId: await colleague() }) },
  "admin.security.setSso": {
    input: async () => ({
      issuer: "https://login.example.com/tenant",
      clientId: "service-client",
      clientSecret: keep("client-secret-of-the-provider"),
      required: false,
      allowedDomains: ["admin.example"],
      jitRole: null,
    }),
  },
  "admin.security.removeSso": { input: async () => ({}) },
  "admin.security.setMfaRequired": { input: async () => ({ required: false }) },
  "admin.security.mfa.confirm": {
    session: () => createStaffSession(testDb.db, org.distributor.id, "viewer"),
    input: async () => ({}),
  },
  "staffPassword.reset": {
    session: async () => undefined,
    input: async () => {
      const email = `reset-${randomUUID().slice(0, 6)}@admin.example`;
      await createStaffSession(testDb.db, org.distributor.id, "agent").then((session) =>
        testDb.db.staffUser.update({ where: { id: staffIdOf(session) }, data: { email } }),
      );
      const { url } = await createStaffPasswordResetLink(testDb.db, email);
      return { token: keep(new URL(url).searchParams.get("token")), newPassword: keep("a new long staff password") };
    },
  },
  "staffInvitation.accept": {
    session: async () => undefined,
    input: async () => {
      const invitation = await inviteStaff(testDb.db, {
        distributorId: org.distributor.id,
        invitedBy: { id: staffIdOf(owner), email: owner.email },
        email: `accepted-${randomUUID().slice(0, 6)}@admin.example`,
        role: "agent",
      });
      return { token: keep(new URL(invitation.url).searchParams.get("token")), newPassword: keep("an invited long password") };
    },
  },
};

describe("admin UI: a row for every audited mutation", () => {
  const audited = mutations(uiProcedures, UI_SCOPE).filter(({ audit }) => audit && !("skip" in audit));

  beforeAll(async () => {
    owner = await createStaffSession(testDb.db, org.distributor.id, "owner");
  });

  it("the table here has a successful call for each audited UI mutation", () => {
    expect(audited.map((m) => m.procedurePath).filter((procedurePath) => !UI_CALLS[procedurePath])).toEqual([]);
  });

  for (const { procedurePath, audit } of audited) {
    const action = audit && "action" in audit ? audit.action : "";
    it(`${procedurePath} writes one ${action} row naming the staff member and the client`, async () => {
      const spec = UI_CALLS[procedurePath]!;
      const session = spec.session ? await spec.session() : owner;
      let input = await spec.input();
      const caller = uiCaller(session);
      if (procedurePath === "admin.security.mfa.confirm") {
        const started = await caller.admin.security.mfa.begin();
        keep(started.secret);
        input = { code: totp(started.secret) };
        expect(secretOfUri(started.otpauthUri)).toBe(started.secret);
      }
      const since = new Date(Date.now() - 5);
      let target: any = caller;
      for (const part of procedurePath.split(".")) target = target[part];
      const answer = await target(input);
      keepStrings(answer);
      keepStrings(input);
      const rows = await newestRow(action, since);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ distributorId: org.distributor.id, actorKind: "staff" });
      if (session) {
        expect(rows[0]).toMatchObject({ actorId: staffIdOf(session), actorLabel: session.email, clientAddress: "127.0.0.1" });
      }
      expect(rows[0]!.targetType).toEqual(expect.any(String));
    });
  }
});

describe("CLI: a row for every command that changes something", () => {
  let files: string;
  beforeAll(async () => {
    files = await mkdtemp(path.join(os.tmpdir(), "audit-cli-"));
    await writeFile(
      path.join(files, "catalogue.json"),
      JSON.stringify([
        {
          Name: "AuditShop",
          Title: "Audit Shop",
          Domain: "shop.example",
          BreachDate: "2024-01-01",
          AddedDate: "2024-02-01T00:00:00Z",
          ModifiedDate: "2024-02-01T00:00:00Z",
          PwnCount: 1,
          Description: "A shop.",
          DataClasses: ["Email addresses"],
          IsVerified: true,
          IsFabricated: false,
          IsSensitive: false,
          IsRetired: false,
          IsSpamList: false,
          IsMalware: false,
          IsSubscriptionFree: false,
        },
      ]),
    );
  });
  afterAll(async () => {
    await rm(files, { recursive: true, force: true });
  });

  const email = `cli-${randomUUID().slice(0, 6)}@admin.example`;
  const CLI_CALLS: Record<string, () => Promise<string[]>> = {
    "create-distributor": async () => ["--name", "CLI distributor"],
    "set-domain-policy": async () => ["--distributor", org.distributor.id, "--policy", "trusted"],
    "create-partner": async () => ["--distributor", org.distributor.id, "--name", "CLI partner"],
    "create-api-key": async () => ["--partner", org.partner.id],
    "create-staff": async () => [
      "--distributor",
      org.distributor.id,
      "--email",
      email,
      "--password",
      String(keep("a cli staff password")),
      "--role",
      "billing",
    ],
    "reset-staff-password": async () => ["--email", email],
    "remove-staff": async () => ["--email", email],
    "create-billing-code": async () => ["--distributor", org.distributor.id, "--code", `CLI-${randomUUID().slice(0, 4)}`, "--price", "2"],
    "set-sso": async () => [
      "--distributor",
      org.distributor.id,
      "--issuer",
      "https://login.example.com/cli",
      "--client-id",
      "cli-client",
      "--client-secret",
      String(keep("cli-client-secret-value")),
      "--required",
    ],
    "import-breaches": async () => ["--catalogue", path.join(files, "catalogue.json")],
    "import-stealer-logs": async () => {
      await importCatalogue(testDb.db, [hibpBreach("AuditStealerLogs", { IsStealerLog: true })]);
      await writeFile(path.join(files, "stealer.csv"), "email,website_domain\nceo@audit.example,bank.example\n");
      return ["--breach", "AuditStealerLogs", "--file", path.join(files, "stealer.csv")];
    },
    "set-breach-importer": async () => ["--distributor", org.distributor.id],
    "run-scans": async () => [],
  };
  /** sync-catalogue needs Have I Been Pwned (HIBP_API_KEY); its row is written the same way as the others'. */
  const UNREACHABLE = ["sync-catalogue"];

  it("the table here has a call for each audited command", () => {
    const audited = Object.entries(adminCommands).filter(([, command]) => !("skip" in command.audit));
    expect(audited.map(([name]) => name).filter((name) => !CLI_CALLS[name] && !UNREACHABLE.includes(name))).toEqual([]);
  });

  for (const [name, args] of Object.entries(CLI_CALLS)) {
    it(`${name} writes one row with the actor cli`, async () => {
      const { command, values } = parseAdminCommand([name, ...(await args())]);
      const audit = command.audit;
      if ("skip" in audit) throw new Error(`${name} is not audited`);
      const action = typeof audit.action === "function" ? audit.action(values) : audit.action;
      const since = new Date(Date.now() - 5);
      keepStrings(await command.run(testDb.db, values));
      const rows = await newestRow(action, since);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ actorKind: "cli", actorLabel: "cli", actorId: null });
    });
  }
});

describe("no secret in any row", () => {
  it("holds none of the keys, signing and client secrets, passwords, tokens, seeds or recovery codes the calls handled", async () => {
    const rows = (await testDb.db.auditEntry.findMany()).map((row) => JSON.stringify(row));
    expect(secrets.size).toBeGreaterThan(20);
    const leaks = [...secrets].flatMap((secret) => rows.filter((row) => row.includes(secret)).map((row) => ({ secret, row })));
    expect(leaks).toEqual([]);
  });
});
