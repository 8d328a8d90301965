import { domainToASCII } from "node:url";
import type { AssetKind } from "../db/generated/enums";
import { domainOfEmail } from "../email-address";

export const INVALID_DOMAIN = "Invalid domain";
export const INVALID_EMAIL = "Invalid email address";

const MAX_DOMAIN_LENGTH = 253;
const DOMAIN_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const TOP_LEVEL_LABEL = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

/**
 * The form a domain is stored and compared in: trimmed, lower-case, without a trailing dot,
 * internationalized names in their ASCII (punycode) form. Undefined when it is not a public
 * host name with at least two labels (no IP addresses, no "localhost", no URLs).
 */
export function normalizeDomain(raw: string): string | undefined {
  const trimmed = raw.trim().replace(/\.$/, "");
  if (trimmed === "" || /[\s/:@]/.test(trimmed)) return undefined;
  const ascii = domainToASCII(trimmed.toLowerCase());
  if (ascii === "" || ascii.length > MAX_DOMAIN_LENGTH) return undefined;
  const labels = ascii.split(".");
  if (labels.length < 2 || !labels.every((label) => DOMAIN_LABEL.test(label))) return undefined;
  return TOP_LEVEL_LABEL.test(labels.at(-1)!) ? ascii : undefined;
}

/**
 * Why a value is not a domain: for a URL (or a host with a path), that a host name is wanted,
 * naming the one it holds when there is one.
 */
export function invalidDomainMessage(raw: string): string {
  const trimmed = raw.trim();
  const looksLikeUrl = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) || /^[^\s/@:]+(?::\d+)?\//.test(trimmed);
  if (!looksLikeUrl) return INVALID_DOMAIN;
  let host: string | undefined;
  try {
    host = normalizeDomain(new URL(/:\/\//.test(trimmed) ? trimmed : `https://${trimmed}`).hostname);
  } catch {
    host = undefined;
  }
  return `${INVALID_DOMAIN}: a host name is wanted, not a URL` + (host ? ` (send ${host})` : "");
}

/** The domain an asset is looked up by: the domain itself, or an address's domain. */
export function assetDomain(kind: AssetKind, value: string): string {
  return kind === "domain" ? value : domainOfEmail(value);
}

/** Distinct values in first-seen order. */
export function distinct(values: Iterable<string>): string[] {
  return [...new Set(values)];
}
