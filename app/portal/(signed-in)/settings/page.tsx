import type { Metadata } from "next";
import { SettingsForm } from "../../_components/settings-form";
import { format } from "@/server/i18n/format";
import { portalPage, portalTitle } from "../../portal-page";
import styles from "../../portal.module.css";

export async function generateMetadata(): Promise<Metadata> {
  return { title: await portalTitle((t) => t.settings.title) };
}

/** Which e-mails the customer gets (breach alerts, monthly report), and which of its recipients get them. */
export default async function SettingsPage() {
  const { portal, me, t } = await portalPage("/portal/settings");
  const settings = await portal.notificationSettings();
  return (
    <>
      <h1>{t.settings.title}</h1>
      <p className={styles.lead}>{format(t.settings.intro, { company: me.companyName })}</p>
      {settings.partnerSendsEmails ? null : <p className={styles.card}>{t.settings.partnerOff}</p>}
      <SettingsForm settings={settings} labels={t.settings} />
    </>
  );
}
