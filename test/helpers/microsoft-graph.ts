import { generateKeyPairSync } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";
import type { z } from "zod";
import { serveOnLoopback, type LoopbackServer } from "./http";
import { schemaValidator } from "./openapi-schema";

/**
 * Microsoft Graph's published description of what the sync reads (the fixture names its source):
 * every request the fake receives and every answer it gives are checked against it.
 */
const GRAPH_DESCRIPTION = JSON.parse(
  readFileSync(new URL("../fixtures/microsoft-graph/graph-v1.0-directory-subset.json", import.meta.url), "utf8"),
) as {
  paths: Record<string, { get: { parameters: Array<{ name: string; in: string; schema: object }>; responses: Record<string, unknown> } }>;
  components: { schemas: Record<string, object> };
};

const schema = (name: string) => schemaValidator(GRAPH_DESCRIPTION, { $ref: `#/components/schemas/${name}` });
const RESPONSE_SCHEMAS: Record<string, z.ZodType> = {
  "/users/delta": schema("deltaCollectionOfUser"),
  "/groups/{group-id}/transitiveMembers": schema("directoryObjectCollectionResponse"),
  "/domains": schema("domainCollectionResponse"),
};
const ERROR_SCHEMA = schema("odataError");

export interface IdentityServer {
  /** MICROSOFT_LOGIN_URL for the service. */
  loginUrl: string;
  /** Whether a bearer token is one this server issued to the client with the Graph scope. */
  validToken(token: string): Promise<boolean>;
  tokensIssued(): number;
  close(): Promise<void>;
}

/**
 * A real OAuth 2.0 authorization server (oidc-provider) issuing tokens by the client-credentials
 * grant at `/{tenant}/oauth2/v2.0/token`, as Microsoft's identity platform does.
 */
export async function startIdentityServer({
  tenantId,
  clientId,
  clientSecret,
  graphUrl,
}: {
  tenantId: string;
  clientId: string;
  clientSecret: string;
  graphUrl: string;
}): Promise<IdentityServer> {
  const scope = `${graphUrl}/.default`;
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const loginUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(`${loginUrl}/${tenantId}/v2.0`, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        grant_types: ["client_credentials"],
        redirect_uris: [],
        response_types: [],
        token_endpoint_auth_method: "client_secret_post",
        scope,
      },
    ],
    scopes: [scope],
    features: { clientCredentials: { enabled: true }, devInteractions: { enabled: false } },
    routes: { token: `/${tenantId}/oauth2/v2.0/token` },
    jwks: {
      keys: [{ ...generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ format: "jwk" }), kid: "test", use: "sig" }],
    },
    ttl: { ClientCredentials: 3600 },
    adapter: MapAdapter,
  });
  let issued = 0;
  provider.on("client_credentials.saved", () => issued++);
  server.on("request", provider.callback());
  return {
    loginUrl,
    async validToken(token) {
      const found = await provider.ClientCredentials.find(token);
      return Boolean(found && found.clientId === clientId && !found.isExpired && (found.scope ?? "").split(" ").includes(scope));
    },
    tokensIssued: () => issued,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const stores = new Map<string, Map<string, { payload: Record<string, unknown>; expiresAt: number }>>();

/** oidc-provider's storage: its tokens in memory for the test's life (an adapter of its documented interface). */
class MapAdapter {
  private readonly store: Map<string, { payload: Record<string, unknown>; expiresAt: number }>;
  constructor(name: string) {
    this.store = stores.get(name) ?? new Map();
    stores.set(name, this.store);
  }
  async upsert(id: string, payload: Record<string, unknown>, expiresIn: number) {
    this.store.set(id, { payload, expiresAt: Date.now() + expiresIn * 1000 });
  }
  async find(id: string) {
    const entry = this.store.get(id);
    return entry && entry.expiresAt > Date.now() ? entry.payload : undefined;
  }
  async findByUid(uid: string) {
    return [...this.store.values()].find((entry) => entry.payload.uid === uid)?.payload;
  }
  async findByUserCode(userCode: string) {
    return [...this.store.values()].find((entry) => entry.payload.userCode === userCode)?.payload;
  }
  async consume(id: string) {
    const entry = this.store.get(id);
    if (entry) entry.payload.consumed = Math.floor(Date.now() / 1000);
  }
  async destroy(id: string) {
    this.store.delete(id);
  }
  async revokeByGrantId(grantId: string) {
    for (const [id, entry] of this.store) if (entry.payload.grantId === grantId) this.store.delete(id);
  }
}

export interface GraphUserRecord {
  id: string;
  displayName: string | null;
  mail: string | null;
  userPrincipalName: string;
  proxyAddresses: string[];
  accountEnabled: boolean;
  userType: "Member" | "Guest";
}

type Permission = "User.Read.All" | "GroupMember.Read.All" | "Domain.Read.All";

interface Round {
  entries: object[];
  endSeq: number;
  select: string[];
}

/**
 * A Graph-compatible tenant, stateful, built from Microsoft's documented requests and answers:
 * users/delta with pages (`@odata.nextLink`), a final `@odata.deltaLink`, changes since it with
 * `@removed` for deleted users; a group's transitive members; the tenant's domains. It throttles
 * (429 with Retry-After), refuses what the tenant's admin did not consent to (403
 * Authorization_RequestDenied) and forgets delta links (410 resyncRequired) when told to.
 */
export class FakeGraphTenant {
  private users = new Map<string, GraphUserRecord & { seq: number }>();
  private removed = new Map<string, number>();
  private groups = new Map<string, { users: Set<string>; groups: Set<string> }>();
  private rounds = new Map<string, Round>();
  private seq = 0;
  private forgottenBelow = 0;
  private throttles: Array<{ status: 429 | 503; retryAfter: string }> = [];
  server?: LoopbackServer;
  /** Every request and every answer that did not match Graph's description (must stay empty). */
  readonly violations: string[] = [];
  readonly requests: Array<{ path: string; query: string; status: number }> = [];
  domains: Array<{ id: string; isVerified: boolean; isInitial: boolean; isDefault: boolean }> = [];
  consented = new Set<Permission>(["User.Read.All", "GroupMember.Read.All", "Domain.Read.All"]);
  pageSize = 100;

  constructor(private readonly identity: () => IdentityServer) {}

  get graphUrl(): string {
    return this.server!.baseUrl;
  }

  async start(): Promise<this> {
    this.server = await serveOnLoopback((request) => this.handle(request));
    return this;
  }

  /** A tenant without users, groups or domains (delta links handed out before stay valid). */
  reset(): void {
    for (const id of this.users.keys()) this.removed.set(id, ++this.seq);
    this.users.clear();
    this.groups.clear();
    this.domains = [];
    this.pageSize = 100;
  }

  /** Adds or changes a user (a change is what the next delta round reports). */
  upsertUser(user: Partial<GraphUserRecord> & { id: string }): void {
    const current = this.users.get(user.id);
    const base: GraphUserRecord = current ?? {
      id: user.id,
      displayName: null,
      mail: null,
      userPrincipalName: `${user.id}@contoso.onmicrosoft.com`,
      proxyAddresses: [],
      accountEnabled: true,
      userType: "Member",
    };
    this.users.set(user.id, { ...base, ...user, seq: ++this.seq });
    this.removed.delete(user.id);
  }

  deleteUser(id: string): void {
    this.users.delete(id);
    this.removed.set(id, ++this.seq);
    for (const group of this.groups.values()) group.users.delete(id);
  }

  setGroup(id: string, members: { users?: string[]; groups?: string[] }): void {
    this.groups.set(id, { users: new Set(members.users ?? []), groups: new Set(members.groups ?? []) });
  }

  /** The next answers are 429 (or 503) with this Retry-After. */
  throttle(count: number, retryAfter = "1", status: 429 | 503 = 429): void {
    for (let i = 0; i < count; i++) this.throttles.push({ status, retryAfter });
  }

  /** Every delta link handed out so far answers 410 from now on. */
  expireDeltaLinks(): void {
    this.forgottenBelow = this.seq + 1;
  }

  async close(): Promise<void> {
    await this.server?.close();
  }

  private async handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const response = await this.answer(request, url);
    this.requests.push({ path: url.pathname, query: url.search, status: response.status });
    return response;
  }

  private async answer(request: Request, url: URL): Promise<Response> {
    const route = this.route(url.pathname);
    if (!route) return this.error(404, "Request_ResourceNotFound", `Resource not found for the segment '${url.pathname}'.`);
    this.checkRequest(request, url, route.template);
    const token = /^Bearer (.+)$/.exec(request.headers.get("authorization") ?? "")?.[1];
    if (!token || !(await this.identity().validToken(token))) {
      return this.error(401, "InvalidAuthenticationToken", "Access token validation failure. Invalid audience.");
    }
    const throttled = this.throttles.shift();
    if (throttled) {
      return this.error(throttled.status, throttled.status === 429 ? "TooManyRequests" : "serviceNotAvailable", "Please retry.", {
        "retry-after": throttled.retryAfter,
      });
    }
    const needs: Permission =
      route.template === "/users/delta" ? "User.Read.All" : route.template === "/domains" ? "Domain.Read.All" : "GroupMember.Read.All";
    if (!this.consented.has(needs)) {
      return this.error(403, "Authorization_RequestDenied", "Insufficient privileges to complete the operation.");
    }
    if (route.template === "/users/delta") return this.delta(url);
    if (route.template === "/domains")
      return this.json("/domains", { "@odata.context": `${this.graphUrl}/v1.0/$metadata#domains`, value: this.domains });
    return this.members(url, route.groupId!);
  }

  private route(pathname: string): { template: string; groupId?: string } | undefined {
    if (pathname === "/v1.0/users/delta") return { template: "/users/delta" };
    if (pathname === "/v1.0/domains") return { template: "/domains" };
    const members = /^\/v1\.0\/groups\/([^/]+)\/transitiveMembers$/.exec(pathname);
    return members ? { template: "/groups/{group-id}/transitiveMembers", groupId: decodeURIComponent(members[1]!) } : undefined;
  }

  /** The request against the description: GET, a bearer token, only declared query parameters with valid values. */
  private checkRequest(request: Request, url: URL, template: string): void {
    const operation = GRAPH_DESCRIPTION.paths[template]!.get;
    if (request.method !== "GET") this.violations.push(`${request.method} ${template}: only GET is described`);
    if (!request.headers.get("authorization")?.startsWith("Bearer ")) this.violations.push(`${template}: no bearer token`);
    for (const [name, value] of url.searchParams) {
      const parameter = operation.parameters.find((candidate) => candidate.name === name && candidate.in === "query");
      if (!parameter) {
        this.violations.push(`${template}: undeclared query parameter ${name}`);
        continue;
      }
      const parsed =
        (parameter.schema as { type: string }).type === "array"
          ? value.split(",")
          : (parameter.schema as { type: string }).type === "integer"
            ? Number(value)
            : value;
      const result = schemaValidator(GRAPH_DESCRIPTION, parameter.schema).safeParse(parsed);
      if (!result.success) this.violations.push(`${template}: ${name}=${value}: ${result.error.message}`);
    }
  }

  private delta(url: URL): Response {
    const skip = url.searchParams.get("$skiptoken");
    const deltaToken = url.searchParams.get("$deltatoken");
    let roundId: string;
    let offset = 0;
    if (skip) {
      [roundId, offset] = [skip.split(".")[0]!, Number(skip.split(".")[1])];
      if (!this.rounds.has(roundId)) return this.error(410, "resyncRequired", "Resync required.");
    } else {
      // A delta link carries the round it closed: its end and the properties its first request selected.
      const previous = deltaToken === null ? undefined : this.rounds.get(deltaToken);
      if (deltaToken !== null && (!previous || previous.endSeq < this.forgottenBelow)) {
        return this.error(410, "resyncRequired", "Resync required. Replace any local cached data with the new data.");
      }
      const since = previous?.endSeq ?? 0;
      const select = previous?.select ?? (url.searchParams.get("$select") ?? "").split(",").filter(Boolean);
      const changed = [...this.users.values()].filter((user) => user.seq > since).sort((a, b) => a.seq - b.seq);
      const entries: object[] = changed.map((user) => pick(user, select));
      if (since > 0) {
        for (const [id, at] of this.removed) if (at > since) entries.push({ id, "@removed": { reason: "deleted" } });
      }
      roundId = `r${this.rounds.size + 1}`;
      this.rounds.set(roundId, { entries, endSeq: this.seq, select });
    }
    const round = this.rounds.get(roundId)!;
    const page = round.entries.slice(offset, offset + this.pageSize);
    const more = offset + this.pageSize < round.entries.length;
    const base = `${this.graphUrl}/v1.0/users/delta`;
    return this.json("/users/delta", {
      "@odata.context": `${this.graphUrl}/v1.0/$metadata#users(${round.select.join(",")})`,
      ...(more
        ? { "@odata.nextLink": `${base}?$skiptoken=${roundId}.${offset + this.pageSize}` }
        : { "@odata.deltaLink": `${base}?$deltatoken=${roundId}` }),
      value: page,
    });
  }

  private members(url: URL, groupId: string): Response {
    if (!this.groups.has(groupId)) {
      return this.error(
        404,
        "Request_ResourceNotFound",
        `Resource '${groupId}' does not exist or one of its queried reference-property objects are not present.`,
      );
    }
    const members: object[] = [];
    const visit = (id: string, seen: Set<string>) => {
      const group = this.groups.get(id);
      if (!group || seen.has(id)) return;
      seen.add(id);
      for (const user of group.users) if (this.users.has(user)) members.push({ "@odata.type": "#microsoft.graph.user", id: user });
      for (const nested of group.groups) {
        members.push({ "@odata.type": "#microsoft.graph.group", id: nested });
        visit(nested, seen);
      }
    };
    visit(groupId, new Set());
    const unique = [...new Map(members.map((member) => [JSON.stringify(member), member])).values()];
    const top = Number(url.searchParams.get("$top") ?? 100);
    const offset = Number(url.searchParams.get("$skiptoken") ?? 0);
    const next = offset + top < unique.length;
    return this.json("/groups/{group-id}/transitiveMembers", {
      "@odata.context": `${this.graphUrl}/v1.0/$metadata#directoryObjects`,
      ...(next
        ? {
            "@odata.nextLink": `${this.graphUrl}/v1.0/groups/${groupId}/transitiveMembers?$select=id&$top=${top}&$skiptoken=${offset + top}`,
          }
        : {}),
      value: unique.slice(offset, offset + top),
    });
  }

  private json(template: string, body: object): Response {
    const result = RESPONSE_SCHEMAS[template]!.safeParse(body);
    if (!result.success) this.violations.push(`answer of ${template}: ${result.error.message}`);
    if ("@odata.nextLink" in body && "@odata.deltaLink" in body)
      this.violations.push(`answer of ${template}: both a nextLink and a deltaLink`);
    return new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json;odata.metadata=minimal" } });
  }

  private error(status: number, code: string, message: string, headers: Record<string, string> = {}): Response {
    const body = { error: { code, message, innerError: { date: new Date().toISOString(), "request-id": crypto.randomUUID() } } };
    if (!ERROR_SCHEMA.safeParse(body).success) this.violations.push(`error answer ${status} does not match odataError`);
    return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
  }
}

function pick(user: GraphUserRecord, select: string[]): object {
  const picked: Record<string, unknown> = { id: user.id };
  for (const field of select) if (field in user && field !== "seq") picked[field] = user[field as keyof GraphUserRecord];
  return picked;
}

/** A tenant and its identity server on loopback; MICROSOFT_LOGIN_URL and MICROSOFT_GRAPH_URL point at them. */
export async function startMicrosoftCloud(credentials: { tenantId: string; clientId: string; clientSecret: string }) {
  const started: { identity?: IdentityServer } = {};
  const tenant = await new FakeGraphTenant(() => started.identity!).start();
  const identity = await startIdentityServer({ ...credentials, graphUrl: tenant.graphUrl });
  started.identity = identity;
  return {
    tenant,
    identity,
    env: { MICROSOFT_LOGIN_URL: identity.loginUrl, MICROSOFT_GRAPH_URL: tenant.graphUrl },
    async close() {
      await tenant.close();
      await identity.close();
    },
  };
}
