import { domainToASCII } from "node:url";

/** The WHATWG (HTML) e-mail grammar, applied to the normalized (ASCII, lower-case) address. */
const EMAIL_PATTERN = /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;
const MAX_EMAIL_LENGTH = 254;
const NON_ASCII = /[^\x00-\x7f]/;

/**
 * The one form an e-mail address is stored, indexed and compared in (monitored assets, the
 * exposure index, lookups): trimmed, lower-case, an internationalized domain in its ASCII
 * (punycode) form, mapped as browsers map host names (UTS #46: case, width and Unicode
 * composition do not matter). Undefined when the result is not an address of the WHATWG e-mail
 * grammar of at most 254 characters. An address that is ASCII once lower-cased keeps exactly the
 * form the index has always stored (docs/breaches.md, "Exposure index").
 */
export function normalizeEmail(raw: string): string | undefined {
  const lowered = raw.trim().toLowerCase();
  const email = NON_ASCII.test(lowered) ? withAsciiDomain(raw.trim()) : lowered;
  return email !== undefined && email.length <= MAX_EMAIL_LENGTH && EMAIL_PATTERN.test(email) ? email : undefined;
}

/** The address with its domain in punycode; the local part stays as given (lower-cased), so a non-ASCII one fails the grammar. */
function withAsciiDomain(email: string): string | undefined {
  const at = email.lastIndexOf("@");
  if (at < 0) return undefined;
  const domain = domainToASCII(email.slice(at + 1));
  return domain === "" ? undefined : `${email.slice(0, at).toLowerCase()}@${domain}`;
}

/** The part after the last '@'. */
export function domainOfEmail(email: string): string {
  return email.slice(email.lastIndexOf("@") + 1);
}
