import { createHmac, timingSafeEqual } from "node:crypto";
import { derivedAppKey } from "../app-key";
import type { LocaleCode } from "../i18n/locales";
import { config } from "../config";
import type { Queryable } from "../db/client";
import { portalLocale } from "../i18n/negotiate";
import { CUSTOMER_NOTIFICATION_KINDS, type CustomerNotificationKind } from "./types";

/**
 * Whom an unsubscribe link stops: one recipient of one customer's messages of one kind. Only
 * customers' e-mails have these links; an organization's operational messages have none.
 */
export interface UnsubscribeTarget {
  customerId: string;
  kind: CustomerNotificationKind;
  email: string;
}

const TOKEN_VERSION = "1";

function signature(payload: string): Buffer {
  return createHmac("sha256", derivedAppKey("unsubscribe-links")).update(payload).digest();
}

/**
 * A link's token: the target in clear (base64url JSON) and an HMAC of it under a key derived
 * from the app secret. It does not expire: an unsubscribe link must work as long as the e-mail
 * is kept, and it can do nothing but turn messages off.
 */
export function unsubscribeToken(target: UnsubscribeTarget): string {
  const payload = Buffer.from(JSON.stringify([TOKEN_VERSION, target.customerId, target.kind, target.email])).toString("base64url");
  return `${payload}.${signature(payload).toString("base64url")}`;
}

export function readUnsubscribeToken(token: string): UnsubscribeTarget | undefined {
  const [payload, signed, ...rest] = token.split(".");
  if (!payload || !signed || rest.length > 0) return undefined;
  const expected = signature(payload);
  const given = Buffer.from(signed, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  const [version, customerId, kind, email] = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as unknown[];
  if (version !== TOKEN_VERSION || typeof customerId !== "string" || typeof email !== "string") return undefined;
  if (!CUSTOMER_NOTIFICATION_KINDS.includes(kind as CustomerNotificationKind)) return undefined;
  return { customerId, kind: kind as CustomerNotificationKind, email };
}

/**
 * The link in the message body: a page that asks before it unsubscribes (link scanners only GET).
 * `baseUrl`: the partner's portal host (brandBaseUrl), else APP_URL.
 */
export function unsubscribePageUrl(target: UnsubscribeTarget, baseUrl = config.appUrl()): string {
  return `${baseUrl}/unsubscribe?token=${unsubscribeToken(target)}`;
}

/** The List-Unsubscribe header's URL: RFC 8058 one-click, a POST unsubscribes at once. */
export function oneClickUnsubscribeUrl(target: UnsubscribeTarget, baseUrl = config.appUrl()): string {
  return `${baseUrl}/api/unsubscribe?token=${unsubscribeToken(target)}`;
}

/**
 * The kinds an unsubscribe link turns off: its own kind; the welcome message's link (a kind
 * that is sent once) turns off every kind for that address.
 */
export function kindsStoppedBy(kind: CustomerNotificationKind): CustomerNotificationKind[] {
  return kind === "welcome" ? [...CUSTOMER_NOTIFICATION_KINDS] : [kind];
}

/** Records the opt-outs (idempotent). */
export async function optOut(db: Queryable, target: UnsubscribeTarget): Promise<CustomerNotificationKind[]> {
  const kinds = kindsStoppedBy(target.kind);
  await db.notificationOptOut.createMany({
    data: kinds.map((kind) => ({ customerId: target.customerId, kind, email: target.email.toLowerCase() })),
    skipDuplicates: true,
  });
  return kinds;
}

/** The recipients, minus those who turned this kind of the customer's messages off. */
export async function recipientsWanting(
  db: Queryable,
  customerId: string,
  kind: CustomerNotificationKind,
  recipients: readonly string[],
): Promise<string[]> {
  return (await recipientsWantingEach(db, kind, [{ customerId, recipients }])).get(customerId) ?? [];
}

/** recipientsWanting for many customers in one read, by customer id. */
export async function recipientsWantingEach(
  db: Queryable,
  kind: CustomerNotificationKind,
  customers: ReadonlyArray<{ customerId: string; recipients: readonly string[] }>,
): Promise<Map<string, string[]>> {
  const wanting = new Map<string, string[]>();
  const asked = customers.filter((customer) => customer.recipients.length > 0);
  if (asked.length === 0) return wanting;
  const optedOut = await db.notificationOptOut.findMany({
    where: {
      customerId: { in: asked.map((customer) => customer.customerId) },
      kind,
      email: { in: [...new Set(asked.flatMap((customer) => customer.recipients.map((email) => email.toLowerCase())))] },
    },
    select: { customerId: true, email: true },
  });
  const stopped = new Set(optedOut.map((row) => `${row.customerId} ${row.email}`));
  for (const { customerId, recipients } of asked) {
    wanting.set(
      customerId,
      recipients.filter((email) => !stopped.has(`${customerId} ${email.toLowerCase()}`)),
    );
  }
  return wanting;
}

export type UnsubscribeStatus =
  | { valid: false }
  | { valid: true; locale: LocaleCode; kind: CustomerNotificationKind; email: string; companyName: string; unsubscribed: boolean };

/** What the unsubscribe page shows for a token: whom it stops, and whether that is done already. */
export async function unsubscribeStatus(db: Queryable, token: string): Promise<UnsubscribeStatus> {
  const target = readUnsubscribeToken(token);
  const customer =
    target && (await db.customer.findUnique({ where: { id: target.customerId }, select: { companyName: true, localeCode: true } }));
  if (!target || !customer) return { valid: false };
  const kinds = kindsStoppedBy(target.kind);
  const stopped = await db.notificationOptOut.count({
    where: { customerId: target.customerId, email: target.email.toLowerCase(), kind: { in: kinds } },
  });
  return {
    valid: true,
    locale: portalLocale(customer.localeCode),
    kind: target.kind,
    email: target.email,
    companyName: customer.companyName,
    unsubscribed: stopped === kinds.length,
  };
}
