import type { Metadata } from "next";
import { format } from "@/server/i18n/format";
import { formatDate } from "../../_components/format-date";
import { portalPage, portalTitle } from "../../portal-page";
import styles from "../../portal.module.css";

export async function generateMetadata(): Promise<Metadata> {
  return { title: await portalTitle((t) => t.assets.title) };
}

export default async function AssetsPage() {
  const { portal, t, me } = await portalPage("/portal/assets");
  const assets = await portal.assets();
  return (
    <>
      <h1>{t.assets.title}</h1>
      <p className={styles.lead}>{t.assets.intro}</p>
      {assets.directory?.lastSyncAt && (
        <p className={styles.muted}>{format(t.assets.directorySynced, { date: formatDate(assets.directory.lastSyncAt, me.locale) })}</p>
      )}
      <div className={styles.overviewGrid}>
        <section className={styles.card} aria-labelledby="domains-title">
          <h2 id="domains-title">{t.assets.domains}</h2>
          {assets.domains.length === 0 ? (
            <p>{t.assets.none}</p>
          ) : (
            <ul className={styles.assetList}>
              {assets.domains.map((domain) => (
                <li key={domain}>{domain}</li>
              ))}
            </ul>
          )}
        </section>
        <section className={styles.card} aria-labelledby="emails-title">
          <h2 id="emails-title">{t.assets.emails}</h2>
          {assets.emails.length === 0 ? (
            <p>{t.assets.none}</p>
          ) : (
            <ul className={styles.assetList}>
              {assets.emails.map((email) => (
                <li key={email.value}>
                  {email.value}
                  {email.discovered && <span className={styles.note}> · {t.assets.discovered}</span>}
                  {email.directory && <span className={styles.note}> · {t.assets.directory}</span>}
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </>
  );
}
