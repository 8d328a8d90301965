import { brandBaseUrl, brandFor } from "../brand/brand";
import { config } from "../config";
import { foundOrNotFound, ownedCustomerWhere } from "../customers/ownership";
import type { Db, Queryable } from "../db/client";
import { badRequest, unprocessable } from "../errors";
import { log } from "../log";
import { hashSecretToken, newSecretToken, SECRET_TOKEN_PATTERN } from "../secret-tokens";
import { startPortalSession, type PortalSignIn } from "./sessions";

/** A link signs in once within an hour of its creation (docs/portal.md). */
export const MAGIC_LINK_LIFETIME_SECONDS = 60 * 60;
/** A customer without a portal user cannot get a link. */
export const NO_PLATFORM_USER = "Customer has no platform user";
/** An offboarded customer has no portal access; a link would only lead to the error page. */
export const CUSTOMER_CANNOT_SIGN_IN = "Customer cannot sign in: customer is inactive";

export type MagicLinkRefusal = "invalid" | "expired" | "used" | "unavailable";

export type MagicLinkSignIn =
  | { ok: true; signIn: PortalSignIn; localeCode: string }
  | { ok: false; reason: MagicLinkRefusal; /** The customer's locale, when the link was ours. */ localeCode?: string };

/**
 * Creates a one-time sign-in link for the partner's customer: a random token of which only the
 * SHA-256 is stored, good for one sign-in within the hour. The URL is a secret (it signs the
 * customer in): it is returned to the partner and never logged.
 */
export async function createMagicLink(db: Db, partnerId: string, customerId: string): Promise<{ url: string }> {
  const portalUserId = await signInTarget(db, partnerId, customerId);
  const url = await insertMagicLink(db, portalUserId, brandBaseUrl(await brandFor(db, { partnerId })));
  log.info("magic link created", { partnerId, customerId });
  return { url };
}

/** The portal user a link for the partner's customer signs in; refused as createMagicLink documents. */
export async function signInTarget(db: Queryable, partnerId: string, customerId: string): Promise<string> {
  const customer = foundOrNotFound(
    await db.customer.findFirst({
      where: ownedCustomerWhere(partnerId, customerId),
      select: { id: true, status: true, portalUser: { select: { id: true } } },
    }),
  );
  if (!customer.portalUser) throw badRequest(NO_PLATFORM_USER);
  if (customer.status === "inactive") throw unprocessable(CUSTOMER_CANNOT_SIGN_IN);
  return customer.portalUser.id;
}

/**
 * Stores a new link of the portal user (only the token's SHA-256) and returns its URL, on
 * `baseUrl`: the partner's registered portal host (brandBaseUrl), else APP_URL.
 */
export async function insertMagicLink(db: Queryable, portalUserId: string, baseUrl = config.appUrl()): Promise<string> {
  const token = newSecretToken();
  await db.$executeRaw`
    INSERT INTO magic_link_tokens (portal_user_id, token_hash, expires_at)
    VALUES (${portalUserId}::uuid, ${hashSecretToken(token)}, now() + make_interval(secs => ${MAGIC_LINK_LIFETIME_SECONDS}))`;
  return magicLinkUrl(token, baseUrl);
}

/** The portal's confirmation address with the token and its type. */
export function magicLinkUrl(token: string, baseUrl = config.appUrl()): string {
  return `${baseUrl}/auth/confirm?token_hash=${token}&type=magiclink`;
}

/**
 * Signs a customer in with a magic-link token. One conditional UPDATE consumes the link (unused,
 * not expired, customer not offboarded), so of any number of simultaneous opens exactly one
 * signs in; the session starts in the same transaction. A refused link is explained (unknown,
 * expired, used, customer offboarded) and changes nothing.
 */
export async function consumeMagicLink(db: Db, token: string): Promise<MagicLinkSignIn> {
  if (!SECRET_TOKEN_PATTERN.test(token)) return { ok: false, reason: "invalid" };
  const tokenHash = hashSecretToken(token);
  const result = await db.$transaction(async (tx): Promise<MagicLinkSignIn> => {
    const [consumed] = await tx.$queryRaw<Array<{ portalUserId: string; localeCode: string }>>`
      UPDATE magic_link_tokens AS link SET used_at = now()
      FROM portal_users AS portal_user, customers AS customer
      WHERE link.token_hash = ${tokenHash} AND link.used_at IS NULL AND link.expires_at > now()
        AND portal_user.id = link.portal_user_id AND customer.id = portal_user.customer_id AND customer.status <> 'inactive'
      RETURNING link.portal_user_id::text AS "portalUserId", customer.locale_code AS "localeCode"`;
    if (!consumed) return explainRefusedLink(tx, tokenHash);
    return { ok: true, signIn: await startPortalSession(tx, consumed.portalUserId), localeCode: consumed.localeCode };
  });
  if (result.ok) log.info("portal sign-in", { customerId: result.signIn.customerId, portalSessionId: result.signIn.sessionId });
  return result;
}

/**
 * Whom a link would sign in, consuming nothing (the "Continue as <company>?" step of
 * /auth/confirm): the customer's company and locale, or why the link would be refused.
 */
export async function magicLinkTarget(
  db: Queryable,
  token: string,
): Promise<{ ok: true; companyName: string; localeCode: string } | Extract<MagicLinkSignIn, { ok: false }>> {
  if (!SECRET_TOKEN_PATTERN.test(token)) return { ok: false, reason: "invalid" };
  const tokenHash = hashSecretToken(token);
  const [link] = await db.$queryRaw<Array<{ companyName: string; localeCode: string }>>`
    SELECT customer.company_name AS "companyName", customer.locale_code AS "localeCode"
    FROM magic_link_tokens AS link
    JOIN portal_users AS portal_user ON portal_user.id = link.portal_user_id
    JOIN customers AS customer ON customer.id = portal_user.customer_id
    WHERE link.token_hash = ${tokenHash} AND link.used_at IS NULL AND link.expires_at > now() AND customer.status <> 'inactive'`;
  if (link) return { ok: true, ...link };
  return (await explainRefusedLink(db, tokenHash)) as Extract<MagicLinkSignIn, { ok: false }>;
}

async function explainRefusedLink(tx: Queryable, tokenHash: string): Promise<MagicLinkSignIn> {
  const [link] = await tx.$queryRaw<Array<{ used: boolean; expired: boolean; inactive: boolean; localeCode: string }>>`
    SELECT link.used_at IS NOT NULL AS used, link.expires_at <= now() AS expired, customer.status = 'inactive' AS inactive,
           customer.locale_code AS "localeCode"
    FROM magic_link_tokens AS link
    JOIN portal_users AS portal_user ON portal_user.id = link.portal_user_id
    JOIN customers AS customer ON customer.id = portal_user.customer_id
    WHERE link.token_hash = ${tokenHash}`;
  if (!link) return { ok: false, reason: "invalid" };
  const reason: MagicLinkRefusal = link.inactive ? "unavailable" : link.used ? "used" : "expired";
  return { ok: false, reason, localeCode: link.localeCode };
}
