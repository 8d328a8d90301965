import { recordFindings } from "../findings/scanner";
import type { Db, Queryable } from "../db/client";
import type { DomainVerificationMethod } from "../db/generated/enums";
import { customerRef, recordEvent } from "../events/outbox";
import { wakeJobWorkers } from "../jobs/wake";
import { log } from "../log";
import { withheldAtDomain } from "../findings/disclosure";

export interface Verification {
  method: DomainVerificationMethod;
  /** The staff member's name, the mailbox that followed the link, or the TXT record's name. */
  by: string;
  note?: string;
}

/**
 * Marks a customer's domain verified and reveals what was withheld at it, in one transaction
 * that holds the customer's row lock (as scans do): customer.domain.verified, then the usual
 * customer.asset.added and customer.breach.found (and breach alert) through recordFindings, as
 * though a scan had just found them. Customers that are not scanned (inactive, dormant) get them at
 * their next scan. A domain verified already stays as it was (its first verification counts), so
 * concurrent verifications announce it once. Returns whether this call verified it.
 */
export async function markDomainVerified(db: Db, customerDomainId: string, verification: Verification): Promise<boolean> {
  const verified = await db.$transaction((tx) => verifyInTransaction(tx, customerDomainId, verification), {
    timeout: 120_000,
    maxWait: 30_000,
  });
  if (verified) await wakeJobWorkers();
  return verified;
}

/** markDomainVerified's work in the caller's transaction (which wakes the workers after its commit). */
export async function verifyInTransaction(tx: Queryable, customerDomainId: string, verification: Verification): Promise<boolean> {
  const [customer] = await tx.$queryRaw<Array<{ id: string; partnerId: string; companyName: string; reference: string; status: string }>>`
        SELECT c.id::text, c.partner_id::text AS "partnerId", c.company_name AS "companyName", c.reference, c.status::text
        FROM customers c JOIN customer_domains cd ON cd.customer_id = c.id
        WHERE cd.id = ${customerDomainId}::uuid
        FOR UPDATE OF c`;
  if (!customer) return false;
  const [row] = await tx.$queryRaw<Array<{ domain: string; verifiedAt: Date }>>`
        UPDATE customer_domains
        SET status = 'verified', method = ${verification.method}::domain_verification_method, verified_at = now(),
            verified_by = ${verification.by}, note = ${verification.note ?? null}
        WHERE id = ${customerDomainId}::uuid AND status = 'unverified'
        RETURNING domain, verified_at AS "verifiedAt"`;
  if (!row) return false;
  await recordEvent(tx, {
    type: "customer.domain.verified",
    partnerId: customer.partnerId,
    customerId: customer.id,
    data: { customer: customerRef(customer), domain: row.domain, method: verification.method, verifiedAt: row.verifiedAt.toISOString() },
  });
  // Addresses listed past the partner's lookup budget are the customer's own to see now.
  await tx.$executeRaw`DELETE FROM withheld_addresses WHERE customer_id = ${customer.id}::uuid AND domain = ${row.domain}`;
  if (customer.status === "active" || customer.status === "prospect") {
    await recordFindings(tx, customer.id, await withheldAtDomain(tx, customer.id, row.domain), { scan: false });
    await tx.$executeRaw`DELETE FROM withheld_exposures WHERE customer_id = ${customer.id}::uuid AND domain = ${row.domain}`;
  }
  log.info("domain verified", { customerId: customer.id, domain: row.domain, method: verification.method });
  return true;
}
