import { decryptSecret, encryptSecret } from "../app-key";
import type { Db, Queryable } from "../db/client";
import { badRequest, notFound } from "../errors";
import { log } from "../log";
import { createStaffUser } from "./staff";
import { spendInvitationBySso } from "./staff-management";
import type { StaffRole } from "./staff-roles";

/**
 * Single sign-on by OpenID Connect, per distributor (docs/admin-ui.md, "Single sign-on"): the
 * provider's issuer, a client id and secret (the secret encrypted with the app key, never
 * answered), "required" (passwords refused but for break-glass accounts), the e-mail domains
 * allowed, and optionally just-in-time accounts with a default role. The protocol itself
 * (discovery, PKCE, state, nonce, the ID token's signature, issuer and audience) is next-auth's
 * OAuth flow through openid-client (server/api/ui/session.ts); this decides who the verified
 * identity is.
 */
export interface SsoSettings {
  issuer: string;
  clientId: string;
  required: boolean;
  allowedDomains: string[];
  jitRole: StaffRole | null;
  /** The redirect URI to register with the provider. */
  redirectUri: string;
}

export const SSO_PROVIDER_PREFIX = "sso-";

export function ssoProviderId(distributorId: string): string {
  return `${SSO_PROVIDER_PREFIX}${distributorId}`;
}

export function ssoRedirectUri(appUrl: string, distributorId: string): string {
  return `${appUrl}/api/auth/callback/${ssoProviderId(distributorId)}`;
}

const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
export const SSO_ISSUER_INVALID = "The issuer must be an https URL (http only on this machine's loopback)";

/** The issuer as given, without a trailing slash; https, or http to a loopback host (a provider on the same machine). */
export function normalizeIssuer(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw badRequest(SSO_ISSUER_INVALID);
  }
  const loopback = url.hostname === "localhost" || url.hostname === "127.0.0.1" || url.hostname === "[::1]";
  if (url.protocol !== "https:" && !(url.protocol === "http:" && loopback)) throw badRequest(SSO_ISSUER_INVALID);
  if (url.search || url.hash || url.username || url.password) throw badRequest(SSO_ISSUER_INVALID);
  return url.toString().replace(/\/+$/, "");
}

export function normalizeDomains(domains: string[]): string[] {
  const normalized = [...new Set(domains.map((domain) => domain.trim().toLowerCase().replace(/^@/, "")).filter(Boolean))];
  const bad = normalized.find((domain) => !DOMAIN.test(domain));
  if (bad) throw badRequest(`Not an e-mail domain: ${bad}`);
  return normalized;
}

export async function getSsoSettings(db: Queryable, distributorId: string, appUrl: string): Promise<SsoSettings | null> {
  const row = await db.distributorSso.findUnique({ where: { distributorId } });
  if (!row) return null;
  return {
    issuer: row.issuer,
    clientId: row.clientId,
    required: row.required,
    allowedDomains: row.allowedDomains,
    jitRole: row.jitRole,
    redirectUri: ssoRedirectUri(appUrl, distributorId),
  };
}

/**
 * Sets the distributor's single sign-on. A client secret left out keeps the stored one (the UI
 * never shows it); the first setting needs one.
 */
export async function setSsoSettings(
  db: Db,
  distributorId: string,
  input: {
    issuer: string;
    clientId: string;
    clientSecret?: string;
    required: boolean;
    allowedDomains: string[];
    jitRole: StaffRole | null;
  },
  appUrl: string,
): Promise<SsoSettings> {
  const issuer = normalizeIssuer(input.issuer);
  const clientId = input.clientId.trim();
  if (!clientId) throw badRequest("Validation failed: clientId: Enter the client id");
  const allowedDomains = normalizeDomains(input.allowedDomains);
  if (input.jitRole && allowedDomains.length === 0) {
    throw badRequest("Just-in-time accounts need at least one allowed e-mail domain");
  }
  const secret = input.clientSecret?.trim();
  const existing = await db.distributorSso.findUnique({ where: { distributorId }, select: { distributorId: true } });
  if (!existing && !secret) throw badRequest("Validation failed: clientSecret: Enter the client secret");
  const data = { issuer, clientId, required: input.required, allowedDomains, jitRole: input.jitRole };
  await db.distributorSso.upsert({
    where: { distributorId },
    create: { distributorId, ...data, clientSecretCiphertext: encryptSecret(secret!) },
    update: { ...data, ...(secret ? { clientSecretCiphertext: encryptSecret(secret) } : {}) },
  });
  return (await getSsoSettings(db, distributorId, appUrl))!;
}

/** Turns single sign-on off: passwords work again for everyone (SSO-only accounts reset a password first). */
export async function removeSsoSettings(db: Queryable, distributorId: string): Promise<{ removed: boolean }> {
  const removed = await db.distributorSso.deleteMany({ where: { distributorId } });
  return { removed: removed.count > 0 };
}

/** Marks the named staff members of the distributor break-glass (the CLI's `set-sso --break-glass`). */
export async function markBreakGlass(db: Queryable, distributorId: string, emails: string[]): Promise<string[]> {
  const normalized = emails.map((email) => email.trim().toLowerCase());
  const found = await db.staffUser.findMany({ where: { distributorId, email: { in: normalized } }, select: { email: true } });
  const missing = normalized.filter((email) => !found.some((row) => row.email === email));
  if (missing.length > 0) throw notFound(`No staff member of this distributor with e-mail ${missing.join(", ")}`);
  await db.staffUser.updateMany({ where: { distributorId, email: { in: normalized } }, data: { breakGlass: true } });
  return normalized;
}

/** The client settings next-auth builds a provider from (the secret decrypted); one that cannot be decrypted is left out. */
export async function ssoClients(
  db: Queryable,
): Promise<Array<{ distributorId: string; issuer: string; clientId: string; clientSecret: string }>> {
  const rows = await db.distributorSso.findMany({
    select: { distributorId: true, issuer: true, clientId: true, clientSecretCiphertext: true },
  });
  return rows.flatMap((row) => {
    try {
      return [
        {
          distributorId: row.distributorId,
          issuer: row.issuer,
          clientId: row.clientId,
          clientSecret: decryptSecret(row.clientSecretCiphertext),
        },
      ];
    } catch (error) {
      // A secret stored under another app key: that distributor's single sign-on is off, password sign-in still works.
      log.error("single sign-on client secret cannot be decrypted", { distributorId: row.distributorId, error });
      return [];
    }
  });
}

/** The distributor whose single sign-on an address's domain is allowed for (the sign-in page's button). */
export async function ssoDistributorForEmail(db: Queryable, email: string): Promise<string | undefined> {
  const domain = email.trim().toLowerCase().split("@")[1];
  if (!domain) return undefined;
  const [row] = await db.$queryRaw<Array<{ distributorId: string }>>`
    SELECT distributor_id::text AS "distributorId" FROM distributor_sso WHERE ${domain} = ANY(allowed_domains) LIMIT 2`;
  return row?.distributorId;
}

export type SsoRefusal = "SsoNotConfigured" | "SsoIssuer" | "SsoEmail" | "SsoDomain" | "SsoNoAccount" | "SsoOtherAccount";

export type SsoSignIn =
  | {
      ok: true;
      staff: { id: string; email: string; distributorId: string; name: string | null };
      created: "linked" | "invited" | "jit" | null;
    }
  | { ok: false; reason: SsoRefusal };

/**
 * Who a verified ID token is, for the distributor whose provider issued it: the account linked
 * to its subject; else, on the first single sign-on of an address, that address's account of
 * the distributor (linked now), or its open invitation (the account made with the invited role),
 * or a just-in-time account with the default role for an allowed domain. An address outside the
 * allowed domains, a provider's refusal to vouch for the address (`email_verified: false`), or
 * an account linked to another subject is refused.
 */
export async function resolveSsoSignIn(
  db: Db,
  distributorId: string,
  claims: { iss?: unknown; sub?: unknown; email?: unknown; email_verified?: unknown; name?: unknown },
): Promise<SsoSignIn> {
  const sso = await db.distributorSso.findUnique({ where: { distributorId } });
  if (!sso) return { ok: false, reason: "SsoNotConfigured" };
  if (typeof claims.iss !== "string" || claims.iss.replace(/\/+$/, "") !== sso.issuer || typeof claims.sub !== "string" || !claims.sub) {
    return { ok: false, reason: "SsoIssuer" };
  }
  const subject = `${sso.issuer} ${claims.sub}`;
  const email = typeof claims.email === "string" ? claims.email.trim().toLowerCase() : "";
  const refuse = (reason: SsoRefusal): SsoSignIn => {
    log.warn("staff SSO sign-in refused", { distributorId, reason, account: email.slice(0, 254) });
    return { ok: false, reason };
  };
  if (!email || claims.email_verified === false) return refuse("SsoEmail");
  const domain = email.split("@")[1] ?? "";
  if (sso.allowedDomains.length > 0 && !sso.allowedDomains.includes(domain)) return refuse("SsoDomain");
  const name = typeof claims.name === "string" ? claims.name.slice(0, 200) : undefined;

  return db.$transaction(async (tx) => {
    const select = { id: true, email: true, distributorId: true, name: true, ssoSubject: true } as const;
    const linked = await tx.staffUser.findFirst({ where: { distributorId, ssoSubject: subject }, select });
    if (linked) return { ok: true as const, staff: linked, created: null };
    const byEmail = await tx.staffUser.findUnique({ where: { email }, select });
    if (byEmail) {
      if (byEmail.distributorId !== distributorId || byEmail.ssoSubject) return refuse("SsoOtherAccount");
      await tx.staffUser.update({ where: { id: byEmail.id }, data: { ssoSubject: subject } });
      return { ok: true as const, staff: byEmail, created: "linked" as const };
    }
    const invited = await spendInvitationBySso(tx, distributorId, email);
    const role = invited?.role ?? (sso.jitRole && sso.allowedDomains.includes(domain) ? sso.jitRole : undefined);
    if (!role) return refuse("SsoNoAccount");
    const created = await createStaffUser(tx, { distributorId, email, role, name, ssoSubject: subject });
    return {
      ok: true as const,
      staff: { id: created.id, email, distributorId, name: name ?? null },
      created: invited ? ("invited" as const) : ("jit" as const),
    };
  });
}
