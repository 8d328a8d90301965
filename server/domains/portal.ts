import type { Db } from "../db/client";
import { checkDnsVerification } from "./dns";
import { customerDomain, customerDomainListing } from "./domains";
import { sendVerificationLink, type VerificationMailbox } from "./email-link";

/** The portal's Domains page: the signed-in customer's domains (docs/portal.md, "Domains"). */
export function portalDomains(db: Db, customerId: string) {
  return customerDomainListing(db, customerId);
}

/** "Check now": the TXT record looked up at once, as POST .../verify {"method": "dns"} does. */
export async function portalCheckDns(db: Db, customerId: string, domain: string) {
  return checkDnsVerification(db, await customerDomain(db, customerId, domain));
}

/** "Send the link": as POST .../verify {"method": "email", "mailbox"} does. */
export async function portalSendLink(db: Db, customerId: string, domain: string, mailbox: VerificationMailbox) {
  const row = await customerDomain(db, customerId, domain);
  if (row.status === "verified") return { emailSentTo: null };
  return sendVerificationLink(db, row, mailbox);
}
