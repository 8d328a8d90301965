import { domainOfEmail, normalizeEmail } from "../email-address";

/** What the sync knows of one user (the directory_users row). */
export interface KnownUser {
  mail: string | null;
  proxyAddresses: readonly string[];
  enabled: boolean;
  guest: boolean;
  deleted: boolean;
  inGroup: boolean;
}

/**
 * The tenants' own routing domains (contoso.onmicrosoft.com, contoso.mail.onmicrosoft.com, and the
 * national clouds' onmicrosoft.us and onmschina.cn): no person's address that a breach would show.
 */
const TENANT_DOMAIN = /(^|\.)(onmicrosoft\.com|onmicrosoft\.us|onmschina\.cn)$/;

/**
 * The monitored addresses of one user (docs/directory.md): for an enabled member (not a guest)
 * still in the directory and in the synced group, `mail` and every `smtp:` address of
 * `proxyAddresses`, normalized as every address is, without the tenant's routing domains; for
 * anyone else none. Sorted, without duplicates.
 */
export function monitoredAddressesOf(user: KnownUser): string[] {
  if (!user.enabled || user.guest || user.deleted || !user.inGroup) return [];
  const candidates = [
    ...(user.mail ? [user.mail] : []),
    ...user.proxyAddresses.filter((address) => /^smtp:/i.test(address)).map((address) => address.slice(5)),
  ];
  const addresses = new Set<string>();
  for (const candidate of candidates) {
    const address = normalizeEmail(candidate);
    if (address && !TENANT_DOMAIN.test(domainOfEmail(address))) addresses.add(address);
  }
  return [...addresses].sort();
}

/** Whether a directory's domain is one of its tenant's routing domains. */
export function isTenantRoutingDomain(domain: string): boolean {
  return TENANT_DOMAIN.test(domain);
}
