import { Resolver } from "node:dns/promises";
import { config } from "../config";
import type { Db } from "../db/client";
import { log } from "../log";
import { dnsRecordOf, type CustomerDomainRow } from "./domains";
import { markDomainVerified } from "./verify";

/** One TXT lookup's limit: a slow resolver must not hold an API call for long. */
const LOOKUP_TIMEOUT_MS = 3_000;

export type DnsCheck = { found: true } | { found: false; reason: string };

/** A resolver on DNS_SERVERS, else the system's (docs/domains.md, "DNS"). */
function resolver(): Resolver {
  const resolver = new Resolver({ timeout: LOOKUP_TIMEOUT_MS, tries: 2 });
  const servers = config.dnsServers();
  if (servers.length > 0) resolver.setServers(servers);
  return resolver;
}

/** Looks up the domain's TXT records for the expected value (a record split into strings counts joined). */
export async function lookupVerificationRecord(domain: string, expected: string): Promise<DnsCheck> {
  try {
    const records = await resolver().resolveTxt(domain);
    if (records.some((chunks) => chunks.join("").trim() === expected)) return { found: true };
    return { found: false, reason: `No TXT record "${expected}" found at ${domain} yet` };
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "ENODATA" || code === "ENOTFOUND") return { found: false, reason: `No TXT record "${expected}" found at ${domain} yet` };
    log.warn("domain verification lookup failed", { domain, code });
    return { found: false, reason: `The DNS lookup of ${domain} failed (${code ?? "error"}); it is tried again hourly` };
  }
}

/**
 * Checks the customer domain's TXT record now and verifies the domain when it is there.
 * Answers the state after the check, with the reason while the record is missing.
 */
export async function checkDnsVerification(
  db: Db,
  row: CustomerDomainRow,
): Promise<{ status: "verified" } | { status: "unverified"; reason: string }> {
  if (row.status === "verified") return { status: "verified" };
  const check = await lookupVerificationRecord(row.domain, dnsRecordOf(row).value);
  await db.$executeRaw`UPDATE customer_domains SET last_checked_at = now() WHERE id = ${row.id}::uuid`;
  if (!check.found) return { status: "unverified", reason: check.reason };
  await markDomainVerified(db, row.id, { method: "dns", by: `TXT ${row.domain}` });
  return { status: "verified" };
}
