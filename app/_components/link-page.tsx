import type { ReactNode } from "react";
import styles from "./link-page.module.css";

/**
 * The page an e-mailed link leads to (unsubscribe, confirm a domain, stop verification mail):
 * opening it changes nothing, since mail scanners open links too; its form's button posts.
 */
export function LinkPage({ locale, title, children }: { locale: string; title: string; children: ReactNode }) {
  return (
    <main className={styles.page} lang={locale}>
      <section className="card" aria-labelledby="link-page-title">
        <h1 id="link-page-title">{title}</h1>
        {children}
      </section>
    </main>
  );
}

/** The question and its one button, posting the link's token to `action`. */
export function LinkConfirmForm({ action, token, question, button }: { action: string; token: string; question: string; button: string }) {
  return (
    <form method="post" action={action}>
      <p>{question}</p>
      <input type="hidden" name="token" value={token} />
      <button type="submit" className={styles.button}>
        {button}
      </button>
    </form>
  );
}
