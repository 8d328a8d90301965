import type { Metadata } from "next";
import Link from "next/link";
import { ExposureChart } from "../_components/exposure-chart";
import { formatDate } from "../_components/format-date";
import { ThreatGauge } from "../_components/threat-gauge";
import { UpgradeCard } from "../_components/upgrade-card";
import { format } from "@/server/i18n/format";
import { portalPage, portalTitle } from "../portal-page";
import styles from "../portal.module.css";

export async function generateMetadata(): Promise<Metadata> {
  return { title: await portalTitle((t) => t.overview.title) };
}

export default async function OverviewPage() {
  const { portal, me, t } = await portalPage("/portal");
  const overview = await portal.overview();
  return (
    <>
      <h1>{t.overview.title}</h1>
      <p className={styles.lead}>{format(t.overview.intro, { company: me.companyName })}</p>
      <div className={styles.overviewGrid}>
        <section className={styles.card} aria-labelledby="score-title">
          <h2 id="score-title">{t.overview.threatScore}</h2>
          <ThreatGauge score={overview.threatScore} max={overview.maxThreatScore} t={t.overview} />
          <p className={styles.muted}>{format(t.overview.threatScoreHelp, { max: overview.maxThreatScore })}</p>
        </section>
        <section className={styles.card} aria-labelledby="counts-title">
          <h2 id="counts-title" className={styles.visuallyHidden}>
            {t.breaches.title}
          </h2>
          <dl className={styles.stats}>
            <div>
              <dt>{t.overview.unresolved}</dt>
              <dd className={overview.unresolved > 0 ? styles.statAlert : undefined}>{overview.unresolved}</dd>
            </div>
            <div>
              <dt>{t.overview.resolved}</dt>
              <dd>{overview.resolved}</dd>
            </div>
            <div>
              <dt>{t.overview.exposedEmails}</dt>
              <dd>{overview.exposedEmails}</dd>
            </div>
          </dl>
          <p className={styles.muted}>
            {overview.lastScannedAt
              ? format(t.overview.lastChecked, { date: formatDate(overview.lastScannedAt, me.locale) })
              : t.overview.notCheckedYet}
          </p>
          <p>
            <Link href="/portal/breaches" className={styles.buttonLink}>
              {t.overview.viewBreaches}
            </Link>
          </p>
        </section>
      </div>
      {overview.timeline ? (
        <section className={styles.card} aria-labelledby="timeline-title">
          <h2 id="timeline-title">{t.overview.timelineTitle}</h2>
          <p className={styles.muted}>{t.overview.timelineHelp}</p>
          {overview.timeline.length > 0 ? (
            <ExposureChart timeline={overview.timeline} t={t.overview} labels={t.breaches} />
          ) : (
            <p>{t.overview.timelineEmpty}</p>
          )}
        </section>
      ) : (
        <UpgradeCard t={t.upgrade} />
      )}
    </>
  );
}
