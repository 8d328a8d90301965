import { createHmac, timingSafeEqual } from "node:crypto";
import { derivedAppKey } from "../app-key";
import { config } from "../config";
import type { Db, Queryable } from "../db/client";
import type { LocaleCode } from "../i18n/locales";
import { portalLocale } from "../i18n/negotiate";
import { log } from "../log";

/**
 * A verification e-mail's "this is not us: stop" link: it ends the verification e-mails of one
 * partner to one domain (docs/domains.md, "E-mail"). Its token is (partner, domain) in clear and an
 * HMAC of them under a key derived from the app secret, so nothing is stored until it is used and
 * it works as long as the e-mail is kept; it can do nothing but stop mails.
 */
export interface MailStopTarget {
  partnerId: string;
  domain: string;
}

export const MAIL_STOPPED = "The domain's owner asked for no more verification e-mails from this partner; verify the domain by DNS instead";

const TOKEN_VERSION = "1";
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{1,1000}\.[A-Za-z0-9_-]{43}$/;

function signature(payload: string): Buffer {
  return createHmac("sha256", derivedAppKey("domain-mail-stop-links")).update(payload).digest();
}

/** `locale`: the e-mail's, in which the page answers. */
export function mailStopToken(target: MailStopTarget, locale: LocaleCode): string {
  const payload = Buffer.from(JSON.stringify([TOKEN_VERSION, target.partnerId, target.domain, locale])).toString("base64url");
  return `${payload}.${signature(payload).toString("base64url")}`;
}

export function readMailStopToken(token: string): (MailStopTarget & { locale: LocaleCode }) | undefined {
  if (!TOKEN_PATTERN.test(token)) return undefined;
  const [payload, signed] = token.split(".") as [string, string];
  const given = Buffer.from(signed, "base64url");
  const expected = signature(payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  const [version, partnerId, domain, locale] = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as unknown[];
  if (version !== TOKEN_VERSION || typeof partnerId !== "string" || typeof domain !== "string") return undefined;
  return { partnerId, domain, locale: portalLocale(typeof locale === "string" ? locale : "en-GB") };
}

export function mailStopUrl(target: MailStopTarget, locale: LocaleCode, baseUrl = config.appUrl()): string {
  return `${baseUrl}/verify-domain/stop?token=${mailStopToken(target, locale)}`;
}

export async function isMailStopped(db: Queryable, target: MailStopTarget): Promise<boolean> {
  return (await db.domainMailStop.count({ where: { partnerId: target.partnerId, domain: target.domain } })) > 0;
}

export type MailStopState =
  { valid: false } | { valid: true; domain: string; partnerName: string; distributorName: string; locale: LocaleCode; stopped: boolean };

/** What the stop page shows (opening it changes nothing: mail scanners open links too). */
export async function mailStopState(db: Db, token: string): Promise<MailStopState> {
  const target = readMailStopToken(token);
  const partner =
    target &&
    (await db.partner.findUnique({
      where: { id: target.partnerId },
      select: { name: true, distributor: { select: { name: true } } },
    }));
  if (!target || !partner) return { valid: false };
  return {
    valid: true,
    domain: target.domain,
    partnerName: partner.name,
    distributorName: partner.distributor.name,
    locale: target.locale,
    stopped: await isMailStopped(db, target),
  };
}

/** The page's form: records the stop (idempotent). False for a token that is not valid. */
export async function stopVerificationMails(db: Db, token: string): Promise<boolean> {
  const target = readMailStopToken(token);
  if (!target || !(await db.partner.findUnique({ where: { id: target.partnerId }, select: { id: true } }))) return false;
  const { partnerId, domain } = target;
  await db.domainMailStop.createMany({ data: [{ partnerId, domain }], skipDuplicates: true });
  log.info("domain verification e-mails stopped by the domain", { partnerId, domain });
  return true;
}
