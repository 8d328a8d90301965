import type { Metadata } from "next";
import { linkTokenParam } from "@/app/_lib/link-token";
import { getAppDb } from "@/server/db/instance";
import { mailStopState } from "@/server/domains/mail-stops";
import { format } from "@/server/i18n/format";
import { domainTexts } from "@/server/i18n/translations";
import styles from "../../unsubscribe/unsubscribe.module.css";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Stop verification e-mails", robots: { index: false } };

/**
 * Where a verification e-mail's "not us: stop" link leads. Opening it changes nothing (mail
 * scanners open links too); the button posts to /api/verify-domain/stop, which sends the browser back here.
 */
export default async function StopVerificationMailsPage({ searchParams }: { searchParams: Promise<{ token?: string | string[] }> }) {
  const { token } = await searchParams;
  const tokenText = linkTokenParam(token, 2_000);
  const stop = await mailStopState(await getAppDb(), tokenText);
  const locale = stop.valid ? stop.locale : "en-GB";
  const texts = domainTexts(locale).stopPage;
  const values: Record<string, string> = stop.valid
    ? { domain: stop.domain, partner: stop.partnerName, distributor: stop.distributorName }
    : {};
  return (
    <main className={styles.page} lang={locale}>
      <section className="card" aria-labelledby="stop-title">
        <h1 id="stop-title">{texts.title}</h1>
        {!stop.valid ? (
          <p role="alert">{texts.invalid}</p>
        ) : stop.stopped ? (
          <p role="status">{format(texts.done, values)}</p>
        ) : (
          <form method="post" action="/api/verify-domain/stop">
            <p>{format(texts.question, values)}</p>
            <input type="hidden" name="token" value={tokenText} />
            <button type="submit" className={styles.button}>
              {texts.confirm}
            </button>
          </form>
        )}
      </section>
    </main>
  );
}
