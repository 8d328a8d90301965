import type { Db } from "../db/client";
import { badRequest } from "../errors";
import { checkDnsVerification } from "./dns";
import { ownedCustomerDomain } from "./domains";
import { sendVerificationLink, type VerificationMailbox } from "./email-link";

export const MAILBOX_REQUIRED = "Validation failed: mailbox: Mailbox is required for the email method";

export type VerificationRequest = { method: "dns" } | { method: "email"; mailbox?: VerificationMailbox };

export type VerificationAnswer =
  | { domain: string; status: "verified" }
  | { domain: string; status: "unverified"; reason: string }
  | { domain: string; status: "unverified"; emailSentTo: string };

/**
 * POST .../domains/{domain}/verify (docs/domains.md): checks the TXT record now, or e-mails a
 * one-time link to the chosen mailbox at the domain. A domain verified already answers so and
 * sends nothing.
 */
export async function requestDomainVerification(
  db: Db,
  partnerId: string,
  customerId: string,
  domain: string,
  request: VerificationRequest,
): Promise<VerificationAnswer> {
  if (request.method === "email" && !request.mailbox) throw badRequest(MAILBOX_REQUIRED);
  const row = await ownedCustomerDomain(db, partnerId, customerId, domain);
  if (row.status === "verified") return { domain: row.domain, status: "verified" };
  if (request.method === "dns") return { domain: row.domain, ...(await checkDnsVerification(db, row)) };
  return { domain: row.domain, status: "unverified", ...(await sendVerificationLink(db, row, request.mailbox!)) };
}
