import { setTimeout as delay } from "node:timers/promises";
import { log } from "../log";
import {
  DirectoryAccessError,
  DirectoryCursorExpiredError,
  type DirectoryDomain,
  type DirectoryProvider,
  type DirectoryUserChange,
  type GroupMembersPage,
  type UserChangesPage,
} from "./provider";

/** The user properties a sync reads (docs/directory.md). */
export const USER_SELECT = "id,displayName,mail,userPrincipalName,proxyAddresses,accountEnabled,userType";
/** The Graph permission each read needs, named in the reason a refused read gives. */
const PERMISSION = { users: "User.Read.All", members: "GroupMember.Read.All", domains: "Domain.Read.All" } as const;
/** Attempts of one request that Graph throttles (429) or finds unavailable (503). */
const MAX_ATTEMPTS = 6;
/** When Graph sends no Retry-After; and the longest wait taken from one. */
const DEFAULT_RETRY_S = 10;
const MAX_RETRY_S = 300;
/** A token is renewed this long before it expires. */
const TOKEN_MARGIN_MS = 60_000;
const REQUEST_TIMEOUT_MS = 60_000;

export interface MicrosoftGraphSettings {
  tenantId: string;
  clientId: string;
  clientSecret: string;
  /** MICROSOFT_LOGIN_URL, e.g. https://login.microsoftonline.com. */
  loginUrl: string;
  /** MICROSOFT_GRAPH_URL, e.g. https://graph.microsoft.com. */
  graphUrl: string;
  /** How a Retry-After wait is waited (tests). */
  sleep?: (ms: number) => Promise<void>;
}

interface GraphCollection<T> {
  value?: T[];
  "@odata.nextLink"?: string;
  "@odata.deltaLink"?: string;
}

interface GraphUser {
  id: string;
  "@removed"?: { reason?: string };
  displayName?: string | null;
  mail?: string | null;
  userPrincipalName?: string | null;
  proxyAddresses?: string[] | null;
  accountEnabled?: boolean | null;
  userType?: string | null;
}

type Resource = keyof typeof PERMISSION;

/**
 * Microsoft Graph v1.0 as Microsoft documents it: a token by the OAuth 2.0 client-credentials grant
 * at `{login}/{tenant}/oauth2/v2.0/token` (scope `{graph}/.default`), users by `GET /users/delta`
 * (every `@odata.nextLink` followed, the `@odata.deltaLink` kept, `@removed` entries), a group's
 * transitive members and the tenant's domains. Throttling (429, 503) waits for Retry-After;
 * 401 and 403 become a DirectoryAccessError naming what is missing; 410 on a delta link a
 * DirectoryCursorExpiredError. The client secret goes only into the token request's body.
 */
export class MicrosoftGraphDirectory implements DirectoryProvider {
  readonly name = "microsoft365" as const;
  private token?: { value: string; expiresAt: number };
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly settings: MicrosoftGraphSettings) {
    this.sleep = settings.sleep ?? ((ms) => delay(ms));
  }

  async userChanges(cursor: string | undefined): Promise<UserChangesPage> {
    const url = cursor ?? `${this.settings.graphUrl}/v1.0/users/delta?$select=${USER_SELECT}`;
    const page = await this.get<GraphCollection<GraphUser>>(url, "users", { cursor: cursor !== undefined });
    return {
      users: (page.value ?? []).map(toUserChange),
      next: page["@odata.nextLink"],
      delta: page["@odata.deltaLink"],
    };
  }

  async groupMembers(groupId: string, cursor: string | undefined): Promise<GroupMembersPage> {
    const url = cursor ?? `${this.settings.graphUrl}/v1.0/groups/${encodeURIComponent(groupId)}/transitiveMembers?$select=id&$top=999`;
    const page = await this.get<GraphCollection<{ id: string; "@odata.type"?: string }>>(url, "members", { groupId });
    return {
      // Nested groups, devices and contacts are members too; only users have mailboxes to monitor.
      userIds: (page.value ?? []).filter((member) => member["@odata.type"] === "#microsoft.graph.user").map((member) => member.id),
      next: page["@odata.nextLink"],
    };
  }

  async domains(): Promise<DirectoryDomain[]> {
    const domains: DirectoryDomain[] = [];
    let url: string | undefined = `${this.settings.graphUrl}/v1.0/domains`;
    while (url) {
      const page: GraphCollection<{ id: string; isVerified?: boolean; isInitial?: boolean }> = await this.get(url, "domains");
      for (const domain of page.value ?? []) {
        domains.push({ name: domain.id.toLowerCase(), verified: domain.isVerified === true, initial: domain.isInitial === true });
      }
      url = page["@odata.nextLink"];
    }
    return domains;
  }

  private async get<T>(
    url: string,
    resource: Resource,
    { cursor = false, groupId }: { cursor?: boolean; groupId?: string } = {},
  ): Promise<T> {
    // A link Graph returned is followed only on Graph itself: the token goes nowhere else.
    if (!url.startsWith(`${this.settings.graphUrl}/`)) throw new Error(`a Graph link outside ${this.settings.graphUrl} was not followed`);
    for (let attempt = 1; ; attempt++) {
      const response = await fetch(url, {
        headers: { authorization: `Bearer ${await this.accessToken()}`, accept: "application/json" },
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      if (response.ok) return (await response.json()) as T;
      const error = await graphError(response);
      if ((response.status === 429 || response.status === 503) && attempt < MAX_ATTEMPTS) {
        const waitS = retryAfterSeconds(response.headers.get("retry-after"));
        log.info("microsoft graph asked to wait", { status: response.status, waitS, attempt, resource });
        await this.sleep(waitS * 1000);
        continue;
      }
      if (response.status === 410 && cursor)
        throw new DirectoryCursorExpiredError(`Graph no longer accepts the delta link (${error.code})`);
      if (response.status === 401) {
        this.token = undefined;
        throw new DirectoryAccessError(
          `Microsoft Graph refused the token (401 ${error.code}): check that the application is registered in tenant ${this.settings.tenantId}`,
        );
      }
      if (response.status === 403) {
        throw new DirectoryAccessError(
          `admin consent missing for ${PERMISSION[resource]}: an administrator of the tenant must grant the application permission ` +
            `${PERMISSION[resource]} (Graph answered 403 ${error.code})`,
        );
      }
      if (response.status === 404 && resource === "members") {
        throw new DirectoryAccessError(`group ${groupId} not found in the tenant: check groupId`);
      }
      throw new Error(`Microsoft Graph answered ${response.status} ${error.code}: ${error.message}`);
    }
  }

  private async accessToken(): Promise<string> {
    if (this.token && this.token.expiresAt > Date.now() + TOKEN_MARGIN_MS) return this.token.value;
    const { tenantId, clientId, clientSecret, loginUrl, graphUrl } = this.settings;
    for (let attempt = 1; ; attempt++) {
      const response = await fetch(`${loginUrl}/${encodeURIComponent(tenantId)}/oauth2/v2.0/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
        body: new URLSearchParams({
          client_id: clientId,
          client_secret: clientSecret,
          scope: `${graphUrl}/.default`,
          grant_type: "client_credentials",
        }),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      const body = (await response.json().catch(() => ({}))) as {
        access_token?: string;
        expires_in?: number;
        error?: string;
        error_description?: string;
      };
      if (response.ok && typeof body.access_token === "string") {
        this.token = { value: body.access_token, expiresAt: Date.now() + (body.expires_in ?? 3599) * 1000 };
        return body.access_token;
      }
      if ((response.status === 429 || response.status === 503) && attempt < MAX_ATTEMPTS) {
        await this.sleep(retryAfterSeconds(response.headers.get("retry-after")) * 1000);
        continue;
      }
      if (response.status === 400 || response.status === 401) throw new DirectoryAccessError(signInRefusal(body, tenantId));
      throw new Error(`Microsoft sign-in answered ${response.status}${body.error ? ` ${body.error}` : ""}`);
    }
  }
}

function toUserChange(user: GraphUser): DirectoryUserChange {
  if (user["@removed"]) return { id: user.id, removed: true };
  const change: DirectoryUserChange = { id: user.id, removed: false };
  if ("displayName" in user) change.displayName = user.displayName;
  if ("mail" in user) change.mail = user.mail;
  if ("userPrincipalName" in user) change.userPrincipalName = user.userPrincipalName;
  if ("proxyAddresses" in user) change.proxyAddresses = user.proxyAddresses ?? [];
  if ("accountEnabled" in user) change.accountEnabled = user.accountEnabled;
  if ("userType" in user) change.userType = user.userType;
  return change;
}

async function graphError(response: Response): Promise<{ code: string; message: string }> {
  const body = (await response.json().catch(() => ({}))) as { error?: { code?: string; message?: string } };
  return { code: body.error?.code ?? response.statusText, message: body.error?.message ?? "" };
}

/** Retry-After as seconds or an HTTP date; Graph's default when it sends none. */
export function retryAfterSeconds(header: string | null, now = Date.now()): number {
  if (header === null || header.trim() === "") return DEFAULT_RETRY_S;
  const seconds = /^\d+$/.test(header.trim()) ? Number(header.trim()) : Math.ceil((Date.parse(header) - now) / 1000);
  if (!Number.isFinite(seconds)) return DEFAULT_RETRY_S;
  return Math.min(MAX_RETRY_S, Math.max(0, seconds));
}

/** What a refused token request means for the partner, from the AADSTS code Microsoft sends. */
function signInRefusal(body: { error?: string; error_description?: string }, tenantId: string): string {
  const description = body.error_description ?? "";
  const code = /AADSTS(\d+)/.exec(description)?.[1];
  const reasons: Record<string, string> = {
    "7000215": "the client secret is not valid: create a new one in the app registration and connect again",
    "7000222": "the client secret has expired: create a new one in the app registration and connect again",
    "700016": "the application (clientId) is not found in the tenant: check clientId and that an administrator consented",
    "90002": `tenant ${tenantId} is not found: check tenantId`,
    "900023": `tenant ${tenantId} is not a valid tenant id or domain: check tenantId`,
  };
  const reason = (code && reasons[code]) ?? `Microsoft sign-in refused the application (${body.error ?? "unknown error"})`;
  return code ? `${reason} (AADSTS${code})` : reason;
}
