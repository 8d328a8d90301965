import type { Metadata } from "next";
import { headers } from "next/headers";
import Link from "next/link";
import { currentUiSession } from "@/server/api/ui/session";
import { LOCALE_CODES, type LocaleCode } from "@/server/i18n/locales";
import { negotiateLocale } from "@/server/i18n/negotiate";
import { SIGN_IN_ERROR_REASONS, type SignInErrorReason } from "@/server/portal/auth-routes";
import { portalMessages } from "@/server/i18n/translations";
import { BrandContacts, BrandMark, brandStyle, requestBrand } from "../../portal/brand";
import styles from "../../portal/portal.module.css";

export const dynamic = "force-dynamic";

type SearchParams = Promise<{ reason?: string | string[]; lang?: string | string[] }>;

/** The reason and language of the page: from the query (set by /auth/confirm), else the browser's languages. */
async function pageContext(searchParams: SearchParams): Promise<{ reason: SignInErrorReason; locale: LocaleCode }> {
  const query = await searchParams;
  const reason = SIGN_IN_ERROR_REASONS.find((known) => known === query.reason) ?? "invalid";
  const locale = LOCALE_CODES.find((known) => known === query.lang) ?? negotiateLocale((await headers()).get("accept-language"));
  return { reason, locale };
}

export async function generateMetadata({ searchParams }: { searchParams: SearchParams }): Promise<Metadata> {
  const { reason, locale } = await pageContext(searchParams);
  const title = portalMessages(locale).signIn.errors[reason].title;
  const brand = await requestBrand();
  return { title: brand ? `${title} · ${brand.name}` : title, robots: { index: false, follow: false }, referrer: "no-referrer" };
}

/**
 * Where a sign-in that did not happen lands (a used, expired or unknown link, an ended
 * session) and where signing out ends: what happened and what to do, in the customer's language.
 */
export default async function SignInErrorPage({ searchParams }: { searchParams: SearchParams }) {
  const { reason, locale } = await pageContext(searchParams);
  const t = portalMessages(locale);
  const stillSignedIn = reason !== "signed-out" && (await currentUiSession("customer"))?.kind === "customer";
  const brand = await requestBrand();
  return (
    <main lang={locale} className={brand ? `${styles.authPage} ${styles.branded}` : styles.authPage} style={brandStyle(brand)}>
      <p className={styles.authBrand}>
        <BrandMark brand={brand} portalName={t.portalName} />
      </p>
      <div className={styles.card}>
        <h1>{t.signIn.errors[reason].title}</h1>
        <p>{t.signIn.errors[reason].body}</p>
        {stillSignedIn ? (
          <>
            <p>{t.signIn.stillSignedIn}</p>
            <p>
              <Link href="/portal" className={styles.buttonLink}>
                {t.signIn.openPortal}
              </Link>
            </p>
          </>
        ) : reason === "unavailable" ? null : (
          <>
            <p className={styles.strong}>{t.signIn.newLink}</p>
            <p>
              <Link href={`/portal/sign-in?lang=${locale}`} className={styles.buttonLink}>
                {t.signIn.getLink}
              </Link>
            </p>
          </>
        )}
        <BrandContacts brand={brand} label={t.help} />
      </div>
    </main>
  );
}
