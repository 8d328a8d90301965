import type { Metadata } from "next";
import type { PortalDomain } from "@/server/domains/portal";
import { format } from "@/server/i18n/format";
import { domainTexts } from "@/server/i18n/translations";
import { CheckDnsButton, CopyValue, SendLinkForm } from "../../_components/domain-actions";
import domainStyles from "../../_components/domain-actions.module.css";
import { formatDate } from "../../_components/format-date";
import { portalPage, portalTitle } from "../../portal-page";
import styles from "../../portal.module.css";

export async function generateMetadata(): Promise<Metadata> {
  return { title: await portalTitle((t) => t.nav.domains) };
}

type Texts = ReturnType<typeof domainTexts>["portal"];

/**
 * What was found at the domain, and whether the portal shows it: withheld addresses wait for the
 * verification; the others (all of them under the `trusted` policy) are on the other pages.
 */
function foundText(entry: PortalDomain, t: Texts): string {
  const found = format(t.found, { addresses: entry.exposedAddressCount, breaches: entry.breachCount });
  if (entry.exposedAddressCount === 0) return found;
  if (entry.hiddenAddressCount === 0) return `${found} ${t.listedElsewhere}`;
  if (entry.hiddenAddressCount >= entry.exposedAddressCount) return `${found} ${t.hiddenUntilVerified}`;
  return `${found} ${format(t.partlyHidden, { hidden: entry.hiddenAddressCount })}`;
}

/**
 * The customer's domains (docs/portal.md, "Domains"): each one's state and what was found at it;
 * for an unverified one the two ways to verify it, each with its own button: the DNS record to
 * publish, and the e-mailed link.
 */
export default async function DomainsPage() {
  const { portal, me } = await portalPage("/portal/domains");
  const t = domainTexts(me.locale).portal;
  const domains = await portal.domains();
  const anyHidden = domains.some((entry) => entry.status === "unverified" && entry.hiddenAddressCount > 0);
  return (
    <>
      <h1>{t.title}</h1>
      <p className={styles.lead}>{anyHidden || domains.length === 0 ? t.intro : t.introShown}</p>
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
            {entry.status === "unverified"
              ? foundText(entry, t)
              : format(t.found, { addresses: entry.exposedAddressCount, breaches: entry.breachCount })}
          </p>
          {entry.status === "unverified" && (
            <>
              <div className={domainStyles.option}>
                <h3>{t.dnsHeading}</h3>
                <p>{t.dnsSteps}</p>
                <dl className={domainStyles.record}>
                  <dt>{t.recordType}</dt>
                  <dd>
                    <code>{entry.dnsRecord.type}</code>
                  </dd>
                  <dt>{t.recordName}</dt>
                  <dd>
                    <code className={domainStyles.value}>{entry.dnsRecord.name}</code>
                  </dd>
                  <dt>{t.recordValue}</dt>
                  <dd>
                    <CopyValue value={entry.dnsRecord.value} labels={{ copy: t.copyValue, copied: t.copied }} />
                  </dd>
                </dl>
                <CheckDnsButton domain={entry.domain} labels={{ check: t.check, notYet: t.notYet }} />
              </div>
              <div className={domainStyles.option}>
                <h3>{t.emailHeading}</h3>
                <p>{format(t.emailSteps, { domain: entry.domain })}</p>
                <SendLinkForm domain={entry.domain} labels={{ mailbox: t.mailbox, send: t.send, sent: t.sent }} />
              </div>
            </>
          )}
        </section>
      ))}
    </>
  );
}
