import type { Metadata } from "next";
import { headers } from "next/headers";
import Link from "next/link";
import { currentUiSession } from "@/server/api/ui/session";
import { LOCALE_CODES, type LocaleCode } from "@/server/i18n/locales";
import { negotiateLocale } from "@/server/i18n/negotiate";
import { portalMessages } from "@/server/i18n/translations";
import { SIGN_IN_REQUEST_STATUSES } from "@/server/portal/auth-routes";
import { BrandContacts, BrandMark, brandStyle, requestBrand } from "../brand";
import styles from "../portal.module.css";

export const dynamic = "force-dynamic";

type SearchParams = Promise<{ status?: string | string[]; lang?: string | string[] }>;

async function pageContext(searchParams: SearchParams) {
  const query = await searchParams;
  const locale: LocaleCode =
    LOCALE_CODES.find((known) => known === query.lang) ?? negotiateLocale((await headers()).get("accept-language"));
  const status = SIGN_IN_REQUEST_STATUSES.find((known) => known === query.status);
  return { locale, status };
}

export async function generateMetadata({ searchParams }: { searchParams: SearchParams }): Promise<Metadata> {
  const { locale } = await pageContext(searchParams);
  const title = portalMessages(locale).signIn.page.title;
  const brand = await requestBrand();
  return { title: brand ? `${title} · ${brand.name}` : title, robots: { index: false, follow: false }, referrer: "no-referrer" };
}

/**
 * Sign-in without a partner (docs/portal.md, "Sign in by e-mail"): an e-mail address in, a
 * one-time link out by e-mail. The form posts to /auth/sign-in, which comes back here with the
 * status; "sent" is said whether or not the address is known.
 */
export default async function PortalSignInPage({ searchParams }: { searchParams: SearchParams }) {
  const { locale, status } = await pageContext(searchParams);
  const t = portalMessages(locale).signIn;
  const signedIn = (await currentUiSession("customer"))?.kind === "customer";
  const error = status === "invalid-email" ? t.page.invalidEmail : status === "rate-limited" ? t.page.rateLimited : undefined;
  const brand = await requestBrand();
  return (
    <main lang={locale} className={brand ? `${styles.authPage} ${styles.branded}` : styles.authPage} style={brandStyle(brand)}>
      <p className={styles.authBrand}>
        <BrandMark brand={brand} portalName={portalMessages(locale).portalName} />
      </p>
      <div className={styles.card}>
        <h1>{t.page.title}</h1>
        {signedIn ? (
          <>
            <p>{t.stillSignedIn}</p>
            <p>
              <Link href="/portal" className={styles.buttonLink}>
                {t.openPortal}
              </Link>
            </p>
          </>
        ) : null}
        {status === "sent" ? (
          <p role="status" className={styles.sentNotice}>
            {t.page.sent}
          </p>
        ) : (
          <p>{t.page.intro}</p>
        )}
        <form method="post" action="/auth/sign-in" className={styles.signInForm} noValidate>
          <input type="hidden" name="lang" value={locale} />
          <label htmlFor="sign-in-email">{t.page.email}</label>
          <input
            id="sign-in-email"
            name="email"
            type="email"
            autoComplete="email"
            required
            maxLength={254}
            aria-invalid={error === t.page.invalidEmail ? true : undefined}
            aria-describedby={error ? "sign-in-error" : undefined}
          />
          {error ? (
            <p id="sign-in-error" role="alert" className={styles.errorText}>
              {error}
            </p>
          ) : null}
          <button type="submit" className={styles.primaryButton}>
            {t.page.submit}
          </button>
        </form>
        <p className={styles.note}>{t.page.fromProvider}</p>
        <BrandContacts brand={brand} label={portalMessages(locale).help} />
      </div>
    </main>
  );
}
