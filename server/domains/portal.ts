import type { Db } from "../db/client";
import { checkDnsVerification } from "./dns";
import { customerDomain, customerDomainListing, type DomainListing } from "./domains";
import { sendVerificationLink, type VerificationMailbox } from "./email-link";

export interface PortalDomain extends DomainListing {
  /**
   * Of `exposedAddressCount`, the addresses the portal shows nowhere until the domain is verified
   * (withheld, and in no breach it lists); it lists the others (under the `trusted` policy, usually
   * all of them, with only their sensitive breaches withheld).
   */
  hiddenAddressCount: number;
}

/** The portal's Domains page: the signed-in customer's domains (docs/portal.md, "Domains"). */
export async function portalDomains(db: Db, customerId: string): Promise<PortalDomain[]> {
  const [listing, withheld] = await Promise.all([
    customerDomainListing(db, customerId),
    db.$queryRaw<Array<{ domain: string; addresses: number }>>`
      SELECT w.domain, count(DISTINCT w.email)::int AS addresses FROM withheld_exposures w
      WHERE w.customer_id = ${customerId}::uuid
        AND NOT EXISTS (SELECT 1 FROM customer_breaches cb WHERE cb.customer_id = w.customer_id AND w.email = ANY (cb.emails))
      GROUP BY w.domain`,
  ]);
  const hidden = new Map(withheld.map((row) => [row.domain, row.addresses]));
  return listing.map((entry) => ({ ...entry, hiddenAddressCount: hidden.get(entry.domain) ?? 0 }));
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
