import type { Metadata } from "next";
import Link from "next/link";
import { formatDate } from "../_components/format-date";
import { StatusBadge } from "../_components/status-badge";
import { UpgradeCard } from "../_components/upgrade-card";
import { format } from "@/server/i18n/format";
import { portalPage, portalText } from "../portal-page";
import styles from "../portal.module.css";

export async function generateMetadata(): Promise<Metadata> {
  return { title: await portalText((t) => t.breaches.title) };
}

export default async function BreachesPage() {
  const { portal, me, t } = await portalPage("/portal/breaches");
  const list = await portal.listBreaches();
  return (
    <>
      <h1>{t.breaches.title}</h1>
      <p className={styles.lead}>{t.breaches.intro}</p>
      <p className={styles.count}>{format(t.breaches.count, { count: list.breaches.length })}</p>
      {list.breaches.length === 0 && <p>{t.breaches.none}</p>}
      <ul className={styles.breachList}>
        {list.redacted
          ? list.breaches.map((breach, index) => (
              <li key={breach.id} className={styles.breachCard}>
                <div className={styles.breachHead}>
                  <h2>
                    <Link href={`/portal/breaches/${breach.id}`} prefetch={false}>
                      {format(t.breaches.exposureNumber, { number: index + 1 })}
                    </Link>
                  </h2>
                  <StatusBadge resolved={breach.resolved} labels={t.breaches} />
                </div>
                <dl className={styles.facts}>
                  <dt>{t.breaches.exposedEmails}</dt>
                  <dd>{breach.emails.join(", ")}</dd>
                </dl>
              </li>
            ))
          : list.breaches.map((breach) => (
              <li key={breach.id} className={styles.breachCard}>
                <div className={styles.breachHead}>
                  <h2>
                    <Link href={`/portal/breaches/${breach.id}`} prefetch={false}>
                      {breach.title}
                    </Link>
                  </h2>
                  <StatusBadge resolved={breach.resolved} labels={t.breaches} />
                </div>
                <dl className={styles.facts}>
                  <dt>{t.breaches.breachDate}</dt>
                  <dd>{formatDate(breach.breachDate, me.locale)}</dd>
                  <dt>{t.breaches.categories}</dt>
                  <dd>
                    <ul className={styles.tags}>
                      {breach.breachCategories.map((category) => (
                        <li key={category} lang="en">
                          {category}
                        </li>
                      ))}
                    </ul>
                  </dd>
                  <dt>{t.breaches.exposedEmails}</dt>
                  <dd>{breach.emails.join(", ")}</dd>
                </dl>
              </li>
            ))}
      </ul>
      {list.redacted && <UpgradeCard t={t.upgrade} />}
    </>
  );
}
