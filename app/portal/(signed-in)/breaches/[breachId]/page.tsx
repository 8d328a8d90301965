import type { Metadata } from "next";
import Link from "next/link";
import { Fragment } from "react";
import { notFound } from "next/navigation";
import { formatDate } from "../../../_components/format-date";
import { MuteButton } from "../../../_components/mute-button";
import { ResolveButton } from "../../../_components/resolve-button";
import { StatusBadge } from "../../../_components/status-badge";
import { UpgradeCard } from "../../../_components/upgrade-card";
import { format } from "@/server/i18n/format";
import { isNotFound, portalPage, portalTitle } from "../../../portal-page";
import styles from "../../../portal.module.css";
import { isUuid } from "@/server/uuid";

export async function generateMetadata(): Promise<Metadata> {
  return { title: await portalTitle((t) => t.nav.breaches) };
}

export default async function BreachPage({ params }: { params: Promise<{ breachId: string }> }) {
  const { breachId } = await params;
  const { portal, me, t } = await portalPage(`/portal/breaches/${encodeURIComponent(breachId)}`);
  if (!isUuid(breachId)) notFound();
  const detail = await portal.getBreach({ breachId }).catch((error: unknown) => {
    if (isNotFound(error)) notFound();
    throw error;
  });
  const { breach } = detail;
  const { muted } = await portal.breachMuted({ breachId });
  const heading = detail.redacted ? format(t.breaches.exposureNumber, { number: detail.breach.number }) : detail.breach.title;

  return (
    <>
      <p>
        <Link href="/portal/breaches" prefetch={false}>
          ← {t.breach.allBreaches}
        </Link>
      </p>
      <div className={styles.breachHead}>
        <h1>{heading}</h1>
        <StatusBadge resolved={breach.resolved} labels={t.breaches} />
      </div>
      <section className={styles.card} aria-label={t.breach.status}>
        <dl className={styles.facts}>
          {!detail.redacted && (
            <>
              <dt>{t.breaches.breachDate}</dt>
              <dd>{formatDate(detail.breach.breachDate, me.locale)}</dd>
              <dt>{t.breaches.categories}</dt>
              <dd>
                <ul className={styles.tags}>
                  {detail.breach.breachCategories.map((category) => (
                    <li key={category} lang="en">
                      {category}
                    </li>
                  ))}
                </ul>
              </dd>
            </>
          )}
          <dt>{t.breaches.exposedEmails}</dt>
          <dd>{breach.emails.join(", ")}</dd>
        </dl>
        <ResolveButton breachId={breach.id} resolved={breach.resolved} labels={t.breach} />
        <MuteButton breachId={breach.id} muted={muted} labels={t.breach} />
      </section>
      {detail.redacted ? (
        <UpgradeCard t={t.upgrade} />
      ) : (
        <>
          {detail.breach.capturedSites && detail.breach.capturedSites.length > 0 && (
            <section className={styles.card} aria-labelledby="captured-sites">
              <h2 id="captured-sites">{t.breach.capturedSites}</h2>
              <p>{t.breach.stealerLogIntro}</p>
              <dl className={styles.facts}>
                {detail.breach.capturedSites.map((captured) => (
                  <Fragment key={captured.email}>
                    <dt>{captured.email}</dt>
                    <dd>
                      <ul className={styles.tags}>
                        {captured.websiteDomains.map((website) => (
                          <li key={website}>{website}</li>
                        ))}
                      </ul>
                    </dd>
                  </Fragment>
                ))}
              </dl>
            </section>
          )}
          <section className={styles.card} aria-labelledby="what-happened">
            <h2 id="what-happened">{t.breach.whatHappened}</h2>
            <p>{detail.breach.generatedDescription}</p>
          </section>
          {detail.breach.nextSteps.length > 0 && (
            <section className={styles.card} aria-labelledby="next-steps">
              <h2 id="next-steps">{t.breach.nextSteps}</h2>
              <ol className={styles.steps}>
                {detail.breach.nextSteps.map((step) => (
                  <li key={step}>{step}</li>
                ))}
              </ol>
            </section>
          )}
          {detail.breach.description && (
            <section className={styles.card} aria-labelledby="catalogue-description">
              <h2 id="catalogue-description">{t.breach.catalogueDescription}</h2>
              <p lang="en">{detail.breach.description}</p>
            </section>
          )}
        </>
      )}
    </>
  );
}
