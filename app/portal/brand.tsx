import type { CSSProperties } from "react";
import { headers } from "next/headers";
import { cache } from "react";
import { currentUiSession } from "@/server/api/ui/session";
import { brandFor, brandForPortalHost, type Brand } from "@/server/brand/brand";
import { getAppDb } from "@/server/db/instance";
import styles from "./portal.module.css";

/**
 * The brand of this request (docs/brand.md): the signed-in customer's partner's, else that of the
 * partner whose registered portal host the request came in on; null (the service's own look) for
 * any other host. Once per request.
 */
export const requestBrand = cache(async (): Promise<Brand | null> => {
  const db = await getAppDb();
  const session = await currentUiSession("customer");
  if (session?.kind === "customer") {
    const brand = await brandFor(db, { customerId: session.customerId });
    return brand.source === "default" ? null : brand;
  }
  return brandForPortalHost(db, (await headers()).get("host"));
});

/** The brand's colours as the portal's style sheet reads them (buttons, the header's bar). */
export function brandStyle(brand: Brand | null): CSSProperties | undefined {
  if (!brand) return undefined;
  return { "--brand-primary": brand.primaryColor, "--brand-on-primary": brand.textOnPrimary } as CSSProperties;
}

/** The brand's logo (its name as the alternative text) and name; without a brand, the portal's own name. */
export function BrandMark({ brand, portalName }: { brand: Brand | null; portalName: string }) {
  if (!brand) return <span className={styles.portalName}>{portalName}</span>;
  return (
    <span className={styles.brandMark}>
      {brand.logo ? (
        // A PNG the service encoded itself (an uploaded SVG was rasterised), as a data: URL.
        // eslint-disable-next-line @next/next/no-img-element
        <img src={brand.logo.dataUrl} alt="" className={styles.brandLogo} />
      ) : null}
      <span className={styles.brandName}>{brand.name}</span>
    </span>
  );
}

/** The brand's support contacts, for the foot of the sign-in and error pages. */
export function BrandContacts({ brand, label }: { brand: Brand | null; label: string }) {
  if (!brand) return null;
  const contacts = [
    brand.supportEmail ? { href: `mailto:${brand.supportEmail}`, text: brand.supportEmail } : null,
    brand.supportPhone ? { href: `tel:${brand.supportPhone.replace(/[^+0-9]/g, "")}`, text: brand.supportPhone } : null,
    brand.supportUrl ? { href: brand.supportUrl, text: brand.supportUrl } : null,
  ].filter((contact) => contact !== null);
  if (contacts.length === 0) return null;
  return (
    <p className={styles.note}>
      {label}:{" "}
      {contacts.map((contact, index) => (
        <span key={contact.href}>
          {index > 0 ? " · " : null}
          <a href={contact.href}>{contact.text}</a>
        </span>
      ))}
    </p>
  );
}
