import type { Metadata } from "next";
import { linkTokenParam } from "@/app/_lib/link-token";
import { uiCaller } from "@/server/api/ui/handler";
import { notificationTexts } from "@/server/i18n/translations";
import styles from "./unsubscribe.module.css";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Unsubscribe", robots: { index: false } };

/**
 * Where an e-mail's unsubscribe link leads. Opening it changes nothing (link scanners open
 * links too); the button posts to /api/unsubscribe, which sends the browser back here.
 */
export default async function UnsubscribePage({ searchParams }: { searchParams: Promise<{ token?: string | string[] }> }) {
  const { token } = await searchParams;
  const tokenText = linkTokenParam(token, 2_000);
  const status = await (await uiCaller()).notifications.unsubscribe({ token: tokenText });
  const texts = notificationTexts(status.valid ? status.locale : "en-GB").unsubscribe;
  return (
    <main className={styles.page} lang={status.valid ? status.locale : "en-GB"}>
      <section className="card" aria-labelledby="unsubscribe-title">
        <h1 id="unsubscribe-title">{texts.title}</h1>
        {!status.valid ? (
          <p role="alert">{texts.invalid}</p>
        ) : status.unsubscribed ? (
          <>
            <p role="status">{texts.done(texts.what[status.kind](status.companyName), status.email)}</p>
            <p className="muted">{texts.undo}</p>
          </>
        ) : (
          <form method="post" action="/api/unsubscribe">
            <p>{texts.question(texts.what[status.kind](status.companyName), status.email)}</p>
            <input type="hidden" name="token" value={tokenText} />
            <button type="submit" className={styles.button}>
              {texts.button}
            </button>
          </form>
        )}
      </section>
    </main>
  );
}
