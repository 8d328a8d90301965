import type { Metadata } from "next";
import type { ReactNode } from "react";
import { isAccessExpired } from "@/server/portal/sessions";
import { PortalMenu } from "../_components/portal-menu";
import { PortalNav } from "../_components/portal-nav";
import { SessionKeeper } from "../_components/session-keeper";
import { format } from "@/server/i18n/format";
import { portalMessages } from "@/server/i18n/translations";
import { BrandContacts, BrandMark, brandStyle, requestBrand } from "../brand";
import { PORTAL_NAVIGATION } from "../navigation";
import { portalMe, signedInCustomer } from "../portal-page";
import styles from "../portal.module.css";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const name = (await requestBrand())?.name ?? "Exposure portal";
  return {
    title: { template: `%s · ${name}`, default: name },
    robots: { index: false, follow: false },
    // Portal addresses (breach ids) stay on this site; same-origin requests keep their Origin.
    referrer: "same-origin",
  };
}

export default async function PortalLayout({ children }: { children: ReactNode }) {
  const session = await signedInCustomer();
  // The page renews an expired access token (it knows where to come back to).
  if (isAccessExpired(session.accessExpiresAt)) return children;
  const me = await portalMe();
  const t = portalMessages(me.locale);
  const brand = await requestBrand();
  return (
    <div lang={me.locale} className={brand ? `${styles.shell} ${styles.branded}` : styles.shell} style={brandStyle(brand)}>
      <a href="#main" className={styles.skipLink}>
        {t.skipToContent}
      </a>
      <header className={styles.header}>
        <div className={styles.headerInner}>
          <p className={styles.brand}>
            <BrandMark brand={brand} portalName={t.portalName} />
            <span className={styles.company}>{me.companyName}</span>
          </p>
          <PortalMenu label={t.menu}>
            <PortalNav label={t.navigationLabel} items={PORTAL_NAVIGATION.map((item) => ({ href: item.href, label: t.nav[item.label] }))} />
            <form action="/auth/sign-out" method="post" className={styles.signOut}>
              <span className={styles.signedInAs}>{format(t.signedInAs, { email: me.email })}</span>
              <button type="submit" className={styles.secondaryButton}>
                {t.signOut}
              </button>
            </form>
          </PortalMenu>
        </div>
      </header>
      <main id="main" className={styles.main} tabIndex={-1}>
        {children}
      </main>
      {brand ? (
        <footer className={styles.brandFooter}>
          <BrandContacts brand={brand} label={t.help} />
        </footer>
      ) : null}
      <SessionKeeper accessExpiresAt={me.accessExpiresAt} />
    </div>
  );
}
