import { brandBaseUrl, brandFor } from "../brand/brand";
import { config } from "../config";
import { mailBranding } from "../notifications/render";
import type { MailBrand } from "../notifications/templates/layout";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { format } from "../i18n/format";
import type { LocaleCode } from "../i18n/locales";
import { portalLocale } from "../i18n/negotiate";
import { domainTexts } from "../i18n/translations";
import { log } from "../log";
import { configuredTransport, type MailTransport } from "../notifications/transport";
import { hashSecretToken, newSecretToken, SECRET_TOKEN_PATTERN } from "../secret-tokens";
import type { CustomerDomainRow } from "./domains";
import { isMailStopped, MAIL_STOPPED, mailStopUrl } from "./mail-stops";
import { verifyInTransaction } from "./verify";
import { wakeJobWorkers } from "../jobs/wake";

/** The mailboxes a verification link may go to, as HIBP and certificate authorities use them. */
export const VERIFICATION_MAILBOXES = ["security", "postmaster", "hostmaster", "webmaster", "admin"] as const;
export type VerificationMailbox = (typeof VERIFICATION_MAILBOXES)[number];
/** A link verifies once, within 24 hours of being sent (docs/domains.md, "E-mail"). */
export const VERIFICATION_LINK_LIFETIME_SECONDS = 24 * 60 * 60;
export const MAIL_NOT_SENT = "The verification e-mail could not be sent";
/**
 * Links per domain in 24 hours, whichever customers asked (the mailboxes belong to whoever owns
 * the domain, who must not be flooded, however many customers a partner onboards), and per
 * partner across its domains.
 */
export const LINKS_PER_DAY = 5;
export const LINKS_PER_PARTNER_PER_DAY = 20;
export const TOO_MANY_LINKS = `At most ${LINKS_PER_DAY} verification e-mails per domain in 24 hours; try again later`;
export const TOO_MANY_PARTNER_LINKS = `At most ${LINKS_PER_PARTNER_PER_DAY} verification e-mails per partner in 24 hours; try again later`;
/** The customer's company name as the e-mail quotes it: a partner typed it, so it is cut short and never in the subject. */
export const QUOTED_COMPANY_LENGTH = 60;

export function quotedCompany(companyName: string): string {
  const flat = companyName.replace(/[\p{Cc}\p{Cf}\s]+/gu, " ").trim();
  const short =
    [...flat].length > QUOTED_COMPANY_LENGTH
      ? `${[...flat]
          .slice(0, QUOTED_COMPANY_LENGTH - 1)
          .join("")
          .trimEnd()}…`
      : flat;
  return `"${short}"`;
}

export function verificationLinkUrl(token: string, baseUrl = config.appUrl()): string {
  return `${baseUrl}/verify-domain?token=${token}`;
}

/**
 * Sends a one-time verification link to `<mailbox>@<domain>`, in the customer's locale. Only the
 * token's SHA-256 is stored; the clear link exists only in the message, which is sent at once
 * rather than queued (a queued message keeps its facts in the database). A refused send voids the
 * link and answers 503 MAIL_NOT_SENT.
 */
export async function sendVerificationLink(
  db: Db,
  row: CustomerDomainRow,
  mailbox: VerificationMailbox,
  transport: MailTransport = configuredTransport(),
): Promise<{ emailSentTo: string }> {
  const customer = await db.customer.findUniqueOrThrow({
    where: { id: row.customerId },
    select: {
      companyName: true,
      localeCode: true,
      partnerId: true,
      partner: { select: { name: true, replyToEmail: true, distributor: { select: { name: true } } } },
    },
  });
  const stop = { partnerId: customer.partnerId, domain: row.domain };
  if (await isMailStopped(db, stop)) throw new AppError("FORBIDDEN", MAIL_STOPPED);
  const [sent] = await db.$queryRaw<Array<{ domain: number; domain_seconds: number; partner: number; partner_seconds: number }>>`
    SELECT count(*) FILTER (WHERE cd.domain = ${row.domain})::int AS domain,
      coalesce(ceil(extract(epoch FROM min(l.created_at) FILTER (WHERE cd.domain = ${row.domain}) + interval '24 hours' - now())), 0)::int AS domain_seconds,
      count(*) FILTER (WHERE c.partner_id = ${customer.partnerId}::uuid)::int AS partner,
      coalesce(ceil(extract(epoch FROM min(l.created_at) FILTER (WHERE c.partner_id = ${customer.partnerId}::uuid) + interval '24 hours' - now())), 0)::int AS partner_seconds
    FROM domain_verification_links l
    JOIN customer_domains cd ON cd.id = l.customer_domain_id
    JOIN customers c ON c.id = cd.customer_id
    WHERE l.created_at > now() - interval '24 hours' AND (cd.domain = ${row.domain} OR c.partner_id = ${customer.partnerId}::uuid)`;
  if ((sent?.domain ?? 0) >= LINKS_PER_DAY) {
    throw new AppError("RATE_LIMITED", TOO_MANY_LINKS, { "Retry-After": String(Math.max(1, sent!.domain_seconds)) });
  }
  if ((sent?.partner ?? 0) >= LINKS_PER_PARTNER_PER_DAY) {
    throw new AppError("RATE_LIMITED", TOO_MANY_PARTNER_LINKS, { "Retry-After": String(Math.max(1, sent!.partner_seconds)) });
  }
  const email = `${mailbox}@${row.domain}`;
  const token = newSecretToken();
  const [link] = await db.$queryRaw<Array<{ id: string }>>`
    INSERT INTO domain_verification_links (customer_domain_id, token_hash, email, expires_at)
    VALUES (${row.id}::uuid, ${hashSecretToken(token)}, ${email}, now() + make_interval(secs => ${VERIFICATION_LINK_LIFETIME_SECONDS}))
    RETURNING id::text`;
  const locale = portalLocale(customer.localeCode);
  const brand = await brandFor(db, { partnerId: customer.partnerId });
  const baseUrl = brandBaseUrl(brand);
  const { mailBrand, parts } = mailBranding(brand);
  const texts = verificationMail(
    locale,
    {
      domain: row.domain,
      company: quotedCompany(customer.companyName),
      partner: brand.name,
      distributor: customer.partner.distributor.name,
    },
    verificationLinkUrl(token, baseUrl),
    mailStopUrl(stop, locale, baseUrl),
    mailBrand,
  );
  try {
    await transport.send({
      notificationId: link!.id,
      to: email,
      senderName: brand.senderName,
      replyTo: brand.replyTo,
      attachments: parts,
      ...texts,
    });
  } catch (error) {
    log.warn("domain verification e-mail not sent", { customerId: row.customerId, domain: row.domain, error });
    await db.$executeRaw`DELETE FROM domain_verification_links WHERE id = ${link!.id}::uuid`;
    throw new AppError("UNAVAILABLE", MAIL_NOT_SENT);
  }
  log.info("domain verification e-mail sent", { customerId: row.customerId, domain: row.domain, mailbox });
  return { emailSentTo: email };
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[char]!);

/** A branded partner's logo (or name) above the text. */
function brandTop(brand: MailBrand | undefined): string {
  if (!brand) return "";
  return brand.logoSrc
    ? `<p><img src="${brand.logoSrc}" alt="${escapeHtml(brand.name)}" height="48" style="height:48px;width:auto"></p>\n`
    : `<p><strong>${escapeHtml(brand.name)}</strong></p>\n`;
}

function verificationMail(
  locale: LocaleCode,
  values: { domain: string; company: string; partner: string; distributor: string },
  url: string,
  stopUrl: string,
  brand: MailBrand | undefined,
) {
  const texts = domainTexts(locale).email;
  const contacts = brand && brand.contacts.length > 0 ? `${brand.name}: ${brand.contacts.join(" · ")}` : "";
  const [intro, button, expiry, ignore, stop] = [texts.intro, texts.button, texts.expiry, texts.ignore, texts.stop].map((text) =>
    format(text, values),
  );
  return {
    subject: format(texts.subject, values),
    text: `${intro}\n\n${url}\n\n${expiry}\n\n${ignore}\n\n${stop}\n${stopUrl}\n${contacts ? `\n${contacts}\n` : ""}`,
    html: `<!doctype html><html lang="${locale}"><body>
${brandTop(brand)}<p>${escapeHtml(intro!)}</p>
<p><a href="${escapeHtml(url)}">${escapeHtml(button!)}</a></p>
<p>${escapeHtml(expiry!)}</p>
<p>${escapeHtml(ignore!)}</p>
<p><a href="${escapeHtml(stopUrl)}">${escapeHtml(stop!)}</a></p>
${contacts ? `<p>${escapeHtml(contacts)}</p>\n` : ""}</body></html>`,
  };
}

export type LinkState =
  | { valid: false }
  | {
      valid: true;
      state: "open" | "expired" | "used";
      domain: string;
      /** Quoted and cut short (quotedCompany): the partner typed it. */
      companyName: string;
      partnerName: string;
      distributorName: string;
      locale: LocaleCode;
      verified: boolean;
    };

/** What the link's page shows (opening it changes nothing: mail scanners open links too). */
export async function verificationLinkState(db: Db, token: string): Promise<LinkState> {
  if (!SECRET_TOKEN_PATTERN.test(token)) return { valid: false };
  const [link] = await db.$queryRaw<
    Array<{
      used: boolean;
      expired: boolean;
      domain: string;
      companyName: string;
      partnerName: string;
      distributorName: string;
      localeCode: string;
      verified: boolean;
    }>
  >`
    SELECT l.used_at IS NOT NULL AS used, l.expires_at <= now() AS expired, cd.domain, c.company_name AS "companyName",
           p.name AS "partnerName", d.name AS "distributorName", c.locale_code AS "localeCode", cd.status = 'verified' AS verified
    FROM domain_verification_links l
    JOIN customer_domains cd ON cd.id = l.customer_domain_id
    JOIN customers c ON c.id = cd.customer_id
    JOIN partners p ON p.id = c.partner_id
    JOIN distributors d ON d.id = p.distributor_id
    WHERE l.token_hash = ${hashSecretToken(token)}`;
  if (!link) return { valid: false };
  return {
    valid: true,
    state: link.used ? "used" : link.expired ? "expired" : "open",
    domain: link.domain,
    companyName: quotedCompany(link.companyName),
    partnerName: link.partnerName,
    distributorName: link.distributorName,
    locale: portalLocale(link.localeCode),
    verified: link.verified,
  };
}

/**
 * Follows a link: one conditional UPDATE consumes it (unused, not expired, the domain still
 * monitored), and the domain is verified in the same transaction, so a link verifies once.
 */
export async function consumeVerificationLink(db: Db, token: string): Promise<boolean> {
  if (!SECRET_TOKEN_PATTERN.test(token)) return false;
  const verified = await db.$transaction(
    async (tx) => {
      const [link] = await tx.$queryRaw<Array<{ customerDomainId: string; email: string }>>`
        UPDATE domain_verification_links l SET used_at = now()
        FROM customer_domains cd
        WHERE l.token_hash = ${hashSecretToken(token)} AND l.used_at IS NULL AND l.expires_at > now()
          AND cd.id = l.customer_domain_id
          AND EXISTS (SELECT 1 FROM monitored_assets a WHERE a.customer_id = cd.customer_id AND a.kind = 'domain' AND a.value = cd.domain)
        RETURNING l.customer_domain_id::text AS "customerDomainId", l.email`;
      if (!link) return false;
      await verifyInTransaction(tx, link.customerDomainId, { method: "email", by: link.email });
      return true;
    },
    { timeout: 120_000, maxWait: 30_000 },
  );
  if (verified) await wakeJobWorkers();
  return verified;
}
