import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { getAppDb } from "@/server/db/instance";
import { portalLocale } from "@/server/i18n/negotiate";
import { portalMessages } from "@/server/i18n/translations";
import { signInErrorPath } from "@/server/portal/auth-routes";
import { magicLinkTarget } from "@/server/portal/magic-links";
import styles from "../../portal/portal.module.css";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { robots: { index: false, follow: false }, referrer: "no-referrer" };

type SearchParams = Promise<{ token_hash?: string | string[] }>;

/**
 * "Continue as <company>?": where /auth/confirm sends a sign-in link opened in a browser that
 * already holds a session. Nothing is consumed until the button POSTs the link to /auth/confirm.
 */
export default async function ContinueSignInPage({ searchParams }: { searchParams: SearchParams }) {
  const query = await searchParams;
  const token = typeof query.token_hash === "string" ? query.token_hash : "";
  const target = await magicLinkTarget(await getAppDb(), token);
  if (!target.ok) redirect(signInErrorPath(target.reason, target.localeCode));
  const locale = portalLocale(target.localeCode);
  const t = portalMessages(locale);
  return (
    <main lang={locale} className={styles.authPage}>
      <p className={styles.portalName}>{t.portalName}</p>
      <div className={styles.card}>
        <h1>{t.signIn.continue.title(target.companyName)}</h1>
        <p>{t.signIn.continue.body}</p>
        <form method="post" action="/auth/confirm" className={styles.signInForm}>
          <input type="hidden" name="token_hash" value={token} />
          <input type="hidden" name="type" value="magiclink" />
          <button type="submit" className={styles.primaryButton}>
            {t.signIn.continue.submit}
          </button>
        </form>
        <p>
          <Link href="/">{t.signIn.continue.cancel}</Link>
        </p>
      </div>
    </main>
  );
}
