import type { Metadata } from "next";
import { format } from "@/server/i18n/format";
import { domainTexts } from "@/server/i18n/translations";
import { DomainActions } from "../../_components/domain-actions";
import { formatDate } from "../../_components/format-date";
import { portalPage, portalTitle } from "../../portal-page";
import styles from "../../portal.module.css";

export async function generateMetadata(): Promise<Metadata> {
  return { title: await portalTitle((t) => t.nav.domains) };
}

/**
 * The customer's domains (docs/portal.md, "Domains"): each one's state and what was found at it;
 * for an unverified one, the DNS record to publish and the e-mailed link, in plain words.
 */
export default async function DomainsPage() {
  const { portal, me } = await portalPage("/portal/domains");
  const t = domainTexts(me.locale).portal;
  const domains = await portal.domains();
  return (
    <>
      <h1>{t.title}</h1>
      <p className={styles.lead}>{t.intro}</p>
      {domains.length === 0 && <p>{t.none}</p>}
      {domains.map((entry) => (
        <section key={entry.domain} className={styles.card} aria-labelledby={`domain-${entry.domain}`}>
          <h2 id={`domain-${entry.domain}`}>
            {entry.domain} · {t.status[entry.status]}
          </h2>
          {entry.status === "verified" && entry.method && entry.verifiedAt && (
            <p className={styles.muted}>
              {format(t.verifiedHow[entry.method], { date: formatDate(entry.verifiedAt, me.locale), name: entry.verifiedBy ?? "" })}
            </p>
          )}
          <p>
            {format(t.found, { addresses: entry.exposedAddressCount, breaches: entry.breachCount })}
            {entry.status === "unverified" && entry.exposedAddressCount > 0 ? ` ${t.hiddenUntilVerified}` : ""}
          </p>
          {entry.status === "unverified" && (
            <>
              <h3>{t.dnsHeading}</h3>
              <p>{t.dnsSteps}</p>
              <dl>
                <dt>{t.recordType}</dt>
                <dd>
                  <code>{entry.dnsRecord.type}</code>
                </dd>
                <dt>{t.recordName}</dt>
                <dd>
                  <code>{entry.dnsRecord.name}</code>
                </dd>
                <dt>{t.recordValue}</dt>
                <dd>
                  <code>{entry.dnsRecord.value}</code>
                </dd>
              </dl>
              <h3>{t.emailHeading}</h3>
              <p>{format(t.emailSteps, { domain: entry.domain })}</p>
              <DomainActions
                domain={entry.domain}
                labels={{ check: t.check, notYet: t.notYet, mailbox: t.mailbox, send: t.send, sent: t.sent }}
              />
            </>
          )}
        </section>
      ))}
    </>
  );
}
