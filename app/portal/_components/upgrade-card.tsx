import type { PortalMessages } from "@/server/i18n/translations";
import styles from "../portal.module.css";

/** For prospects: what the one-time check shows, and what full monitoring would add (no data of theirs). */
export function UpgradeCard({ t }: { t: PortalMessages["upgrade"] }) {
  return (
    <section className={`${styles.card} ${styles.upgrade}`} aria-labelledby="upgrade-title">
      <h2 id="upgrade-title">{t.title}</h2>
      <p>{t.notice}</p>
      <ul className={styles.checkList}>
        {t.items.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
      <p className={styles.strong}>{t.contact}</p>
    </section>
  );
}
