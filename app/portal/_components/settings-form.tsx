"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { LOCALE_CODES, LOCALE_NAMES, type LocaleCode } from "@/server/i18n/locales";
import type { NotificationSettings, RecipientKind } from "@/server/notifications/settings";
import type { PortalMessages } from "@/server/i18n/translations";
import styles from "../portal.module.css";
import { uiClient, withFreshAccess } from "./ui-client";

/** The settings as checkboxes; Save sends them all at once and re-renders the page. */
export function SettingsForm({ settings, labels }: { settings: NotificationSettings; labels: PortalMessages["settings"] }) {
  const router = useRouter();
  const [breachAlerts, setBreachAlerts] = useState(settings.breachAlerts);
  const [monthlyReport, setMonthlyReport] = useState(settings.monthlyReport);
  const [locale, setLocale] = useState<LocaleCode>(settings.locale);
  const [recipients, setRecipients] = useState(settings.recipients);
  const [state, setState] = useState<"idle" | "saving" | "saved" | "failed">("idle");
  const kinds: Array<{ kind: RecipientKind; label: string }> = [
    { kind: "breach_alert", label: labels.breachAlerts },
    { kind: "monthly_report", label: labels.monthlyReport },
  ];

  const toggle = (email: string, kind: RecipientKind) =>
    setRecipients((current) =>
      current.map((recipient) => (recipient.email === email ? { ...recipient, [kind]: !recipient[kind] } : recipient)),
    );

  const save = async (event: React.FormEvent) => {
    event.preventDefault();
    setState("saving");
    try {
      await withFreshAccess(
        () =>
          uiClient.portal.updateNotificationSettings.mutate({
            breachAlerts,
            monthlyReport,
            locale,
            recipients: recipients.flatMap((recipient) =>
              kinds.map(({ kind }) => ({ email: recipient.email, kind, receive: recipient[kind] })),
            ),
          }),
        router,
      );
      setState("saved");
      router.refresh();
    } catch {
      setState("failed");
    }
  };

  const message = { idle: "", saving: labels.saving, saved: labels.saved, failed: labels.saveFailed }[state];
  return (
    <form onSubmit={save}>
      <section className={styles.card} aria-labelledby="kinds-title">
        <h2 id="kinds-title" className={styles.visuallyHidden}>
          {labels.title}
        </h2>
        <p className={styles.settingsOption}>
          <input
            id="breach-alerts"
            type="checkbox"
            checked={breachAlerts}
            onChange={() => setBreachAlerts(!breachAlerts)}
            aria-describedby="breach-alerts-help"
          />
          <label htmlFor="breach-alerts" className={styles.strong}>
            {labels.breachAlerts}
          </label>
          <span id="breach-alerts-help" className={styles.note}>
            {labels.breachAlertsHelp}
          </span>
        </p>
        <p className={styles.settingsOption}>
          <input
            id="monthly-report"
            type="checkbox"
            checked={monthlyReport}
            onChange={() => setMonthlyReport(!monthlyReport)}
            aria-describedby="monthly-report-help"
          />
          <label htmlFor="monthly-report" className={styles.strong}>
            {labels.monthlyReport}
          </label>
          <span id="monthly-report-help" className={styles.note}>
            {labels.monthlyReportHelp}
          </span>
        </p>
      </section>
      <section className={styles.card}>
        <p className={styles.filterField}>
          <label htmlFor="language" className={styles.strong}>
            {labels.language}
          </label>
          <select
            id="language"
            value={locale}
            onChange={(event) => setLocale(event.target.value as LocaleCode)}
            aria-describedby="language-help"
          >
            {LOCALE_CODES.map((code) => (
              <option key={code} value={code} lang={code}>
                {LOCALE_NAMES[code]}
              </option>
            ))}
          </select>
          <span id="language-help" className={styles.note}>
            {labels.languageHelp}
          </span>
        </p>
      </section>
      <section className={styles.card} aria-labelledby="recipients-title">
        <h2 id="recipients-title">{labels.recipients}</h2>
        <p className={styles.note}>{labels.recipientsHelp}</p>
        {recipients.length === 0 ? (
          <p>{labels.noRecipients}</p>
        ) : (
          <div className={styles.tableScroll}>
            <table className={styles.settingsTable}>
              <thead>
                <tr>
                  <th scope="col">{labels.address}</th>
                  {kinds.map(({ kind, label }) => (
                    <th scope="col" key={kind}>
                      {label}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {recipients.map((recipient) => (
                  <tr key={recipient.email}>
                    <th scope="row">{recipient.email}</th>
                    {kinds.map(({ kind, label }) => (
                      <td key={kind}>
                        <input
                          type="checkbox"
                          checked={recipient[kind]}
                          onChange={() => toggle(recipient.email, kind)}
                          aria-label={`${label}: ${recipient.email}`}
                        />
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <div className={styles.resolve}>
        <button type="submit" className={styles.primaryButton} disabled={state === "saving"}>
          {labels.save}
        </button>
        <p role="status" className={state === "failed" ? styles.errorText : styles.muted}>
          {message}
        </p>
      </div>
    </form>
  );
}
