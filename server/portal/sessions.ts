import { onCustomerOffboarded } from "../customers/offboarding";
import type { Db, Queryable } from "../db/client";
import { log } from "../log";
import { isUuid } from "../uuid";
import { hashSecretToken, newSecretToken, SECRET_TOKEN_PATTERN, successorToken } from "../secret-tokens";

/** The access token (the session cookie's claims) is good for an hour (docs/portal.md, "Sessions"). */
export const ACCESS_TOKEN_SECONDS = 60 * 60;
/** A refresh token not used for this long expires: a customer idle for half a day signs in again. */
export const REFRESH_TOKEN_IDLE_SECONDS = 12 * 60 * 60;
/** However active the customer is, a session ends this long after its sign-in. */
export const SESSION_MAX_SECONDS = 7 * 24 * 60 * 60;
/**
 * A rotated refresh token presented again within this many seconds is a concurrent refresh (two
 * tabs, a page and its keep-alive), answered with the same successor; later it is reuse of a
 * stolen token and ends the session.
 */
export const REFRESH_REUSE_GRACE_SECONDS = 30;
/** Successors followed for one presented token within the grace period. */
const MAX_GRACE_STEPS = 5;

/** The UI procedures' answer to an access token that ran out: the client refreshes and retries. */
export const PORTAL_SESSION_EXPIRED = "Session expired";

export type SessionEndReason = "sign-out" | "offboarded" | "refresh-token-reuse";

/** What a sign-in or a refresh hands to the browser (inside the encrypted session cookie). */
export interface IssuedTokens {
  refreshToken: string;
  /** When the access token runs out (never after the session's own end). */
  accessExpiresAt: Date;
}

export interface PortalSignIn extends IssuedTokens {
  sessionId: string;
  portalUserId: string;
  customerId: string;
  email: string;
}

export type RefreshResult = ({ ok: true } & IssuedTokens) | { ok: false; reason: "invalid" | "expired" | "ended" | "reused" };

/**
 * Starts a session for a portal user (inside the transaction that consumed their magic link):
 * the session row with its hard end, the first refresh token, and the user's last sign-in time.
 */
export async function startPortalSession(tx: Queryable, portalUserId: string): Promise<PortalSignIn> {
  const [session] = await tx.$queryRaw<Array<{ id: string; customerId: string; email: string }>>`
    WITH signed_in AS (
      UPDATE portal_users SET last_sign_in_at = now() WHERE id = ${portalUserId}::uuid RETURNING id, customer_id, email),
    session AS (
      INSERT INTO portal_sessions (portal_user_id, expires_at)
      SELECT id, now() + make_interval(secs => ${SESSION_MAX_SECONDS}) FROM signed_in
      RETURNING id, portal_user_id)
    SELECT session.id::text, signed_in.customer_id::text AS "customerId", signed_in.email
    FROM session JOIN signed_in ON signed_in.id = session.portal_user_id`;
  if (!session) throw new Error(`portal user ${portalUserId} does not exist`);
  const refreshToken = newSecretToken();
  return {
    sessionId: session.id,
    portalUserId,
    customerId: session.customerId,
    email: session.email,
    ...(await issueRefreshToken(tx, session.id, refreshToken)),
  };
}

/** Stores a refresh token of the session; returns it with the access expiry it comes with. */
async function issueRefreshToken(tx: Queryable, sessionId: string, refreshToken: string): Promise<IssuedTokens> {
  const [row] = await tx.$queryRaw<Array<{ accessExpiresAt: Date }>>`
    WITH session AS (SELECT id, expires_at FROM portal_sessions WHERE id = ${sessionId}::uuid),
    issued AS (
      INSERT INTO portal_refresh_tokens (session_id, token_hash, expires_at)
      SELECT id, ${hashSecretToken(refreshToken)}, least(now() + make_interval(secs => ${REFRESH_TOKEN_IDLE_SECONDS}), expires_at)
      FROM session RETURNING id)
    SELECT least(now() + make_interval(secs => ${ACCESS_TOKEN_SECONDS}), session.expires_at) AS "accessExpiresAt"
    FROM session, issued`;
  return { refreshToken, accessExpiresAt: row!.accessExpiresAt };
}

/**
 * Rotates a refresh token of a live session: the presented token is marked rotated by one
 * conditional UPDATE and its successor issued with a new access expiry. A token rotated moments
 * ago (a concurrent refresh) gets the successor already issued; a token rotated earlier is a
 * replayed, probably stolen token, and the whole session (every token descending from the
 * sign-in) ends. An expired token, an ended session or an offboarded customer refreshes nothing.
 */
export async function refreshPortalSession(db: Db, sessionId: string, refreshToken: string): Promise<RefreshResult> {
  if (!isUuid(sessionId) || !SECRET_TOKEN_PATTERN.test(refreshToken)) return { ok: false, reason: "invalid" };
  const result = await db.$transaction(async (tx): Promise<RefreshResult> => {
    const rotated = await tx.$executeRaw`
      UPDATE portal_refresh_tokens AS token SET rotated_at = now()
      FROM portal_sessions AS session, portal_users AS portal_user, customers AS customer
      WHERE token.token_hash = ${hashSecretToken(refreshToken)} AND token.session_id = ${sessionId}::uuid
        AND token.rotated_at IS NULL AND token.expires_at > now()
        AND session.id = token.session_id AND session.ended_at IS NULL AND session.expires_at > now()
        AND portal_user.id = session.portal_user_id AND customer.id = portal_user.customer_id AND customer.status <> 'inactive'`;
    if (rotated === 1) {
      await tx.$executeRaw`UPDATE portal_sessions SET last_refreshed_at = now() WHERE id = ${sessionId}::uuid`;
      return { ok: true, ...(await issueRefreshToken(tx, sessionId, successorToken(refreshToken))) };
    }
    return explainRefusedRefresh(tx, sessionId, refreshToken);
  });
  if (!result.ok && result.reason === "reused") log.warn("portal refresh token reused: session ended", { sessionId });
  return result;
}

interface TokenState {
  rotated: boolean;
  rotatedRecently: boolean;
  expired: boolean;
  sessionOver: boolean;
  createdAt: Date;
  sessionExpiresAt: Date;
}

async function tokenState(tx: Queryable, sessionId: string, token: string): Promise<TokenState | undefined> {
  const [state] = await tx.$queryRaw<TokenState[]>`
    SELECT token.rotated_at IS NOT NULL AS rotated,
           coalesce(token.rotated_at > now() - make_interval(secs => ${REFRESH_REUSE_GRACE_SECONDS}), false) AS "rotatedRecently",
           token.expires_at <= now() AS expired,
           (session.ended_at IS NOT NULL OR session.expires_at <= now() OR customer.status = 'inactive') AS "sessionOver",
           token.created_at AS "createdAt", session.expires_at AS "sessionExpiresAt"
    FROM portal_refresh_tokens AS token
    JOIN portal_sessions AS session ON session.id = token.session_id
    JOIN portal_users AS portal_user ON portal_user.id = session.portal_user_id
    JOIN customers AS customer ON customer.id = portal_user.customer_id
    WHERE token.token_hash = ${hashSecretToken(token)} AND token.session_id = ${sessionId}::uuid`;
  return state;
}

async function explainRefusedRefresh(tx: Queryable, sessionId: string, refreshToken: string): Promise<RefreshResult> {
  let token = refreshToken;
  for (let step = 0; step <= MAX_GRACE_STEPS; step++) {
    const state = await tokenState(tx, sessionId, token);
    if (!state) return { ok: false, reason: step === 0 ? "invalid" : "ended" };
    if (state.sessionOver) return { ok: false, reason: "ended" };
    if (!state.rotated) {
      // A successor reached through the grace period: current, handed out as it is.
      if (step === 0) return { ok: false, reason: state.expired ? "expired" : "invalid" };
      const accessEnd = Math.min(state.createdAt.getTime() + ACCESS_TOKEN_SECONDS * 1000, state.sessionExpiresAt.getTime());
      return { ok: true, refreshToken: token, accessExpiresAt: new Date(accessEnd) };
    }
    if (!state.rotatedRecently) break;
    token = successorToken(token);
  }
  await endPortalSession(tx, sessionId, "refresh-token-reuse");
  return { ok: false, reason: "reused" };
}

/** Ends one session (sign-out, reuse); ending an ended session changes nothing. */
export async function endPortalSession(db: Queryable, sessionId: string, reason: SessionEndReason): Promise<void> {
  if (!isUuid(sessionId)) return;
  await db.$executeRaw`
    UPDATE portal_sessions SET ended_at = now(), end_reason = ${reason} WHERE id = ${sessionId}::uuid AND ended_at IS NULL`;
}

/**
 * Ends every portal session of a customer and voids its unused magic links (offboarding):
 * call it in the transaction of the change, so access ends exactly when the change commits.
 */
export async function endCustomerPortalAccess(tx: Queryable, customerId: string, reason: SessionEndReason): Promise<void> {
  await tx.$executeRaw`
    UPDATE portal_sessions SET ended_at = now(), end_reason = ${reason}
    WHERE ended_at IS NULL AND portal_user_id IN (SELECT id FROM portal_users WHERE customer_id = ${customerId}::uuid)`;
  await tx.$executeRaw`
    UPDATE magic_link_tokens SET expires_at = now()
    WHERE used_at IS NULL AND expires_at > now()
      AND portal_user_id IN (SELECT id FROM portal_users WHERE customer_id = ${customerId}::uuid)`;
}

// Offboarding ends the customer's portal access in its own transaction (server/customers/offboarding.ts).
onCustomerOffboarded((tx, customerId) => endCustomerPortalAccess(tx, customerId, "offboarded"));

/** Whether a signed-in customer's session still admits them (checked on every request). */
export async function isPortalSessionLive(db: Queryable, sessionId: string, customerId: string): Promise<boolean> {
  if (!isUuid(sessionId) || !isUuid(customerId)) return false;
  const [row] = await db.$queryRaw<Array<{ live: boolean }>>`
    SELECT EXISTS (
      SELECT 1 FROM portal_sessions AS session
      JOIN portal_users AS portal_user ON portal_user.id = session.portal_user_id
      JOIN customers AS customer ON customer.id = portal_user.customer_id
      WHERE session.id = ${sessionId}::uuid AND portal_user.customer_id = ${customerId}::uuid
        AND session.ended_at IS NULL AND session.expires_at > now() AND customer.status <> 'inactive') AS live`;
  return row?.live === true;
}

/** Whether an access token that runs out at `accessExpiresAt` (epoch seconds) has run out. */
export function isAccessExpired(accessExpiresAt: number, now = Date.now()): boolean {
  return accessExpiresAt * 1000 <= now;
}
