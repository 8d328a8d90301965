import { randomUUID } from "node:crypto";
import { brandBaseUrl, brandFor } from "../brand/brand";
import type { Db } from "../db/client";
import { normalizeEmail } from "../email-address";
import { portalLocale } from "../i18n/negotiate";
import { log } from "../log";
import { renderSignInLinkEmail } from "../notifications/render";
import { configuredTransport, type MailTransport } from "../notifications/transport";
import { clientBucket } from "../client-address";
import { consumeRateLimit } from "../rate-limit";
import { insertMagicLink } from "./magic-links";

/**
 * Sign-in without a partner (docs/portal.md, "Sign in by e-mail"): a person enters an e-mail
 * address at /portal/sign-in; when it is the contact or an alert recipient of a customer that
 * can sign in (not offboarded, with a portal user), a one-time link is e-mailed for each such
 * customer, in that customer's locale. The answer never says whether the address is known: it is
 * decided before anything is looked up, and the look-up and the e-mails run after it (`deliver`).
 */

/**
 * Requests per address and client address together, and per client address, in a window (refused
 * to that client only); and the e-mails one address receives in it, after which its requests are
 * answered as always but send nothing (the links already sent stay valid), so nobody else's
 * requests can refuse the owner.
 */
export const SIGN_IN_REQUESTS_PER_ADDRESS_AND_CLIENT = 5;
export const SIGN_IN_REQUESTS_PER_CLIENT = 30;
export const SIGN_IN_MAILS_PER_ADDRESS = 5;
export const SIGN_IN_REQUEST_WINDOW_SECONDS = 60 * 60;
/** One address with this many customers gets this many e-mails at most. */
const MAX_CUSTOMERS_PER_REQUEST = 10;

export type SignInRequest =
  | { ok: true; /** Looks the address up and e-mails the links; resolves with the number sent. */ deliver: () => Promise<number> }
  | { ok: false; reason: "invalid-email" }
  | { ok: false; reason: "rate-limited"; retryAfterSeconds: number };

export async function requestEmailSignIn(
  db: Db,
  input: { email: string; clientAddress?: string },
  { transport = configuredTransport() }: { transport?: MailTransport } = {},
): Promise<SignInRequest> {
  const email = normalizeEmail(input.email);
  if (!email) return { ok: false, reason: "invalid-email" };
  const client = clientBucket(input.clientAddress);
  const limits = await Promise.all([
    consumeRateLimit(
      db,
      `portal-sign-in:email-client:${email} ${client}`,
      SIGN_IN_REQUESTS_PER_ADDRESS_AND_CLIENT,
      SIGN_IN_REQUEST_WINDOW_SECONDS,
    ),
    consumeRateLimit(db, `portal-sign-in:client:${client}`, SIGN_IN_REQUESTS_PER_CLIENT, SIGN_IN_REQUEST_WINDOW_SECONDS),
  ]);
  const blocked = limits.find((decision) => !decision.allowed);
  if (blocked) return { ok: false, reason: "rate-limited", retryAfterSeconds: blocked.retryAfterSeconds };
  const mailBudget = await consumeRateLimit(db, `portal-sign-in:mail:${email}`, SIGN_IN_MAILS_PER_ADDRESS, SIGN_IN_REQUEST_WINDOW_SECONDS);
  if (!mailBudget.allowed) return { ok: true, deliver: () => Promise.resolve(0) };
  return { ok: true, deliver: () => emailSignInLinks(db, email, transport) };
}

async function emailSignInLinks(db: Db, email: string, transport: MailTransport): Promise<number> {
  const customers = await db.$queryRaw<
    Array<{ customerId: string; portalUserId: string; companyName: string; localeCode: string; partnerId: string }>
  >`
    SELECT c.id::text AS "customerId", u.id::text AS "portalUserId", c.company_name AS "companyName",
           c.locale_code AS "localeCode", c.partner_id::text AS "partnerId"
    FROM customers c
    JOIN portal_users u ON u.customer_id = c.id
    WHERE c.status <> 'inactive' AND (u.email = ${email} OR c.alert_recipients @> ARRAY[${email}]::text[])
    ORDER BY c.created_at, c.id
    LIMIT ${MAX_CUSTOMERS_PER_REQUEST}`;
  let sent = 0;
  for (const customer of customers) {
    const locale = portalLocale(customer.localeCode);
    // The customer's partner's brand and registered portal host; never the Host the request came in on.
    const brand = await brandFor(db, { partnerId: customer.partnerId });
    const url = await insertMagicLink(db, customer.portalUserId, brandBaseUrl(brand));
    const mail = await renderSignInLinkEmail({ locale, companyName: customer.companyName, brand, url });
    await transport.send({ notificationId: randomUUID(), to: email, senderName: brand.senderName, replyTo: brand.replyTo, ...mail });
    log.info("portal sign-in link e-mailed", { customerId: customer.customerId, transport: transport.name });
    sent++;
  }
  return sent;
}
